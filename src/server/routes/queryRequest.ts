import { AppError, MAX_PREDICATE_LENGTH, MAX_VECTOR_DIMENSION, type DistanceMetric, type TableViewSpec } from '../../contract'
import { vectorColumns } from '../../core/query'
import { ORDER_BY_FIELD } from '../../core/namespace'
import type { Schema } from 'apache-arrow'

/** A QueryTableRequest (rest-contract.md §3.3), type-checked field by field and turned into a view and a window. */
export interface ParsedQuery {
  view: TableViewSpec
  offset: number
  /** Rows to answer (`k`). */
  limit: number
  withRowId: boolean
  fastSearch: boolean
}

const invalid = (message: string) => new AppError('invalid_input', message)
const unsupported = (message: string) => new AppError('unsupported', message)

const isAbsent = (v: unknown) => v === undefined || v === null

function int(b: Record<string, unknown>, name: string, min: number): number | undefined {
  const v = b[name]
  if (isAbsent(v)) return undefined
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw invalid(`${name} must be a whole number ≥ ${min}`)
  return v
}

function bool(b: Record<string, unknown>, name: string): boolean | undefined {
  const v = b[name]
  if (isAbsent(v)) return undefined
  if (typeof v !== 'boolean') throw invalid(`${name} must be true or false`)
  return v
}

function str(b: Record<string, unknown>, name: string, max: number): string | undefined {
  const v = b[name]
  if (isAbsent(v)) return undefined
  if (typeof v !== 'string') throw invalid(`${name} must be a string`)
  if (v.length > max) throw invalid(`${name} must be at most ${max} characters`)
  return v
}

function obj(v: unknown, name: string): Record<string, unknown> | undefined {
  if (isAbsent(v)) return undefined
  if (typeof v !== 'object' || Array.isArray(v)) throw invalid(`${name} must be an object`)
  return v as Record<string, unknown>
}

function names(v: unknown, name: string): string[] {
  if (!Array.isArray(v) || !v.every((c) => typeof c === 'string' && c !== '' && c.length <= 1024) || v.length > 10_000) throw invalid(`${name} must be a list of column names`)
  return v as string[]
}

/** The version field shared by query and count_rows: a whole number ≥ 1, or absent (the latest). */
export function versionOf(b: Record<string, unknown>): number | undefined {
  return int(b, 'version', 1)
}

/** `predicate` of count_rows (also `filter`, which some clients send). */
export function predicateOf(b: Record<string, unknown>): string | undefined {
  const p = str(b, 'predicate', MAX_PREDICATE_LENGTH) ?? str(b, 'filter', MAX_PREDICATE_LENGTH)
  return p !== undefined && p.trim() !== '' ? p : undefined
}

/** Parse a QueryTableRequest. `schema` picks the vector column when the request names none. */
export function parseQueryRequest(b: Record<string, unknown>, schema: () => Promise<Schema>, maxRows: number): Promise<ParsedQuery> {
  return parse(b, schema, maxRows)
}

async function parse(b: Record<string, unknown>, schema: () => Promise<Schema>, maxRows: number): Promise<ParsedQuery> {
  const k = b.k
  if (typeof k !== 'number' || !Number.isSafeInteger(k) || k < 0) throw invalid('k must be a whole number ≥ 0')
  if (k > maxRows) throw invalid(`k is larger than this server returns at once (${maxRows}); read in pages with offset`)
  const offset = int(b, 'offset', 0) ?? 0
  const view: TableViewSpec = {}
  const version = versionOf(b)
  if (version !== undefined) view.version = version
  const filter = str(b, 'filter', MAX_PREDICATE_LENGTH)
  if (filter !== undefined && filter.trim() !== '') view.filter = filter
  if (!isAbsent(b.branch)) throw unsupported('This server reads the main branch only')

  const columns = obj(b.columns, 'columns')
  if (columns) {
    if (!isAbsent(columns.column_aliases)) throw unsupported('This server does not support column aliases')
    if (!isAbsent(columns.column_names)) view.columns = names(columns.column_names, 'columns.column_names')
  }

  // Vector search fields.
  const vector = obj(b.vector, 'vector')
  if (vector && !isAbsent(vector.multi_vector)) throw unsupported('This server does not run multi-vector searches')
  const single = vector?.single_vector
  const vectorColumn = str(b, 'vector_column', 1024)
  const distance = str(b, 'distance_type', 16)
  const nprobes = int(b, 'nprobes', 1)
  const refineFactor = int(b, 'refine_factor', 1)
  const prefilter = bool(b, 'prefilter')
  const bypass = bool(b, 'bypass_vector_index')
  int(b, 'ef', 1)
  for (const bound of ['lower_bound', 'upper_bound']) if (!isAbsent(b[bound]) && typeof b[bound] !== 'number') throw invalid(`${bound} must be a number`)
  if (!isAbsent(b.lower_bound) || !isAbsent(b.upper_bound)) throw unsupported('This server does not filter by distance bounds')
  const withRowId = bool(b, 'with_row_id') ?? false
  const fastSearch = bool(b, 'fast_search') ?? false

  // Full-text search.
  const fts = obj(b.full_text_query, 'full_text_query')
  const ftsString = fts ? obj(fts.string_query, 'full_text_query.string_query') : undefined
  if (fts && !isAbsent(fts.structured_query)) throw unsupported('This server runs string full-text queries only (not structured_query)')

  if (single !== undefined && single !== null) {
    if (!Array.isArray(single) || single.length === 0 || single.length > MAX_VECTOR_DIMENSION || !single.every((x) => typeof x === 'number' && Number.isFinite(x)))
      throw invalid(`vector.single_vector must be a list of 1 to ${MAX_VECTOR_DIMENSION} finite numbers`)
    if (fts) throw unsupported('This server does not run hybrid (vector + full-text) searches')
    const metric = metricOf(distance)
    const column = vectorColumn ?? (await onlyVectorColumn(await schema(), single.length))
    view.search = {
      kind: 'vector',
      column,
      vector: single as number[],
      metric,
      k: offset + k,
      prefilter: prefilter ?? true,
      ...(nprobes !== undefined ? { nprobes } : {}),
      ...(refineFactor !== undefined ? { refineFactor } : {}),
      ...(bypass ? { bypassIndex: true } : {}),
    }
  } else if (fts) {
    if (!ftsString) throw invalid('full_text_query needs string_query')
    const query = ftsString.query
    if (typeof query !== 'string' || query === '' || query.length > 4096) throw invalid('full_text_query.string_query.query must be a non-empty string')
    const ftsColumns = isAbsent(ftsString.columns) ? undefined : names(ftsString.columns, 'full_text_query.string_query.columns')
    view.search = { kind: 'fts', query, k: offset + k, ...(ftsColumns ? { columns: ftsColumns } : {}) }
  } else if (distance !== undefined) {
    metricOf(distance)
  }

  // Our extension: the contract has no sort.
  const order = b[ORDER_BY_FIELD]
  if (!isAbsent(order)) {
    if (!Array.isArray(order) || order.length > 8) throw invalid(`${ORDER_BY_FIELD} must be a list of at most 8 {column_name, ascending}`)
    view.sort = order.map((entry: unknown, i) => {
      const e = obj(entry, `${ORDER_BY_FIELD}[${i}]`) ?? {}
      if (typeof e.column_name !== 'string' || e.column_name === '' || e.column_name.length > 1024) throw invalid(`${ORDER_BY_FIELD}[${i}].column_name must be a column name`)
      if (!isAbsent(e.ascending) && typeof e.ascending !== 'boolean') throw invalid(`${ORDER_BY_FIELD}[${i}].ascending must be true or false`)
      return { column: e.column_name, direction: e.ascending === false ? ('desc' as const) : ('asc' as const) }
    })
  }
  return { view, offset, limit: k, withRowId, fastSearch }
}

function metricOf(distance: string | undefined): DistanceMetric {
  if (distance === undefined) return 'l2'
  const d = distance.toLowerCase()
  if (d === 'l2' || d === 'cosine' || d === 'dot') return d
  if (d === 'hamming') throw unsupported('This server does not run hamming-distance searches')
  throw invalid(`distance_type must be l2, cosine or dot (got "${distance.slice(0, 20)}")`)
}

/** The vector column a search without `vector_column` means: the one whose dimension matches. */
function onlyVectorColumn(schema: Schema, dimension: number): string {
  const all = vectorColumns(schema)
  const matching = all.filter((c) => c.dimension === dimension)
  if (matching.length === 1) return matching[0]!.name
  if (all.length === 0) throw invalid('This table has no vector column')
  if (matching.length === 0) throw invalid(`The vector has ${dimension} dimensions, but the table's vector columns hold ${all.map((c) => `${c.name}: ${c.dimension}`).join(', ')}`)
  throw invalid(`Several vector columns hold ${dimension}-d vectors; name one in vector_column`)
}
