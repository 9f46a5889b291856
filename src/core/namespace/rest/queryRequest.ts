import type { Operation } from '../../../contract/connections'
import { viewPredicate, type TableViewSpec } from '../../../contract'
import type { QueryWindow } from '../../query/window'

/** Our server's extension to QueryTableRequest: the REST contract has no sort. Honoured only when the reply says so. */
export const ORDER_BY_FIELD = 'order_by'
/** Reply header by which our server says it applied `order_by` (a server that ignores the field would not). */
export const ORDER_APPLIED_HEADER = 'x-lcb-order-applied'

/**
 * A view as the REST contract's QueryTableRequest (rest-contract.md §3.3): `k` and `vector` are required
 * (an empty vector object means "no vector search"); the rest only when the view uses them.
 */
export function queryTableRequest(idParts: string[], view: TableViewSpec, window: QueryWindow & { limit: number }): Record<string, unknown> {
  const search = view.search
  const offset = window.offset ?? 0
  const body: Record<string, unknown> = { id: idParts, k: window.limit, vector: {} }
  if (view.version !== undefined) body.version = view.version
  const predicate = viewPredicate(view)
  if (predicate !== undefined) body.filter = predicate
  if (view.columns) body.columns = { column_names: view.columns }
  if (offset > 0) body.offset = offset
  if (window.withRowId) body.with_row_id = true
  if (window.fastSearch) body.fast_search = true
  if (search?.kind === 'vector') {
    body.k = Math.max(0, Math.min(window.limit, search.k - offset))
    body.vector = { single_vector: search.vector }
    body.vector_column = search.column
    body.distance_type = search.metric
    body.prefilter = search.prefilter !== false
    if (search.nprobes !== undefined) body.nprobes = search.nprobes
    if (search.refineFactor !== undefined) body.refine_factor = search.refineFactor
    if (search.bypassIndex) body.bypass_vector_index = true
  } else if (search?.kind === 'fts') {
    body.k = Math.max(0, Math.min(window.limit, search.k - offset))
    body.full_text_query = { string_query: { query: search.query, ...(search.columns?.length ? { columns: search.columns } : {}) } }
  } else if (view.sort && view.sort.length > 0) {
    body[ORDER_BY_FIELD] = view.sort.map((s) => ({ column_name: s.column, ascending: s.direction === 'asc' }))
  }
  return body
}

/** The capability a view's query needs, so a server that refuses one feature does not disable plain paging. */
export function operationOf(view: TableViewSpec | undefined): Operation {
  if (view?.search?.kind === 'vector') return 'table.vectorSearch'
  if (view?.search?.kind === 'fts') return 'table.textSearch'
  if (view?.sort && view.sort.length > 0) return 'table.sort'
  if (viewPredicate(view) !== undefined) return 'table.filter'
  return 'table.query'
}
