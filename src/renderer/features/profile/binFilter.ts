import type { ColumnKind, HistogramBin, NumberStats } from '../../../contract'
import { quoteIdentifier } from '../../lib/sql'
import { formatCount, formatMeasure } from '../../lib/format'

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

/**
 * A bar's range as people read it: its edges, held to the column's values — the first bar starts at the minimum
 * and the last ends at the maximum (a bar counts `lo <= value < hi`; nothing lies outside min … max).
 */
export function barRange(kind: ColumnKind, bins: HistogramBin[], index: number, stats: NumberStats | undefined): string {
  const bin = bins[index]!
  const lo = index === 0 && stats ? Math.max(bin.lo, stats.min) : bin.lo
  const last = index === bins.length - 1 && stats && stats.max < bin.hi
  return `${formatEdge(kind, lo)} to ${last ? `${formatEdge(kind, stats.max)} (the maximum)` : formatEdge(kind, bin.hi)}`
}

/** A bar's accessible name: the column, its exact range and its count. */
export function barLabel(name: string, kind: ColumnKind, bins: HistogramBin[], index: number, stats: NumberStats | undefined): string {
  const count = bins[index]!.count
  return `${name} ${barRange(kind, bins, index, stats)}: ${formatCount(count)} ${count === 1 ? 'row' : 'rows'}`
}

/**
 * A bar's height as a share of the tallest: proportional to its count, or (log scale, for skewed columns) to
 * log(1 + count), so a bar of 232 rows stays visible beside one of 11,538.
 */
export function barShare(count: number, max: number, log: boolean): number {
  if (count <= 0 || max <= 0) return 0
  return log ? Math.log1p(count) / Math.log1p(max) : count / max
}
