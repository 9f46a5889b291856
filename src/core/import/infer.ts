import { Bool, DataType, DateDay, Field, Float64, Int64, List, Struct, TimeUnit, Timestamp, Utf8 } from 'apache-arrow'

/**
 * Type inference for JSON lines and spreadsheets: a small lattice over JS values. Integers widen to floats,
 * anything else that disagrees becomes text (kept as JSON), all-null columns become text. Dates (spreadsheet
 * cells formatted as dates) are zone-less millisecond timestamps, or days (Date32) when every one is a midnight: a
 * column of calendar dates, as a sheet formatted `yyyy-mm-dd` holds them.
 */
export type Inferred =
  | { kind: 'null' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'float' }
  | { kind: 'string' }
  | { kind: 'time' }
  | { kind: 'date' }
  | { kind: 'list'; item: Inferred }
  | { kind: 'struct'; fields: Map<string, Inferred> }

export const NULL: Inferred = { kind: 'null' }

const DAY_MS = 86_400_000

export function inferValue(value: unknown): Inferred {
  if (value === null || value === undefined) return NULL
  if (typeof value === 'boolean') return { kind: 'bool' }
  if (typeof value === 'number') return Number.isInteger(value) && Number.isSafeInteger(value) ? { kind: 'int' } : { kind: 'float' }
  // Beyond Int64 a double would round the number: text keeps every digit.
  if (typeof value === 'bigint') return value <= 9223372036854775807n && value >= -9223372036854775808n ? { kind: 'int' } : { kind: 'string' }
  if (typeof value === 'string') return { kind: 'string' }
  if (value instanceof Date) {
    const ms = value.getTime()
    if (!Number.isFinite(ms)) return NULL
    return ms % DAY_MS === 0 ? { kind: 'date' } : { kind: 'time' }
  }
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
  // A date among times is its midnight.
  if ((a.kind === 'date' && b.kind === 'time') || (a.kind === 'time' && b.kind === 'date')) return { kind: 'time' }
  return { kind: 'string' }
}

/** How many lists and structs an inferred type nests (a scalar: 0). */
export function nestingDepth(inferred: Inferred): number {
  if (inferred.kind === 'list') return 1 + nestingDepth(inferred.item)
  if (inferred.kind === 'struct') {
    let deepest = 0
    for (const field of inferred.fields.values()) deepest = Math.max(deepest, nestingDepth(field))
    return 1 + deepest
  }
  return 0
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
    case 'time':
      return new Timestamp(TimeUnit.MILLISECOND)
    case 'date':
      return new DateDay()
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

/** A number written with a leading zero (`00501`, `-007`, `01.5`): an identifier such as a zip code. */
const LEADING_ZERO_RE = /^[-+]?0\d/
const SAFE = 2n ** 53n

export function hasLeadingZero(cell: string): boolean {
  return LEADING_ZERO_RE.test(cell) && FLOAT_RE.test(cell)
}

export function csvCellKind(cell: string): CsvKind {
  if (cell === '') return 'empty'
  if (LEADING_ZERO_RE.test(cell) && FLOAT_RE.test(cell)) return 'string'
  if (INT_RE.test(cell)) {
    const v = BigInt(cell)
    // Beyond Int64 a double would round it: text keeps every digit.
    return v <= INT64_MAX && v >= INT64_MIN ? 'int' : 'string'
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

/** What a column's type can be changed to before import (`columnTypes`), as CSV kinds. */
export const CSV_CHOICES = {
  text: 'string',
  integer: 'int',
  float: 'float',
  boolean: 'bool',
  date: 'date',
  timestamp: 'ts',
  timestamptz: 'tstz',
} as const satisfies Record<string, CsvKind>

export function choiceOfCsvKind(kind: CsvKind): keyof typeof CSV_CHOICES {
  if (kind === 'int') return 'integer'
  if (kind === 'float') return 'float'
  if (kind === 'bool') return 'boolean'
  if (kind === 'date') return 'date'
  if (kind === 'ts' || kind === 'ts_ns') return 'timestamp'
  if (kind === 'tstz' || kind === 'tstz_ns') return 'timestamptz'
  return 'text'
}

/**
 * One CSV column's inference over the sample, with what the sheet says about it: how many cells are empty
 * (nulls) and, where the type is not obvious, why (an example value from the file).
 */
export class CsvColumnInference {
  kind: CsvKind = 'empty'
  rows = 0
  nulls = 0
  private leadingZero: string | null = null
  private tooBig: string | null = null
  private text: string | null = null
  private number: string | null = null
  private beyondDouble: string | null = null
  private temporal: string | null = null

  add(cell: string): void {
    this.rows++
    if (cell === '') {
      this.nulls++
      return
    }
    const kind = csvCellKind(cell)
    if (kind === 'string') {
      if (LEADING_ZERO_RE.test(cell) && FLOAT_RE.test(cell)) this.leadingZero ??= cell
      else if (INT_RE.test(cell)) this.tooBig ??= cell
      else this.text ??= cell
    } else if (kind === 'int' || kind === 'float') {
      this.number ??= cell
      if (kind === 'int' && this.beyondDouble === null) {
        const v = BigInt(cell)
        if (v > SAFE || v < -SAFE) this.beyondDouble = cell
      }
    } else if (isTemporal(kind)) {
      this.temporal ??= cell
    }
    this.kind = mergeCsv(this.kind, kind)
  }

  /** One line saying why the column has its type, or null when the values make it obvious. */
  reason(): string | null {
    if (this.kind === 'empty') return 'text: every sampled cell is empty'
    if (this.kind === 'string') {
      if (this.leadingZero !== null) return `text: values with leading zeros, e.g. ${this.leadingZero}`
      if (this.tooBig !== null) return `text: whole numbers beyond Int64, e.g. ${clipExample(this.tooBig)}`
      if (this.text !== null && this.number !== null) return `text: numbers mixed with text, e.g. ${clipExample(this.number)} and ${clipExample(this.text)}`
      if (this.text !== null && this.temporal !== null) return `text: dates mixed with text, e.g. ${clipExample(this.temporal)} and ${clipExample(this.text)}`
      if (this.text === null && this.temporal !== null) return 'text: dates with and without a time zone (or a time) are mixed'
      return null
    }
    if (this.kind === 'int' && this.beyondDouble !== null) return `Int64: whole numbers kept exact beyond 2^53, e.g. ${this.beyondDouble}`
    return null
  }
}

function clipExample(text: string): string {
  const one = text.replace(/\s+/g, ' ')
  return one.length > 24 ? `${one.slice(0, 24)}…` : one
}

/** A JSON value's kind in words, for reasons ("numbers mixed with text"). */
function jsonWord(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return 'numbers'
  if (typeof value === 'string') return 'text'
  if (typeof value === 'boolean') return 'true/false'
  if (Array.isArray(value)) return 'arrays'
  if (value instanceof Date) return 'dates'
  return 'objects'
}

function jsonExample(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  const one = text.replace(/\s+/g, ' ')
  return one.length > 24 ? `${one.slice(0, 24)}…` : one
}

/** One top-level JSON field's inference over the sample, with its nulls and, where not obvious, why. */
export class JsonColumnInference {
  inferred: Inferred = NULL
  rows = 0
  nulls = 0
  private readonly examples = new Map<string, unknown>()
  private tooBig: bigint | null = null
  private beyondDouble: bigint | null = null
  private nested: { depth: number; max: number } | null = null

  add(value: unknown): void {
    this.rows++
    if (value === null || value === undefined) {
      this.nulls++
      return
    }
    const word = jsonWord(value)
    if (!this.examples.has(word)) this.examples.set(word, value)
    if (typeof value === 'bigint') {
      if (value > 9223372036854775807n || value < -9223372036854775808n) this.tooBig ??= value
      else this.beyondDouble ??= value
    }
    this.inferred = merge(this.inferred, inferValue(value))
  }

  /**
   * A nested column deeper than `max` lists and structs becomes text (each value its JSON): Lance cannot read
   * schemas nested much deeper (see MAX_NESTED_TYPE_DEPTH).
   */
  flattenBeyond(max: number): void {
    const depth = nestingDepth(this.inferred)
    if (depth <= max) return
    this.nested = { depth, max }
    this.inferred = { kind: 'string' }
  }

  /** Rows of the sample that lacked the field count as nulls too. */
  missing(count: number): void {
    this.rows += count
    this.nulls += count
  }

  reason(): string | null {
    const kind = this.inferred.kind
    if (this.nested) return `text: values nested ${this.nested.depth} levels deep, more than the ${this.nested.max} kept as nested columns`
    if (kind === 'null') return 'text: every sampled value is null'
    if (kind === 'string') {
      if (this.tooBig !== null) return `text: whole numbers beyond Int64, e.g. ${jsonExample(this.tooBig)}`
      if (this.examples.size > 1) {
        const [a, b] = [...this.examples]
        return `text: ${a![0]} mixed with ${b![0]}, e.g. ${jsonExample(a![1])} and ${jsonExample(b![1])}`
      }
      return null
    }
    if (kind === 'int' && this.beyondDouble !== null) return `Int64: whole numbers kept exact beyond 2^53, e.g. ${this.beyondDouble}`
    return null
  }
}
