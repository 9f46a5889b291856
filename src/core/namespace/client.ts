import type { RecordBatch, Schema, Table as ArrowTable } from 'apache-arrow'
import type { CatalogDataFormats, DataFormat, FieldInfo, Page, TableViewSpec } from '../../contract'
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
  /** The table's latest version when this description was made (differs from `version` for an old version). */
  latestVersion?: number
  /** The table's indexes (which columns a vector or full-text search can use); absent when unknown. */
  indexes?: IndexSummary[]
}

/** One index of a table: Lance's type name (`FTS`, `IVF_PQ`, `BTree`, …) and its columns. */
export interface IndexSummary {
  name: string
  type: string
  columns: string[]
}

export interface DescribeOptions extends CallOptions {
  /** Describe this version (default: the latest). */
  version?: number
  /** Also list the table's indexes (`TableDescription.indexes`). */
  indexes?: boolean
}

/** Options of a query plan: `analyze` runs the query and adds metrics; `offset`/`limit` window the rows. */
export interface ExplainOptions extends CallOptions {
  analyze?: boolean
  verbose?: boolean
  offset?: number
  limit?: number
}

/** Options of a view query (pages, counts, scans, plans): the view's version, filter, sort, columns and search. */
export interface ViewOptions extends CallOptions {
  view?: TableViewSpec
}

export interface ReadPageOptions extends CallOptions {
  /** Read this version (read-only); absent = the latest. */
  version?: number
  offset: number
  limit: number
  /** Column projection; absent = every column (or the view's columns). */
  columns?: string[]
  /** Read through this view: its version, filter, sort, columns and search (offset/limit window its rows). */
  view?: TableViewSpec
  /** With a view: add `_rowid` to each row. */
  withRowId?: boolean
  /** With a view: skip un-indexed data in a search (Lance's `fastSearch`). */
  fastSearch?: boolean
}

/** `create` fails if the table exists, `overwrite` replaces it, `exist_ok` opens the existing one. */
export type CreateMode = 'create' | 'overwrite' | 'exist_ok'

/**
 * How a table is created: `mode`, and `dataFormat`, the data file format of a NEW table (legacy, 2.0, 2.1; absent =
 * Lance's default, 2.1). Where the catalog decides the format itself (a REST server) `dataFormat` is not sent.
 */
export type CreateOptions = { mode?: CreateMode; dataFormat?: DataFormat } & CallOptions

export interface ScanOptions {
  signal?: AbortSignal
  /**
   * Dir, plain views (read in windows of 8,192 rows): open the next window's query halfway through this one, so
   * Lance reads it while the rest is used (default true). A consumer slower than Lance gains nothing from it and
   * holds a window more (export: ~50 MiB), so it passes false.
   */
  nextWindowEarly?: boolean
  /**
   * Dir: at most this many rows, read as ONE streaming Lance query rather than in windows (SQL's hand-over: the
   * windows' queries cost more than their read-ahead saves when only a few narrow columns are read).
   */
  limit?: number
  /**
   * Dir, with `limit` (that one query): rows per batch Lance answers (its default is 1,024: each batch crosses from
   * Rust to JS on its own, so SQL's hand-over asks for far larger ones).
   */
  batchRows?: number
}

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
  describeTable(id: TableId, options?: DescribeOptions): Promise<TableDescription>
  /** Rows `[offset, offset + limit)` as Arrow IPC stream bytes. */
  readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array>
  /** Rows of the view (the table's row count for a view without filter or search), at the view's version. */
  countRows(id: TableId, options?: ViewOptions): Promise<number>
  /** Every row of the view, batch by batch (dir: one streaming Lance query; rest: paged server queries). */
  scan(id: TableId, view: TableViewSpec, options?: ScanOptions): AsyncIterable<RecordBatch>
  /**
   * `column` and `_rowaddr` (uint64: fragment << 32 | offset) of every row at `version`, where the engine can say
   * (dir: Lance; absent over REST). Same address in two versions = the same stored row, unchanged.
   */
  scanRowAddresses?(id: TableId, version: number, column: string, options?: { signal?: AbortSignal }): AsyncIterable<RecordBatch>
  /**
   * The `columns` of the rows at `offsets` (positions in the order of {@link scanRowAddresses}' rows: the n-th row
   * of the version, deleted rows not counted), read by position without scanning the table (dir: Lance's take).
   */
  takeRows?(id: TableId, version: number, offsets: number[], columns: string[], options?: { signal?: AbortSignal }): AsyncIterable<RecordBatch>
  /** Lance's plan for the view's query (`explainPlan`; `analyze`: run it and add metrics). */
  explainQuery(id: TableId, view: TableViewSpec, options?: ExplainOptions): Promise<string>
  /**
   * A cheap identity of `version`'s commit, different for another commit with the same version number (a table
   * dropped and created again), for keeping answers per version (dir on a local directory: a hash of the
   * version's manifest); null or absent where it cannot be had cheaply (then the commit time from
   * {@link listVersions} serves).
   */
  versionStamp?(id: TableId, version: number, options?: CallOptions): Promise<string | null>
  /** The table's latest version (cheap: for "a newer version is available"). */
  latestVersion(id: TableId, options?: CallOptions): Promise<number>
  createTable(id: TableId, data: ArrowTable, options?: CreateOptions): Promise<TableDescription>
  createEmptyTable(id: TableId, schema: Schema, options?: CreateOptions): Promise<TableDescription>
  /** Append rows to an existing table; returns its new version. */
  appendRows(id: TableId, data: ArrowTable, options?: CallOptions): Promise<number>
  /**
   * Where the catalog writes locally through lancedb (dir): append the rows of an Arrow IPC file buffer as
   * they are (arrow-rs decodes it: buffer compression and view types included) in one commit; returns the
   * new version. Absent: the import decodes and uses `appendRows`.
   */
  appendIpc?(id: TableId, ipcFile: Uint8Array, options?: CallOptions): Promise<number>
  /** With `appendIpc`: create a table from an Arrow IPC file buffer's schema and rows, as `createTable` does. */
  createTableIpc?(id: TableId, ipcFile: Uint8Array, options?: CreateOptions): Promise<TableDescription>
  /**
   * The data file format of `id` at its latest version (`legacy`, `2.0`, `2.1`, …), where it can be read cheaply
   * (dir on a local disk: one manifest read); null or absent elsewhere.
   */
  tableDataFormat?(id: TableId): Promise<string | null>
  /** The formats of the catalog's tables and the one new tables take by default (see {@link CatalogDataFormats}). */
  catalogDataFormats?(): Promise<CatalogDataFormats>
  /** Make `version` the latest again (used to roll back a failed append). */
  restoreVersion(id: TableId, version: number, options?: CallOptions): Promise<void>
  dropTable(id: TableId, options?: CallOptions): Promise<void>
  renameTable(id: TableId, newName: string, options?: { newNamespace?: NamespacePath } & CallOptions): Promise<void>
  /**
   * Where the catalog can do it atomically (dir): replace `target`'s data with the complete table `staging`
   * (same namespace) in one step, dropping the old data. Absent: the import copies instead.
   */
  replaceTable?(staging: TableId, target: TableId): Promise<void>
  /**
   * Where the catalog keeps a journal (dir): record durably that rows are about to be appended to `id`, which
   * is at `version`, so an interrupted append is rolled back when the catalog is opened next. Returns the
   * function that clears the record once the append has finished or been undone.
   */
  recordAppend?(id: TableId, version: number): Promise<() => Promise<void>>

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
  /** Delete the rows `predicate` matches, in one commit; returns the new version. */
  deleteRows(id: TableId, predicate: string, options?: CallOptions): Promise<number>

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
