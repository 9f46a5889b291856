import type { Query, Table as LanceTable, VectorQuery } from '@lancedb/lancedb'
import { viewPredicate, type TableViewSpec } from '../../../contract'
import type { QueryWindow } from '../../query/window'

/**
 * A view as one lancedb query: filter → `where`, sort → `orderBy`, projection → `select`, a vector search
 * → `nearestTo` (metric, k, pre/postfilter, nprobes, refine factor), a text search → `fullTextSearch`.
 * The version is not applied here: the caller opens (checks out) the table at the view's version.
 * Column names must have been checked against the schema first ({@link assertViewMatchesSchema}).
 *
 * A search returns its `k` nearest (or best) rows; `offset`/`limit` then window those `k` rows, so a page
 * of a search view never reaches past them.
 */
export function buildQuery(table: LanceTable, view: TableViewSpec, window: QueryWindow = {}): Query | VectorQuery {
  const search = view.search
  const offset = window.offset ?? 0
  let query: Query | VectorQuery
  let limit = window.limit
  if (search?.kind === 'vector') {
    let vq = table.query().nearestTo(search.vector).column(search.column).distanceType(search.metric)
    if (search.prefilter === false) vq = vq.postfilter()
    if (search.nprobes !== undefined) vq = vq.nprobes(search.nprobes)
    if (search.refineFactor !== undefined) vq = vq.refineFactor(search.refineFactor)
    if (search.bypassIndex) vq = vq.bypassVectorIndex()
    query = vq
    limit = Math.max(0, Math.min(limit ?? search.k, search.k - offset))
  } else if (search?.kind === 'fts') {
    query = table.query().fullTextSearch(search.query, search.columns && search.columns.length > 0 ? { columns: search.columns } : undefined)
    limit = Math.max(0, Math.min(limit ?? search.k, search.k - offset))
  } else {
    query = table.query()
  }
  const predicate = viewPredicate(view)
  if (predicate !== undefined) query = query.where(predicate)
  // A search is ordered by its score (`_distance` ascending, `_score` descending); a sort applies to plain views.
  if (!search && view.sort && view.sort.length > 0) query = query.orderBy(view.sort.map((s) => ({ columnName: s.column, ascending: s.direction === 'asc' })))
  if (view.columns) query = query.select(view.columns)
  if (window.withRowId) query = query.withRowId()
  if (window.fastSearch) query = query.fastSearch()
  if (offset > 0) query = query.offset(offset)
  if (limit !== undefined) query = query.limit(limit)
  return query
}

/** True when a view reads only some rows (a filter or a search): its count is not the table's row count. */
export function viewNarrowsRows(view: TableViewSpec | undefined): boolean {
  return !!view && (!!view.search || viewPredicate(view) !== undefined)
}
