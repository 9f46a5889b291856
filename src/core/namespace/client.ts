import type { Schema, Table as ArrowTable } from 'apache-arrow'
import type { FieldInfo, Page } from '../../contract'
import type { NamespacePath, TableId } from './path'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../contract/lifecycle'

export interface ListOptions {
  pageToken?: string
  /** Upper bound on the page size; absent = the implementation's default. */
  limit?: number
  signal?: AbortSignal
}

export interface CallOptions {
  signal?: AbortSignal
}

export interface TableDescription {
  name: string
  namespace: NamespacePath
  rowCount: number
  version: number
  /** The Arrow schema, for writers (import). */
  schema: Schema
  /** Readable form of the schema for the UI. */
  fields: FieldInfo[]
}

export interface ReadPageOptions extends CallOptions {
  /** Read this version (read-only); absent = the latest. */
  version?: number
  offset: number
  limit: number
  /** Column projection; absent = every column. */
  columns?: string[]
}

/** `create` fails if the table exists, `overwrite` replaces it, `exist_ok` opens the existing one. */
export type CreateMode = 'create' | 'overwrite' | 'exist_ok'

/**
 * The one namespace API the app uses (the catalog specification's namespace client).
 * Implementations: `dir` (local directory through @lancedb/lancedb) and `rest` (a REST catalog server).
 * Every method validates its ids; errors are `AppError`s with a code a person can act on.
 */
export interface NamespaceClient {
  readonly implementation: 'dir' | 'rest'

  // namespaces
  listNamespaces(namespace: NamespacePath, options?: ListOptions): Promise<Page<string>>
  createNamespace(namespace: NamespacePath, options?: { mode?: 'create' | 'exist_ok'; properties?: Record<string, string> } & CallOptions): Promise<void>
  describeNamespace(namespace: NamespacePath, options?: CallOptions): Promise<{ properties: Record<string, string> }>
  dropNamespace(namespace: NamespacePath, options?: { behavior?: 'restrict' | 'cascade' } & CallOptions): Promise<void>

  // tables
  listTables(namespace: NamespacePath, options?: ListOptions): Promise<Page<string>>
  /** `version`: describe that version (read-only); absent = the latest. */
  describeTable(id: TableId, options?: { version?: number } & CallOptions): Promise<TableDescription>
  /** Rows `[offset, offset + limit)` as Arrow IPC stream bytes. */
  readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array>
  createTable(id: TableId, data: ArrowTable, options?: { mode?: CreateMode } & CallOptions): Promise<TableDescription>
  createEmptyTable(id: TableId, schema: Schema, options?: { mode?: CreateMode } & CallOptions): Promise<TableDescription>
  /** Append rows to an existing table; returns its new version. */
  appendRows(id: TableId, data: ArrowTable, options?: CallOptions): Promise<number>
  /** Make `version` the latest again (used to roll back a failed append). */
  restoreVersion(id: TableId, version: number, options?: CallOptions): Promise<void>
  dropTable(id: TableId, options?: CallOptions): Promise<void>
  renameTable(id: TableId, newName: string, options?: { newNamespace?: NamespacePath } & CallOptions): Promise<void>

  // table lifecycle (src/core/lifecycle): versions, tags, indexes, stats, maintenance, schema
  /** Every version, oldest first, with row count, inferred operation and tags. */
  listVersions(id: TableId, options?: CallOptions): Promise<VersionInfo[]>
  listTags(id: TableId, options?: CallOptions): Promise<TagInfo[]>
  createTag(id: TableId, tag: string, version: number, options?: CallOptions): Promise<void>
  deleteTag(id: TableId, tag: string, options?: CallOptions): Promise<void>
  /** The version a tag points at. */
  tagVersion(id: TableId, tag: string, options?: CallOptions): Promise<number>
  listIndexes(id: TableId, options?: CallOptions): Promise<IndexInfo[]>
  createIndex(id: TableId, spec: IndexSpec, options?: CallOptions): Promise<void>
  dropIndex(id: TableId, name: string, options?: CallOptions): Promise<void>
  tableStats(id: TableId, options?: CallOptions): Promise<TableStats>
  /** Compact files and update indexes; with `pruneOlderThanDays`, remove older versions too. */
  optimize(id: TableId, options?: { pruneOlderThanDays?: number } & CallOptions): Promise<OptimizeResult>
  /** Each returns the table's new version. */
  addColumns(id: TableId, columns: NewColumn[], options?: CallOptions): Promise<number>
  alterColumns(id: TableId, alterations: ColumnAlteration[], options?: CallOptions): Promise<number>
  dropColumns(id: TableId, names: string[], options?: CallOptions): Promise<number>

  close(): Promise<void>
}

/** Follow `pageToken` to the end: never a silently truncated list. */
export async function listAll(
  list: (options: ListOptions) => Promise<Page<string>>,
  options: Omit<ListOptions, 'pageToken'> = {},
): Promise<string[]> {
  const all: string[] = []
  const seen = new Set<string>()
  let pageToken: string | undefined
  do {
    const page = await list({ ...options, pageToken })
    for (const item of page.items) {
      if (!seen.has(item)) {
        seen.add(item)
        all.push(item)
      }
    }
    // A token that does not move would loop forever; treat it as the end.
    pageToken = page.pageToken && page.pageToken !== pageToken ? page.pageToken : undefined
  } while (pageToken)
  return all
}
