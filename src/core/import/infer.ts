import { Bool, DataType, DateDay, Field, Float64, Int64, List, Struct, TimeUnit, Timestamp, Utf8 } from 'apache-arrow'

/**
 * Type inference for JSON lines: a small lattice over JS values. Integers widen to floats,
 * anything else that disagrees becomes text (kept as JSON), all-null columns become text.
 */
export type Inferred =
  | { kind: 'null' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'float' }
  | { kind: 'string' }
  | { kind: 'list'; item: Inferred }
  | { kind: 'struct'; fields: Map<string, Inferred> }

export const NULL: Inferred = { kind: 'null' }

export function inferValue(value: unknown): Inferred {
  if (value === null || value === undefined) return NULL
  if (typeof value === 'boolean') return { kind: 'bool' }
  if (typeof value === 'number') return Number.isInteger(value) && Number.isSafeInteger(value) ? { kind: 'int' } : { kind: 'float' }
  if (typeof value === 'bigint') return value <= 9223372036854775807n && value >= -9223372036854775808n ? { kind: 'int' } : { kind: 'float' }
  if (typeof value === 'string') return { kind: 'string' }
  if (Array.isArray(value)) {
    let item: Inferred = NULL
    for (const v of value) item = merge(item, inferValue(v))
    return { kind: 'list', item }
  }
  if (typeof value === 'object') {
    const fields = new Map<string, Inferred>()
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) fields.set(k, inferValue(v))
    return { kind: 'struct', fields }
  }
  return { kind: 'string' }
}

export function merge(a: Inferred, b: Inferred): Inferred {
  if (a.kind === 'null') return b
  if (b.kind === 'null') return a
  if (a.kind === b.kind) {
    if (a.kind === 'list' && b.kind === 'list') return { kind: 'list', item: merge(a.item, b.item) }
    if (a.kind === 'struct' && b.kind === 'struct') {
      const fields = new Map(a.fields)
      for (const [k, v] of b.fields) fields.set(k, merge(fields.get(k) ?? NULL, v))
      return { kind: 'struct', fields }
    }
    return a
  }
  if ((a.kind === 'int' && b.kind === 'float') || (a.kind === 'float' && b.kind === 'int')) return { kind: 'float' }
  return { kind: 'string' }
}

export function toArrowType(inferred: Inferred): DataType {
  switch (inferred.kind) {
    case 'null':
    case 'string':
      return new Utf8()
    case 'bool':
      return new Bool()
    case 'int':
      return new Int64()
    case 'float':
      return new Float64()
    case 'list':
      return new List(new Field('item', toArrowType(inferred.item), true))
    case 'struct':
      if (inferred.fields.size === 0) return new Utf8()
      return new Struct([...inferred.fields].map(([name, t]) => new Field(name, toArrowType(t), true)))
  }
}

/**
 * CSV cells are text: a column is Int64, Float64, Bool, a date or a timestamp when every non-empty
 * cell of the sample parses so. Dates and timestamps are ISO 8601 (`2024-03-01`, `2024-03-01 12:30`,
 * `2024-03-01T12:30:00.123456Z`, `…+02:00`): with a zone or offset a column is a UTC timestamp,
 * without one a zone-less timestamp; more than 6 fractional digits make it nanoseconds.
 */
export type CsvKind = 'empty' | 'int' | 'float' | 'bool' | 'date' | 'ts' | 'ts_ns' | 'tstz' | 'tstz_ns' | 'string'

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/

interface IsoParts {
  kind: 'date' | 'ts' | 'ts_ns' | 'tstz' | 'tstz_ns'
  /** Epoch nanoseconds (UTC). */
  nanos: bigint
}

/** An ISO-8601 date or date-time with valid fields, or null. */
export function parseIso(cell: string): IsoParts | null {
  const m = ISO_RE.exec(cell)
  if (!m) return null
  const [, y, mo, d, h, mi, sec, frac, zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h ?? 0)
  const minute = Number(mi ?? 0)
  const second = Number(sec ?? 0)
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const check = new Date(ms)
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return null
  let nanos = BigInt(ms) * 1_000_000n + BigInt((frac ?? '').padEnd(9, '0') || '0')
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1n : 1n
    const digits = zone.slice(1).replace(':', '')
    const offsetMinutes = BigInt(Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0))
    nanos -= sign * offsetMinutes * 60_000_000_000n
  }
  if (h === undefined) return { kind: 'date', nanos }
  const ns = (frac?.length ?? 0) > 6
  const kind = zone ? (ns ? 'tstz_ns' : 'tstz') : ns ? 'ts_ns' : 'ts'
  return { kind, nanos }
}

const INT_RE = /^[-+]?\d{1,19}$/
const FLOAT_RE = /^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|infinity|nan)$/i
const BOOL_RE = /^(true|false)$/i
const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n

export function csvCellKind(cell: string): CsvKind {
  if (cell === '') return 'empty'
  if (INT_RE.test(cell)) {
    const v = BigInt(cell)
    return v <= INT64_MAX && v >= INT64_MIN ? 'int' : 'float'
  }
  if (FLOAT_RE.test(cell)) return 'float'
  if (BOOL_RE.test(cell)) return 'bool'
  const iso = cell.length >= 10 && cell.length <= 40 ? parseIso(cell) : null
  if (iso) return iso.kind
  return 'string'
}

const TEMPORAL: readonly CsvKind[] = ['date', 'ts', 'ts_ns', 'tstz', 'tstz_ns']

export function isTemporal(kind: CsvKind): boolean {
  return TEMPORAL.includes(kind)
}

export function mergeCsv(a: CsvKind, b: CsvKind): CsvKind {
  if (a === 'empty') return b
  if (b === 'empty' || a === b) return a
  if ((a === 'int' && b === 'float') || (a === 'float' && b === 'int')) return 'float'
  if (TEMPORAL.includes(a) && TEMPORAL.includes(b)) {
    // A date among naive timestamps is midnight; zoned and zone-less times do not mix.
    const zoned = (k: CsvKind) => k === 'tstz' || k === 'tstz_ns'
    const naive = (k: CsvKind) => k === 'ts' || k === 'ts_ns'
    if ((zoned(a) && (naive(b) || b === 'date')) || (zoned(b) && (naive(a) || a === 'date'))) return 'string'
    const ns = a.endsWith('_ns') || b.endsWith('_ns')
    if (zoned(a) || zoned(b)) return ns ? 'tstz_ns' : 'tstz'
    return ns ? 'ts_ns' : 'ts'
  }
  return 'string'
}

export function csvArrowType(kind: CsvKind): DataType {
  if (kind === 'int') return new Int64()
  if (kind === 'float') return new Float64()
  if (kind === 'bool') return new Bool()
  if (kind === 'date') return new DateDay()
  if (kind === 'ts') return new Timestamp(TimeUnit.MICROSECOND, null)
  if (kind === 'ts_ns') return new Timestamp(TimeUnit.NANOSECOND, null)
  if (kind === 'tstz') return new Timestamp(TimeUnit.MICROSECOND, 'UTC')
  if (kind === 'tstz_ns') return new Timestamp(TimeUnit.NANOSECOND, 'UTC')
  return new Utf8()
}

/** Parse a CSV cell for a column type; `undefined` when it does not fit (the caller reports the line). */
export function parseCsvCell(cell: string, type: DataType): unknown {
  if (cell === '') return null
  if (DataType.isInt(type)) {
    if (!INT_RE.test(cell)) return undefined
    const v = BigInt(cell)
    return v <= INT64_MAX && v >= INT64_MIN ? v : undefined
  }
  if (DataType.isFloat(type)) {
    if (!FLOAT_RE.test(cell)) return undefined
    const lower = cell.toLowerCase().replace(/^\+/, '')
    if (lower === 'nan') return NaN
    if (lower === 'inf' || lower === 'infinity') return Infinity
    if (lower === '-inf' || lower === '-infinity') return -Infinity
    return Number(cell)
  }
  if (DataType.isBool(type)) {
    if (!BOOL_RE.test(cell)) return undefined
    return cell.toLowerCase() === 'true'
  }
  if (DataType.isDate(type)) {
    const iso = parseIso(cell)
    if (!iso || iso.kind !== 'date') return undefined
    return Number(iso.nanos / 1_000_000n)
  }
  if (DataType.isTimestamp(type)) {
    const iso = parseIso(cell)
    if (!iso) return undefined
    const zoned = iso.kind === 'tstz' || iso.kind === 'tstz_ns'
    if (zoned !== (type.timezone != null) && iso.kind !== 'date') return undefined
    if (iso.kind === 'date' && type.timezone != null) return undefined
    if (type.unit === TimeUnit.NANOSECOND) return iso.nanos
    if (iso.nanos % 1000n !== 0n) return undefined
    return iso.nanos / 1000n
  }
  return cell
}
