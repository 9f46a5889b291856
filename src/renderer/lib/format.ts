/**
 * Numbers as the app writes them in its own words (counts, sizes, durations, times): one formatter each, so
 * "1,234 rows" reads the same in the tree, the grid, dialogs and job panels. English only, like the rest of
 * the UI. A cell's value is not formatted here: that is ./formatCell.ts (the grid's display rule).
 */

const count = new Intl.NumberFormat('en-US')
const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 })
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' })

/** A count with thousands separators: `1234567` → `1,234,567`. */
export function formatCount(n: number | bigint): string {
  return count.format(n)
}

/**
 * A measured number (a bar's edge, a mean, a colour ramp's end) as people read it: whole numbers with separators
 * (`1,234`), others to six significant digits (`0.000177324`, `99.9999`) — a float's full 17 digits are noise.
 */
export function formatMeasure(value: number): string {
  return Number.isInteger(value) ? formatCount(value) : String(Number(value.toPrecision(6)))
}

/** A fraction as a percentage with at most one decimal: `0.1234` → `12.3%`. */
export function formatPercent(fraction: number): string {
  return percent.format(fraction)
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB']

/** A size in binary units: `512 B`, `1.5 KiB`, `12 MiB` (one decimal under 10 of a unit). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  let value = n / 1024
  let unit = 0
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${BYTE_UNITS[unit]}`
}

/** A duration given in seconds, as a person reads it: `under a second`, `42 s`, `3 min 5 s`, `2 h 10 min`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '—'
  if (seconds < 1) return 'under a second'
  if (seconds < 60) return `${Math.round(seconds)} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${Math.round(seconds % 60)} s`
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

/** A moment to the second, day first, in local time: `05 May 2024, 14:03:09`; 0 (not known) says so. */
export function formatTime(ms: number): string {
  if (!ms) return 'time unknown'
  return new Date(ms).toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

/** A moment to the minute, in local time: `May 5, 2024, 2:03 PM` (when a catalog was last opened). */
export function formatDate(ms: number | Date): string {
  return dateTime.format(ms)
}

/** A namespace path as the user reads it: `a / b`, or "root namespace". */
export function namespaceLabel(namespace: readonly string[]): string {
  return namespace.length ? namespace.join(' / ') : 'root namespace'
}
