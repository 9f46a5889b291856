import { writeOptions } from '../../queries/write'

// The query view's writes; each one's staleness rule is in src/renderer/queries/invalidate.ts.
/** Run one statement: a new kept query (its pages are read through `sql/page`). */
export const runQuery = writeOptions('sql/run')
/** Stop a running query and free what it holds. */
export const cancelQuery = writeOptions('sql/cancel')
/** Forget a kept query (a new run, or the view closed). */
export const closeQuery = writeOptions('sql/close')
export const addHistory = writeOptions('sql/history/add')
/** Save as table…: an import job (its end opens the table, as any import's does). */
export const saveAsTable = writeOptions('sql/saveAsTable')
