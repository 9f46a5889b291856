import { z } from 'zod'

/**
 * A row set: rows of one table version chosen by their offset (the n-th row of a plain scan), such as the map's
 * lasso picks. The offsets go to core once (`rowsets/create`), which keeps them; a view then names the set by id
 * (`TableViewSpec.rowSet`), so a lasso of 50,000 rows is not sent with every page nor held to a filter's length,
 * and the filter, sort, search and export apply to it as to any view.
 */
export const rowSetIdSchema = z.string().regex(/^r[A-Za-z0-9_-]{1,64}$/, 'must be a row set id')

/** Most offsets one row set may hold (every point of a 1M-row map). */
export const MAX_ROW_SET_ROWS = 1_000_000

/**
 * The row-position column a row set reads through: core turns a set into a key list on it (`_rowoffset IN (…)`,
 * which Lance answers by taking those rows), the diff's key-list view reused.
 */
export const ROW_OFFSET_COLUMN = '_rowoffset'

export interface RowSetInfo {
  id: string
  /** Distinct rows in the set. */
  rows: number
  /** The table version the offsets belong to. */
  version: number
}
