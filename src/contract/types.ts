import type { AppErrorData } from './result'
import type { NamespacePath } from './component'

/** An open catalog: a root in the tree. */
export interface ConnectionInfo {
  /** Opaque id chosen by main; stable while the connection is open. */
  id: string
  kind: 'dir' | 'rest'
  /** What the tree shows for the root, e.g. the directory's base name or the connection's name. */
  label: string
  /** The directory path or the endpoint URL (never credentials). */
  location: string
  /** The saved connection this was opened from (REST). */
  savedId?: string
  /** The Read-only switch: when on, every write is refused (remembered per saved connection and directory). */
  readOnly?: boolean
  /**
   * What crashed writers left unfinished in this catalog, in words ("an interrupted import of landing/crashtest"),
   * when it was opened read-only: nothing was written; `connections/recover` finishes or undoes it. Absent when
   * nothing was left (or it was recovered while opening).
   */
  pendingRecovery?: string[]
}

export interface RecentDirectory {
  path: string
  /** ms since epoch */
  openedAt: number
}

export interface Page<T> {
  items: T[]
  /** Present when more items follow; pass it back to get the next page. */
  pageToken?: string
}

/** A column of a table schema, made readable for people. */
export interface FieldInfo {
  name: string
  /** Readable Arrow type, e.g. `Int64`, `Utf8`, `Timestamp<MICROSECOND, UTC>`, `FixedSizeList<Float32>[128]`. */
  type: string
  nullable: boolean
  /** For vector columns (fixed-size list of floats): the dimension. */
  vectorDimension?: number
  children?: FieldInfo[]
}

export interface TableInfo {
  name: string
  namespace: NamespacePath
  rowCount: number
  version: number
  schema: FieldInfo[]
  /** The latest version when described (greater than `version` when an older version was asked for). */
  latestVersion?: number
  /** The table's indexes (`FTS` ones enable the full-text search box); absent when the catalog cannot tell. */
  indexes?: { name: string; type: string; columns: string[] }[]
}

/** A command line that starts the MCP server; the catalog's arguments (`--root …`) go after `args`. */
export interface McpLauncher {
  command: string
  args: string[]
}

export interface AppInfo {
  version: string
  /** Which process serves the core: the desktop app, the harness (the renderer over loopback HTTP) or the MCP server (no renderer). */
  host: 'electron' | 'harness' | 'mcp'
  /** The connection opened at start (the demo catalog in the app, the `--root` in the harness). */
  initialConnection: ConnectionInfo | null
  /** Why the start connection could not be opened, if it failed. */
  initialError?: AppErrorData
  /** Whether a native folder picker exists (Electron) — the harness has none. */
  canPickDirectory: boolean
  /**
   * How an AI assistant starts this checkout's MCP server (`npm run mcp`): the command and the arguments before the
   * catalog's own (**Connect an assistant…** writes them into its snippets). Absent where the app does not run from a
   * checkout that has it (a packaged app).
   */
  mcpLauncher?: McpLauncher
}

export interface TableRef {
  connectionId: string
  namespace: NamespacePath
  name: string
}

/** Lance's query plan for a view, and what it tells about a vector search. */
export interface QueryPlan {
  plan: string
  /** For a vector search: whether Lance uses the column's vector index (false = an exact, brute-force search). */
  usesVectorIndex?: boolean
}
