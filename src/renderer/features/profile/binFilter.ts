import type { ColumnKind, HistogramBin } from '../../../contract'
import { quoteIdentifier } from '../../lib/sql'
import { formatMeasure } from '../../lib/format'

/** A bar edge as a SQL literal of the column's kind (dates and timestamps are epoch milliseconds, UTC). */
function literal(kind: ColumnKind, value: number): string {
  if (kind === 'date') return `DATE '${new Date(value).toISOString().slice(0, 10)}'`
  if (kind === 'timestamp') return `TIMESTAMP '${new Date(value).toISOString().replace('Z', '')}'`
  return String(value)
}

/**
 * The filter that selects exactly the rows a histogram bar counts: `lo <= column < hi` (every bar is
 * half-open, as core counts them), the column quoted as the quick filters quote it.
 */
export function binPredicate(column: string, kind: ColumnKind, bin: HistogramBin): string {
  const id = quoteIdentifier(column)
  return `${id} >= ${literal(kind, bin.lo)} AND ${id} < ${literal(kind, bin.hi)}`
}

/** A bar edge as people read it. */
export function formatEdge(kind: ColumnKind, value: number): string {
  if (kind === 'date') return new Date(value).toISOString().slice(0, 10)
  if (kind === 'timestamp') return new Date(value).toISOString().replace('T', ' ').replace(/\.000Z$|Z$/, '')
  return formatMeasure(value)
}
