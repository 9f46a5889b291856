import { z } from 'zod'
import { componentSchema, namespacePathSchema, type NamespacePath } from './component'
import { dataFormatSchema } from './dataFormat'
import { importModeSchema } from './import'
import type { FieldInfo, TableInfo, TableRef } from './types'

/**
 * SQL over a catalog (src/core/sql): DuckDB reads the catalog's tables by name (`ns.table`, `"ns 2"."t"`, root tables
 * unqualified, an older version as `lance('ns/table', version => 3)`) and nothing else. A query runs in core and is
 * kept there under a query id while its result is paged (`sql/page`), until `sql/close` (or `sql/cancel`) frees it.
 *
 * Errors are `AppError`s: `invalid_input` for a fault in the SQL, with `span` (UTF-16 offsets [start, end) in the
 * text sent; the renderer counts the line and column from it) and, for an unknown table or column, the nearest name
 * in `hint`; `unsupported` for a statement that is refused (ATTACH, INSTALL, COPY, CREATE, …: the message says why);
 * `timeout` when the time budget ends a query; `cancelled` after `sql/cancel`.
 */

export const queryIdSchema = z.string().regex(/^q[A-Za-z0-9_-]{1,64}$/, 'must be a query id')
/** The SQL text: one statement (a trailing `;` is fine); several are refused (run the one under the caret). */
export const sqlTextSchema = z.string().min(1, 'must not be empty').max(1_000_000, 'must be at most 1,000,000 characters')

/** Rows of a result kept for paging; past them a result is not read further (it streams, it is not held). */
export const MAX_SQL_KEPT_ROWS = 1_000_000

/** Most rows one `sql/page` answers (as `tables/page`). */
export const MAX_SQL_PAGE_ROWS = 10_000

/** Arrow schema metadata keys on every `sql/page` answer, so one call says where the query stands. */
export const SQL_PAGE_META = {
  /** `"true"` once the whole result is known. */
  done: 'lcb.sql.done',
  /** The result's row count once done; the rows known so far while it runs. */
  rowCount: 'lcb.sql.rowCount',
} as const

/** A catalog table version a query read. */
export interface SqlTableRead {
  namespace: NamespacePath
  name: string
  version: number
  /** The label of the other open catalog it came from (`lance('ns/t', catalog => 'label')`); absent for the query's own. */
  catalog?: string
}

export type SqlQueryState = 'running' | 'done' | 'cancelled' | 'failed'

/** A query as it stands: `sql/run` answers it once the first rows are there (or the query ended), `sql/status` any time. */
export interface SqlQueryInfo {
  queryId: string
  connectionId: string
  state: SqlQueryState
  /** The result's columns, described as `TableInfo.schema` describes a table's. */
  columns: FieldInfo[]
  /** The whole result is known (state `done`). */
  done: boolean
  /** Rows in the result once done; null while it runs. */
  rowCount: number | null
  /** Rows known so far (equal to `rowCount` once done). */
  rowsSoFar: number
  /** Time since the query started, until it ended. */
  elapsedMs: number
  /** The table versions the query read (a rerun reads the latest again unless a version is named). */
  readVersions: SqlTableRead[]
  /**
   * The result is longer than the rows a query keeps for paging (`MAX_SQL_KEPT_ROWS`): `rowCount` counts the kept
   * ones, and the rest is not read (narrow the query, or Save as table… to keep all of it).
   */
  capped?: boolean
  /** Why it failed or was cancelled, as the error a call would answer. */
  error?: { code: string; message: string; hint?: string; span?: { start: number; end: number } }
}

/** What one scan of a catalog table hands to Lance (Explain). */
export interface SqlScanPlan {
  namespace: NamespacePath
  name: string
  version: number
  /** The label of the other open catalog it came from; absent for the query's own. */
  catalog?: string
  /** The columns read (projection pushdown); every other column is never read. */
  columns: string[]
  /** The predicate handed to Lance in its filter language, or null. */
  filter: string | null
  /** Predicates DuckDB applies itself after the scan, with why they were not handed over (in words). */
  notPushed: string[]
  /** Rows Lance stops at (a `LIMIT` without `ORDER BY`), or null. */
  limit: number | null
}

export interface SqlExplain {
  /** DuckDB's physical plan as text. */
  plan: string
  scans: SqlScanPlan[]
}

/** What the editor completes: the catalog's namespaces, tables and their columns (capped; `truncated` says so). */
export interface SqlNames {
  namespaces: NamespacePath[]
  tables: { namespace: NamespacePath; name: string; columns: { name: string; type: string }[] }[]
  truncated: boolean
}

/** One entry of a catalog's query history (kept in the app's settings, never in the catalog). */
export interface SqlHistoryEntry {
  sql: string
  /** ms since epoch */
  ranAt: number
  ok: boolean
  rowCount?: number
  elapsedMs?: number
}
/** Entries kept per catalog, newest first; older ones drop off. */
export const MAX_SQL_HISTORY = 200

const connectionId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a connection id')
/** Other open connections a statement may name with `lance('ns/t', catalog => 'label')` (their labels in the tree). */
const otherCatalogs = z.array(connectionId).max(256).optional()

export const sqlRunInput = z.object({
  connectionId,
  sql: sqlTextSchema,
  /** `requests/cancel` with it stops the run before `sql/run` answers (the query id is not known yet). */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a request id').optional(),
  catalogs: otherCatalogs,
})

export const sqlPageInput = z.object({
  queryId: queryIdSchema,
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(MAX_SQL_PAGE_ROWS),
})

export const sqlExplainInput = z.object({ connectionId, sql: sqlTextSchema, catalogs: otherCatalogs })

export const sqlHistoryAddInput = z.object({
  connectionId,
  entry: z.object({
    sql: sqlTextSchema.max(100_000),
    ranAt: z.number().int().min(0),
    ok: z.boolean(),
    rowCount: z.number().int().min(0).optional(),
    elapsedMs: z.number().min(0).optional(),
  }),
})

/**
 * Save as table: the statement runs again (or the kept query's SQL) and its rows are written into `namespace.name`
 * through the import path: a job with progress and cancel, crash-safe, the file format chosen as for an import.
 */
export const sqlSaveAsTableInput = z
  .object({
    connectionId,
    queryId: queryIdSchema.optional(),
    sql: sqlTextSchema.optional(),
    namespace: namespacePathSchema,
    name: componentSchema,
    mode: importModeSchema.default('create'),
    dataFormat: dataFormatSchema.optional(),
    catalogs: otherCatalogs,
  })
  .refine((input) => input.queryId !== undefined || input.sql !== undefined, { message: 'must name a query (queryId) or give its SQL', path: ['sql'] })

/**
 * A query result opened as a table, so the table's own panels and sheets (Summary, Map, Export…) read it: its rows
 * copied once into a hidden Lance table in the app's temp folder (never in a catalog), under the connection id
 * {@link SQL_RESULTS_CONNECTION}. Read-only; freed with its query (`sql/close`) or when the app ends.
 */
export const SQL_RESULTS_CONNECTION = 'sql-results'

/** Rows of a result that can be opened as a table (the rows a query keeps); a longer result is refused in words. */
export const MAX_SQL_RESULT_TABLE_ROWS = MAX_SQL_KEPT_ROWS

export const sqlResultTableInput = z.object({
  queryId: queryIdSchema,
  /** `requests/cancel` with it stops the copy. */
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a request id').optional(),
})

export interface SqlResultTable {
  queryId: string
  /** The result as a table: `tables/describe`, `profile/start`, `map/start`, `export/start`… take it. */
  tableRef: TableRef
  info: TableInfo
  /** Time the copy took (0 when it was already there). */
  elapsedMs: number
  /** Columns named differently in the table: a dot in a name becomes `_` (Lance refuses a dot there). */
  renamed?: { from: string; to: string }[]
}
