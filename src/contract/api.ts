import { z } from 'zod'
import { componentSchema, namespacePathSchema } from './component'
import { connectionDraftSchema, objectStoreDraftSchema, savedKindSchema, type CapabilitySnapshot, type SavedTestReport, type SavedView } from './connections'
import type { AppInfo, ConnectionInfo, Page, QueryPlan, RecentDirectory, TableInfo } from './types'
import { MAX_PREDICATE_LENGTH, tableViewSchema } from './view'
import { dataFormatSchema, type CatalogDataFormats } from './dataFormat'
import { acknowledgeLegacySchema, columnAlterationSchema, columnSpecSchema, indexSpecSchema, propertiesSchema, type NamespaceContents, newColumnSchema, optimizeInputSchema, type IndexInfo, type OptimizePreview, type OptimizeResult, type RestorePreview, type TableStats, type TagInfo, type VersionComparison, type VersionInfo } from './lifecycle'
import { importPreviewInput, importStartInput, uploadIdSchema, type ImportJobInfo, type ImportPreview } from './import'
import { exportStartInput, type ExportJobInfo } from './export'
import type { IndexJobInfo } from './indexJobs'
import { jobIdSchema, type JobInfo } from './jobs'
import { mapJobIdSchema, mapMethodSchema, umapSampleSchema, type MapJobInfo } from './map'
import { profileJobIdSchema, type ProfileJobInfo } from './profile'
import { diffJobIdSchema, type DiffJobInfo } from './diff'
import { MAX_ROW_SET_ROWS, type RowSetInfo } from './rowSet'
import { savedTabsSchema, type RememberedTabs } from './workbench'
import { queryIdSchema, sqlExplainInput, sqlHistoryAddInput, sqlPageInput, sqlResultTableInput, sqlRunInput, sqlSaveAsTableInput, type SqlExplain, type SqlHistoryEntry, type SqlNames, type SqlQueryInfo, type SqlResultTable } from './sql'

/**
 * The one API between the renderer and the core, keyed by `'domain/verb'`.
 * Each entry holds the zod schema of its input (parsed at every boundary: IPC and harness HTTP)
 * and, as a phantom type, its output. Add a method here and every transport and the renderer's
 * client see it; nothing is written twice.
 */
function method<Output>() {
  return <Input extends z.ZodType>(input: Input) => ({ input, output: undefined as unknown as Output })
}

export const connectionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a connection id')
/** Lets a caller cancel its request with `requests/cancel`. */
export const requestIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a request id')

const savedIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a saved connection id')
/** One saved connection: its kind (which store holds it) and its id. */
const savedRef = z.object({ kind: savedKindSchema, id: savedIdSchema })

const namespaceRef = z.object({ connectionId: connectionIdSchema, namespace: namespacePathSchema })
const listInput = namespaceRef.extend({
  pageToken: z.string().max(4096).optional(),
  limit: z.number().int().min(1).max(10_000).optional(),
  requestId: requestIdSchema.optional(),
})
export const tableRefSchema = namespaceRef.extend({ name: componentSchema })

export const MAX_PAGE_ROWS = 10_000
const versionSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)
const tagSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be 1–128 letters, digits, _ . -')
const columnNames = z.array(z.string().min(1).max(1024)).min(1).max(1000)

export const api = {
  'app/info': method<AppInfo>()(z.object({})),
  /**
   * Start the catalog host again after it stopped or stopped answering (the desktop app runs the core in its own
   * process; main answers this, ending a host that does not answer first). The new host reopens the catalogs that
   * were open, under the same connection ids. Refused elsewhere.
   */
  'app/restartHost': method<null>()(z.object({})),
  'connections/list': method<ConnectionInfo[]>()(z.object({})),
  'connections/openDirectory': method<ConnectionInfo>()(
    z.object({ path: z.string().min(1, 'must not be empty').max(4096) }),
  ),
  /**
   * **Create a catalog here**: an empty directory (local or `file://`) becomes a Lance directory namespace
   * (`__manifest` written through lancedb), then opens as `connections/openDirectory` does. Anything but an empty,
   * existing directory is refused before a byte is written.
   */
  'connections/createCatalog': method<ConnectionInfo>()(z.object({ path: z.string().min(1, 'must not be empty').max(4096) })),
  'connections/close': method<null>()(z.object({ connectionId: connectionIdSchema })),
  /** The Read-only switch of an open connection (remembered for its saved connection or directory). */
  'connections/setReadOnly': method<ConnectionInfo>()(z.object({ connectionId: connectionIdSchema, readOnly: z.boolean() })),
  /**
   * Recover what crashed writers left in a catalog opened read-only (`pendingRecovery`): the user's say-so for
   * this one write, which the Read-only switch does not block. Answers the connection without `pendingRecovery`.
   */
  'connections/recover': method<ConnectionInfo>()(z.object({ connectionId: connectionIdSchema })),
  'connections/recent': method<RecentDirectory[]>()(z.object({})),
  /** The tabs remembered for an open catalog (the settings, keyed like its Read-only switch); none when nothing is. */
  'workbench/tabs': method<RememberedTabs>()(z.object({ connectionId: connectionIdSchema })),
  /** Remember the tabs open on a catalog (the desktop app restores them at the next start). */
  'workbench/saveTabs': method<null>()(z.object({ connectionId: connectionIdSchema, saved: savedTabsSchema })),
  'dialogs/pickDirectory': method<{ path: string | null }>()(z.object({})),
  /** Native file picker for "Import…" (Electron); `paths` is empty when the user cancels. The harness has none (`unsupported`). */
  'dialogs/pickFiles': method<{ paths: string[] }>()(
    z.object({
      filters: z.array(z.object({ name: z.string().min(1).max(100), extensions: z.array(z.string().regex(/^(\*|[A-Za-z0-9]{1,16})$/)).min(1).max(20) })).max(20).optional(),
    }),
  ),
  /** Native save dialog (Electron, for "Export…"); `path` is null when the user cancels. The harness has none (`unsupported`). */
  'dialogs/saveFile': method<{ path: string | null }>()(
    z.object({
      defaultName: z.string().min(1).max(255).optional(),
      filters: z.array(z.object({ name: z.string().min(1).max(100), extensions: z.array(z.string().regex(/^(\*|[A-Za-z0-9]{1,16})$/)).min(1).max(20) })).max(20).optional(),
    }),
  ),
  'namespaces/list': method<Page<string>>()(listInput),
  'tables/list': method<Page<string>>()(listInput),
  /** Describe a table at `version` (default: the latest), with its latest version and its indexes. */
  'tables/describe': method<TableInfo>()(tableRefSchema.extend({ version: z.number().int().min(1).optional() })),
  /**
   * A page of rows as Arrow IPC stream bytes: rows `[offset, offset + limit)` of the `view` (its version,
   * filter, sort, columns and search — a search is read through the view too, so there is no separate route).
   */
  'tables/page': method<Uint8Array>()(
    tableRefSchema.extend({
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(MAX_PAGE_ROWS),
      columns: z.array(z.string().min(1).max(1024)).max(10_000).optional(),
      view: tableViewSchema.optional(),
      requestId: requestIdSchema.optional(),
      version: versionSchema.optional(),
    }),
  ),
  /** Rows of the view (its filter or search) at its version. */
  'tables/count': method<number>()(tableRefSchema.extend({ view: tableViewSchema, requestId: requestIdSchema.optional() })),
  /** The table's latest version, for "Newer version available". */
  'tables/latestVersion': method<number>()(tableRefSchema),
  /** Lance's plan for the view's query (`explainPlan`): says whether a vector search uses the column's index. */
  'tables/explain': method<QueryPlan>()(tableRefSchema.extend({ view: tableViewSchema, analyze: z.boolean().optional() })),
  /** Create a namespace (its parent must exist). */
  'namespaces/create': method<null>()(z.object({ connectionId: connectionIdSchema, namespace: z.array(componentSchema).min(1, 'must name the new namespace').max(64), properties: propertiesSchema.optional() })),
  /** Drop a namespace: empty only (restrict, the default), or with everything in it (`cascade: true`). */
  'namespaces/drop': method<null>()(z.object({ connectionId: connectionIdSchema, namespace: z.array(componentSchema).min(1, 'the root namespace cannot be dropped').max(64), cascade: z.boolean().optional() })),
  /** A namespace's properties. */
  'namespaces/describe': method<{ properties: Record<string, string> }>()(namespaceRef),
  /** What a cascading drop would delete (up to 500 entries). */
  'namespaces/contents': method<NamespaceContents>()(namespaceRef),
  /** Drop a table and its data. */
  'tables/drop': method<null>()(tableRefSchema),
  /** Rename a table, inside its namespace or into `newNamespace` (which must exist). */
  'tables/rename': method<null>()(tableRefSchema.extend({ newName: componentSchema, newNamespace: namespacePathSchema.optional() })),
  /**
   * Saved connections, one family for both kinds (`kind`: `rest` for a REST catalog server, `object-store` for a
   * directory catalog in a bucket or at a `file://` URI). Views are secret-free: a view says *that* a secret is saved,
   * never what it is. The list holds both kinds, each entry with its `kind`.
   */
  'connections/saved/list': method<SavedView[]>()(z.object({})),
  /** Create or update a saved connection; secrets go to the secret store (safeStorage on the desktop) and never come back. */
  'connections/saved/save': method<SavedView>()(
    z.discriminatedUnion('kind', [z.object({ kind: z.literal('rest'), draft: connectionDraftSchema }), z.object({ kind: z.literal('object-store'), draft: objectStoreDraftSchema })]),
  ),
  /** Delete a saved connection and its secrets (the only call that does). */
  'connections/saved/delete': method<null>()(savedRef),
  /** Open a saved connection as a root of the tree. Fails (changing nothing) if the server or store refuses. */
  'connections/saved/open': method<ConnectionInfo>()(savedRef),
  /**
   * "Save & connect": connect with the form first and save only when the server or store answers. A failure
   * (wrong key, dead server) saves nothing and leaves an existing saved connection exactly as it was.
   */
  'connections/saved/connect': method<{ view: SavedView; connection: ConnectionInfo }>()(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('rest'), draft: connectionDraftSchema }),
      /** `create`: the prefix is empty and the user confirmed **Create a catalog here** (only an empty prefix is accepted). */
      z.object({ kind: z.literal('object-store'), draft: objectStoreDraftSchema, create: z.boolean().optional() }),
    ]),
  ),
  /**
   * "Test": a saved connection (`id`) or an unsaved draft. REST lists the tables (GET /v1/tables) and, with
   * `write: true`, also creates a small table, lists again and drops it; an object store opens the catalog and
   * lists its root (reads only).
   */
  'connections/saved/test': method<SavedTestReport>()(
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('rest'), id: savedIdSchema.optional(), draft: connectionDraftSchema.optional(), write: z.boolean(), requestId: requestIdSchema.optional() }),
      z.object({ kind: z.literal('object-store'), id: savedIdSchema.optional(), draft: objectStoreDraftSchema.optional() }),
    ]),
  ),
  /** What a REST connection's server turned out not to support (null for a directory: everything). */
  'connections/capabilities': method<CapabilitySnapshot | null>()(z.object({ connectionId: connectionIdSchema })),
  /** Abort a request started with a `requestId`; unknown ids are ignored (it may have finished). */
  'requests/cancel': method<null>()(z.object({ requestId: requestIdSchema })),
  /** Import (src/core/import): the sheet's preview of a dropped file or staged upload. */
  'import/preview': method<ImportPreview>()(importPreviewInput),
  /** The first rows (up to 20) of the same preview, in the schema that will be written, as Arrow IPC stream bytes. */
  'import/sample': method<Uint8Array>()(importPreviewInput),
  /** Queue an import job; follow it with `jobs/progress` events. */
  'import/start': method<ImportJobInfo>()(importStartInput),
  /** Delete a staged upload the user did not import (the sheet was closed). */
  'import/discardUpload': method<null>()(z.object({ uploadId: uploadIdSchema })),
  /** Table lifecycle (src/core/lifecycle): every version, oldest first, with row count, operation and tags. */
  'versions/list': method<VersionInfo[]>()(tableRefSchema),
  /** Schema differences and row counts of two versions. */
  'versions/compare': method<VersionComparison>()(tableRefSchema.extend({ from: versionSchema, to: versionSchema })),
  /**
   * Make `version` the latest again, as a new version; answers the new latest version. The restored version keeps
   * the indexes *it* had: `rebuildIndexes` names indexes of the latest version to build again on it, as index jobs.
   */
  'versions/restore': method<{ version: number; jobs: IndexJobInfo[] }>()(
    tableRefSchema.extend({ version: versionSchema, rebuildIndexes: z.array(z.string().min(1).max(256)).max(100).optional() }),
  ),
  /** What a restore of `version` does to the indexes: which stay, which would be gone (and whether the app can rebuild them). */
  'versions/restorePreview': method<RestorePreview>()(tableRefSchema.extend({ version: versionSchema })),
  'tags/list': method<TagInfo[]>()(tableRefSchema),
  'tags/create': method<null>()(tableRefSchema.extend({ tag: tagSchema, version: versionSchema })),
  'tags/delete': method<null>()(tableRefSchema.extend({ tag: tagSchema })),
  /** The version a tag points at (open by tag). */
  'tags/resolve': method<{ version: number }>()(tableRefSchema.extend({ tag: tagSchema })),
  'indexes/list': method<IndexInfo[]>()(tableRefSchema),
  /** Build an index; cancellable with `requests/cancel` (a cancelled build is removed again). */
  'indexes/create': method<IndexInfo[]>()(tableRefSchema.extend({ index: indexSpecSchema, requestId: requestIdSchema.optional(), acknowledgeLegacy: acknowledgeLegacySchema })),
  /** Build an index as a job in the jobs panel; follow it with `jobs/progress` events. Refuses an existing name up front. */
  'indexes/start': method<IndexJobInfo>()(tableRefSchema.extend({ index: indexSpecSchema, acknowledgeLegacy: acknowledgeLegacySchema })),
  'indexes/drop': method<null>()(tableRefSchema.extend({ index: z.string().min(1).max(256) })),
  'tables/stats': method<TableStats>()(tableRefSchema),
  /** What `tables/optimize` with the same options would do. */
  'tables/optimizePreview': method<OptimizePreview>()(tableRefSchema.merge(optimizeInputSchema)),
  'tables/optimize': method<OptimizeResult>()(tableRefSchema.merge(optimizeInputSchema)),
  /** Add columns computed by SQL expressions (`CAST(NULL AS <type>)` for nulls); answers the new version. */
  'columns/add': method<{ version: number }>()(tableRefSchema.extend({ columns: z.array(newColumnSchema).min(1).max(100) })),
  /** Rename, cast or relax nullability of columns. */
  'columns/alter': method<{ version: number }>()(tableRefSchema.extend({ alterations: z.array(columnAlterationSchema).min(1).max(100) })),
  'columns/drop': method<{ version: number }>()(tableRefSchema.extend({ columns: columnNames })),
  /**
   * Delete the rows a filter matches (Lance's `delete`: one commit, so all of them or none); answers the new version and
   * how many rows matched. The filter is checked as a view's is first (a filter that does not parse deletes nothing).
   */
  'rows/delete': method<{ version: number; deleted: number }>()(
    tableRefSchema.extend({ filter: z.string().trim().min(1, 'must name the rows to delete').max(MAX_PREDICATE_LENGTH, `must be at most ${MAX_PREDICATE_LENGTH} characters`) }),
  ),
  /** The schema editor: a new table with no rows (`create_empty_table`); refuses an existing name. */
  'tables/createEmpty': method<TableInfo>()(
    tableRefSchema.extend({ columns: z.array(columnSpecSchema).min(1, 'add at least one column').max(1000), dataFormat: dataFormatSchema.optional() }),
  ),
  /** The data file format of a table (`legacy`, `2.0`, `2.1`, …; null where it cannot be read cheaply: REST, object storage). */
  'tables/dataFormat': method<{ format: string | null }>()(tableRefSchema),
  /** The formats of the catalog's tables and the one new tables take by default (their majority; 2.1 when none). */
  'catalog/dataFormats': method<CatalogDataFormats>()(z.object({ connectionId: connectionIdSchema })),
  /** Every job of this session, of every kind (import, export, index, profile, recovery): queued, running, and the history, oldest first. */
  'jobs/list': method<JobInfo[]>()(z.object({})),
  /**
   * Cancel a queued or running job of any kind; a finished one is left as it is. A cancelled job leaves nothing
   * half-made: no table or no new version (import), no file (export), the indexes the table had (an index build
   * ends its current step, then its index is dropped again), no kept profile.
   */
  'jobs/cancel': method<null>()(z.object({ jobId: jobIdSchema })),
  /** Export a table view to a file (src/core/export); follow it with `jobs/progress` events. */
  'export/start': method<ExportJobInfo>()(exportStartInput),
  /** Column profiles of a table view (its version and filter; src/core/profile): answered at once when kept, else a job followed by `jobs/progress` events. */
  'profile/start': method<ProfileJobInfo>()(tableRefSchema.extend({ view: tableViewSchema })),
  /** A profile job as it is now (with its result once done). */
  'profile/get': method<ProfileJobInfo>()(z.object({ jobId: profileJobIdSchema })),
  /** What changed between two versions, rows matched by the `key` column (src/core/diff): a job followed by `jobs/progress` events. */
  'diff/start': method<DiffJobInfo>()(tableRefSchema.extend({ from: versionSchema, to: versionSchema, key: z.string().min(1).max(1024) })),
  /** A diff job as it is now (with its result once done). */
  'diff/get': method<DiffJobInfo>()(z.object({ jobId: diffJobIdSchema })),
  /** The embedding map of a vector column at a version (src/core/map): answered at once when kept, else a job followed by `jobs/progress` events. */
  'map/start': method<MapJobInfo>()(tableRefSchema.extend({ column: z.string().min(1).max(1024), version: versionSchema.optional(), method: mapMethodSchema.optional(), sample: umapSampleSchema.optional() })),
  /** A map job as it is now (its summary once done). */
  'map/get': method<MapJobInfo>()(z.object({ jobId: mapJobIdSchema })),
  /** A finished map's coordinates as Arrow IPC bytes: columns `x`, `y` (Float32) and `row` (the row's offset in the table, Uint32). */
  'map/coords': method<Uint8Array>()(z.object({ jobId: mapJobIdSchema })),
  /**
   * Keep rows of a table version, chosen by offset (the map's lasso), as a row set a view names (`view.rowSet`).
   * Offsets are checked against the version's row count; duplicates count once. Over REST a set becomes an
   * `IN` filter, so it may name only as many rows as a filter can hold (else a clear `unsupported`).
   */
  'rowsets/create': method<RowSetInfo>()(
    tableRefSchema.extend({
      version: versionSchema,
      offsets: z.array(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).min(1, 'must name at least one row').max(MAX_ROW_SET_ROWS, `must name at most ${MAX_ROW_SET_ROWS.toLocaleString('en-US')} rows`),
    }),
  ),
  /**
   * SQL over the catalog (src/contract/sql.ts, src/core/sql): run one read-only statement; answers once the first
   * rows are there or the query ended. The query is kept (and holds memory) until `sql/close`.
   */
  'sql/run': method<SqlQueryInfo>()(sqlRunInput),
  /** Rows `[offset, offset + limit)` of a kept query's result as Arrow IPC bytes; waits for them while the query runs. Schema metadata `SQL_PAGE_META` says done / row count. */
  'sql/page': method<Uint8Array>()(sqlPageInput),
  /** A kept query as it stands (state, rows so far, row count once done). */
  'sql/status': method<SqlQueryInfo>()(z.object({ queryId: queryIdSchema })),
  /** Stop a running query (DuckDB's interrupt) and free what it holds; answers its final state. An unknown id answers null. */
  'sql/cancel': method<SqlQueryInfo | null>()(z.object({ queryId: queryIdSchema })),
  /** Forget a query and free its result (a closed query tab). Unknown ids are ignored. */
  'sql/close': method<null>()(z.object({ queryId: queryIdSchema })),
  /** DuckDB's plan of a statement and, per catalog table, what is pushed into Lance (columns, filter, limit). Runs nothing. */
  'sql/explain': method<SqlExplain>()(sqlExplainInput),
  /** Namespaces, tables and columns of a catalog, for the editor's completion. */
  'sql/names': method<SqlNames>()(z.object({ connectionId: connectionIdSchema })),
  /** The catalog's query history, newest first (kept in the settings, keyed by the catalog's location). */
  'sql/history/list': method<SqlHistoryEntry[]>()(z.object({ connectionId: connectionIdSchema })),
  /** Add a query to the catalog's history (the same text again moves to the top). */
  'sql/history/add': method<null>()(sqlHistoryAddInput),
  /** Clear the catalog's query history. */
  'sql/history/clear': method<null>()(z.object({ connectionId: connectionIdSchema })),
  /** Save as table…: a query's rows written into a namespace through the import path, as an import job. */
  'sql/saveAsTable': method<ImportJobInfo>()(sqlSaveAsTableInput),
  /**
   * A finished query's result as a read-only table (src/contract/sql.ts `SqlResultTable`), for the Summary, the Map
   * and Export…: copied once (at most `MAX_SQL_RESULT_TABLE_ROWS` rows), then answered at once until `sql/close`.
   */
  'sql/resultTable': method<SqlResultTable>()(sqlResultTableInput),
} as const

export type Api = typeof api
export type Method = keyof Api
export type Input<M extends Method> = z.infer<Api[M]['input']>
export type Output<M extends Method> = Api[M]['output']

export function isMethod(name: unknown): name is Method {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(api, name)
}

/** Events pushed from main to the renderer (progress of long work). */
export interface Events {
  /**
   * A job of any kind changed (`kind` says which): started, throttled progress (at most ~10 per second), cancelling,
   * ended — a profile with its result.
   */
  'jobs/progress': JobInfo
  /** A menu command or accelerator handled by the renderer. */
  /** A link to a view (`lance-catalog://open?…`) the app was opened with (desktop: argv, a second launch, open-url). */
  'app/openLink': { url: string }
  'app/command': { command: 'open-directory' | 'refresh' | 'import' | 'connect-server' | 'new-query' | 'connect-assistant' | 'close-tab' | 'reopen-tab' | 'split-right' | 'next-tab' | 'previous-tab' }
  /**
   * The desktop app's catalog host process stopped unexpectedly (`stopped`: why, in words), has not answered for a
   * while (`unresponsive`: it may still come back), or runs (again) (`running`; after `app/restartHost` every read
   * may be stale). Main sends it; the harness never does.
   */
  'host/status': HostStatus
}

export type HostStatus =
  | { state: 'stopped'; message: string; detail?: string }
  | { state: 'unresponsive'; message: string; silentSeconds: number }
  | { state: 'running'; restarts: number }
export type EventName = keyof Events
