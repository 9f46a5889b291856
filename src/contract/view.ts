import { z } from 'zod'
import { rowSetIdSchema } from './rowSet'

/**
 * A table view is one value: which version, which rows (filter, search), in which order (sort), and
 * which columns. Everything the table view shows or hands out — the header's count, every page, a copy,
 * an export — is read *through* one of these, so nothing can disagree (docs: "one view, one cache").
 * The renderer uses it as its query key; core turns it into one Lance query.
 */

/** Longest SQL predicate accepted (Lance's `where` dialect); longer input is refused before Lance sees it. */
export const MAX_PREDICATE_LENGTH = 16_384
/** Longest column name we accept anywhere (names are checked against the schema before a query runs). */
export const MAX_COLUMN_NAME_LENGTH = 1024
/** Largest vector accepted for a similarity search. */
export const MAX_VECTOR_DIMENSION = 65_536
/** Most key values a view may name (a version diff lists at most this many rows of each kind). */
export const MAX_VIEW_KEYS = 50_000
/** Largest `k` (neighbours / search results) accepted. */
export const MAX_SEARCH_RESULTS = 10_000

export const columnNameSchema = z.string().min(1, 'must not be empty').max(MAX_COLUMN_NAME_LENGTH)

export const sortKeySchema = z.object({
  column: columnNameSchema,
  direction: z.enum(['asc', 'desc']),
})
export type SortKey = z.infer<typeof sortKeySchema>

export const distanceMetricSchema = z.enum(['l2', 'cosine', 'dot'])
export type DistanceMetric = z.infer<typeof distanceMetricSchema>

/** Nearest neighbours of `vector` in `column` (Lance vector search); results carry `_distance`, ascending. */
export const vectorSearchSchema = z.object({
  kind: z.literal('vector'),
  column: columnNameSchema,
  vector: z.array(z.number().finite()).min(1).max(MAX_VECTOR_DIMENSION),
  metric: distanceMetricSchema,
  k: z.number().int().min(1).max(MAX_SEARCH_RESULTS),
  /** Apply the view's filter before the search (default) or to its results. */
  prefilter: z.boolean().default(true),
  nprobes: z.number().int().min(1).max(100_000).optional(),
  refineFactor: z.number().int().min(1).max(1_000).optional(),
  /** Search every row exactly, ignoring an index on the column. */
  bypassIndex: z.boolean().optional(),
})
export type VectorSearch = z.infer<typeof vectorSearchSchema>

/** Full-text search on columns that have an FTS index; results carry `_score`, descending. */
export const textSearchSchema = z.object({
  kind: z.literal('fts'),
  query: z.string().min(1, 'must not be empty').max(4096),
  columns: z.array(columnNameSchema).max(64).optional(),
  k: z.number().int().min(1).max(MAX_SEARCH_RESULTS),
})
export type TextSearch = z.infer<typeof textSearchSchema>

export const searchSchema = z.discriminatedUnion('kind', [vectorSearchSchema, textSearchSchema])
export type Search = z.infer<typeof searchSchema>

export const tableViewSchema = z.object({
  /** The table version every read of this view uses. Absent only until the first describe has named one. */
  version: z.number().int().min(1).optional(),
  /** A SQL predicate in Lance's `where` dialect, pushed down to Lance. */
  filter: z.string().max(MAX_PREDICATE_LENGTH, `must be at most ${MAX_PREDICATE_LENGTH} characters`).optional(),
  sort: z.array(sortKeySchema).max(8).optional(),
  /** Visible columns, in order; absent = every column. */
  columns: z.array(columnNameSchema).max(10_000).optional(),
  search: searchSchema.optional(),
  /**
   * Only the rows whose `column` holds one of `values` (a version diff's added, deleted or changed rows), ANDed
   * with the filter. Kept apart from `filter` so the Filter box shows the user's own predicate and a long key list
   * is not held to {@link MAX_PREDICATE_LENGTH}; turned into one `IN (…)` predicate for Lance ({@link viewPredicate}).
   */
  keys: z
    .object({
      column: columnNameSchema,
      values: z.array(z.union([z.number().finite(), z.string().max(4096)])).max(MAX_VIEW_KEYS),
      /** The column holds integers: text values are 64-bit integers past 2^53 written as digits (not quoted). */
      integers: z.boolean().optional(),
    })
    .optional(),
  /**
   * Only the rows of this row set (`rowsets/create`: the map's lasso), ANDed with the filter. Core resolves it to a
   * key list on `_rowoffset` ({@link ROW_OFFSET_COLUMN}); the set names its table and version, so it is refused on
   * another one. Never together with `keys`.
   */
  rowSet: rowSetIdSchema.optional(),
})
export type TableViewSpec = z.infer<typeof tableViewSchema>

/** A column name as Lance SQL reads it: plain when it is a simple identifier, else in backticks. */
function sqlIdentifier(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replaceAll('`', '``')}\``
}

/** The one predicate a view's rows match: its key list (as `column IN (…)`) and its filter, or none. */
export function viewPredicate(view: Pick<TableViewSpec, 'filter' | 'keys'> | undefined): string | undefined {
  const filter = view?.filter?.trim() ? view.filter : undefined
  const keys = view?.keys
  if (!keys) return filter
  // No keys: a predicate no row matches (Lance has no empty IN list).
  const literal = (v: number | string) => (typeof v === 'number' ? String(v) : keys.integers && /^-?\d+$/.test(v) ? v : `'${v.replaceAll("'", "''")}'`)
  const inList = keys.values.length === 0 ? 'FALSE' : `${sqlIdentifier(keys.column)} IN (${keys.values.map(literal).join(', ')})`
  return filter ? `(${inList}) AND (${filter})` : inList
}
