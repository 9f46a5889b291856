import type { DataType, Date_, Decimal, Dictionary, Duration, Field, Struct, Time, TimeUnit, Timestamp, Vector } from 'apache-arrow'

/**
 * Values as text, whole and exact: what a copy (renderer) and an export (core) write. Unlike the grid's
 * display (src/renderer/lib/formatCell.ts) nothing is elided or rounded: int64 keeps every
 * digit, a 768-d vector keeps 768 values, timestamps keep their sub-millisecond digits, binary is base64,
 * and nested values are JSON.
 */

/** A timestamp read from its raw buffer (apache-arrow's `get` turns it into float milliseconds). */
export class RawTimestamp {
  constructor(
    readonly value: bigint,
    readonly unit: TimeUnit,
    /** The column's time zone; null for a naive timestamp (a wall-clock time with no zone). */
    readonly timezone: string | null = 'UTC',
  ) {}
}

/** Fraction digits per TimeUnit (SECOND, MILLISECOND, MICROSECOND, NANOSECOND: 0–3 in the Arrow format). */
const UNIT_DIGITS = [0, 3, 6, 9] as const

/*
 * The contract loads only zod at run time (the renderer and the sandbox-free core both import it), so apache-arrow
 * is imported for its types alone and a type is recognised by its `typeId`: the numbers of the Arrow format's
 * Type enum, the same ones apache-arrow's own `DataType.isX` guards compare (tests/core checks they agree).
 */
export const ARROW_TYPE_ID = { Binary: 4, Decimal: 7, Date: 8, Time: 9, Timestamp: 10, Struct: 13, FixedSizeBinary: 15, Duration: 18, LargeBinary: 19, Dictionary: -1 } as const
const typeIs = (type: DataType | undefined, id: number): boolean => type?.typeId === id
const isTimestamp = (type: DataType | undefined): type is Timestamp => typeIs(type, ARROW_TYPE_ID.Timestamp)
const isDictionary = (type: DataType | undefined): type is Dictionary => typeIs(type, ARROW_TYPE_ID.Dictionary)
const isDate = (type: DataType | undefined): type is Date_ => typeIs(type, ARROW_TYPE_ID.Date)
const isTime = (type: DataType | undefined): type is Time => typeIs(type, ARROW_TYPE_ID.Time)
const isDuration = (type: DataType | undefined): type is Duration => typeIs(type, ARROW_TYPE_ID.Duration)
const isDecimal = (type: DataType | undefined): type is Decimal => typeIs(type, ARROW_TYPE_ID.Decimal)
const isStruct = (type: DataType | undefined): type is Struct => typeIs(type, ARROW_TYPE_ID.Struct)

/**
 * Dates, times, timestamps and durations as text: the one rule the grid, the cell inspector, copy and export
 * share, so a value reads the same everywhere.
 * - Date32 / Date64: the calendar day, `2024-02-29`.
 * - Time32 / Time64: the time of day, `12:30:00`, with the unit's fraction digits only when the fraction is
 *   not zero (`12:30:00.250`).
 * - Timestamp with a zone: the instant in UTC, ISO 8601 with `Z` and as many fraction digits as the unit has
 *   (`2024-05-01T12:00:00.123456Z`), whatever the zone (the inspector shows it in the column's zone too).
 * - Timestamp without a zone (naive): the same digits without `Z` (`2024-02-29T12:30:00.000000`): it is a
 *   wall-clock time, not an instant, and must not look like UTC.
 * - Duration: days, hours, minutes and seconds with units (`1h 30m 0.5s`, `-2d 3h`, `0s`), exact to the unit.
 * Returns undefined for any other type.
 */
export function temporalText(value: unknown, type: DataType | undefined): string | undefined {
  if (value instanceof RawTimestamp) return isoTimestamp(value.value, value.unit, value.timezone !== null)
  if (isDictionary(type)) return temporalText(value, type.dictionary)
  if (isTimestamp(type)) {
    const raw = rawOfMs(value, type.unit)
    return raw === undefined ? undefined : isoTimestamp(raw, type.unit, type.timezone !== null && type.timezone !== undefined)
  }
  if (isDate(type)) return isoDate(value instanceof Date ? value.getTime() : Number(value))
  if (isTime(type)) return timeOfDay(toBigInt(value), type.unit)
  if (isDuration(type)) return durationText(toBigInt(value), type.unit)
  return undefined
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  const n = Number(value)
  return Number.isFinite(n) ? BigInt(Math.round(n)) : 0n
}

/** apache-arrow's float milliseconds (nested timestamps) back in the column's unit. */
function rawOfMs(value: unknown, unit: TimeUnit): bigint | undefined {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'bigint' ? Number(value) : Number(value)
  if (!Number.isFinite(ms)) return undefined
  const scale = [1 / 1000, 1, 1000, 1_000_000][unit]!
  return BigInt(Math.round(ms * scale))
}

/** `value` split into whole seconds and a non-negative fraction in the unit. */
function splitSeconds(value: bigint, unit: TimeUnit): { seconds: bigint; fraction: bigint; digits: number } {
  const digits = UNIT_DIGITS[unit] ?? 0
  const scale = 10n ** BigInt(digits)
  let seconds = value / scale
  let fraction = value % scale
  if (fraction < 0n) {
    fraction += scale
    seconds -= 1n
  }
  return { seconds, fraction, digits }
}

/** ISO 8601 with as many fraction digits as the unit has: `2024-05-01T12:00:00.123456Z`, without `Z` when naive. */
export function isoTimestamp(value: bigint, unit: TimeUnit, zoned = true): string {
  const { seconds, fraction, digits } = splitSeconds(value, unit)
  const date = new Date(Number(seconds) * 1000)
  if (Number.isNaN(date.getTime())) return value.toString()
  const base = date.toISOString().slice(0, 19)
  const zone = zoned ? 'Z' : ''
  return digits === 0 ? `${base}${zone}` : `${base}.${fraction.toString().padStart(digits, '0')}${zone}`
}

/** The time of day: `12:30:00`, `12:30:00.250` (fraction digits only when there is a fraction). */
export function timeOfDay(value: bigint, unit: TimeUnit): string {
  const { seconds, fraction, digits } = splitSeconds(value, unit)
  const two = (n: bigint) => n.toString().padStart(2, '0')
  const text = `${two(seconds / 3600n)}:${two((seconds / 60n) % 60n)}:${two(seconds % 60n)}`
  return fraction === 0n ? text : `${text}.${fraction.toString().padStart(digits, '0')}`
}

/** A duration with units: `1d 2h 3m 4.5s`; zero parts are left out (`2h`, `90s` → `1m 30s`), zero is `0s`. */
export function durationText(value: bigint, unit: TimeUnit): string {
  const negative = value < 0n
  const { seconds, fraction, digits } = splitSeconds(negative ? -value : value, unit)
  const parts: string[] = []
  const days = seconds / 86_400n
  const hours = (seconds / 3600n) % 24n
  const minutes = (seconds / 60n) % 60n
  const secs = seconds % 60n
  if (days > 0n) parts.push(`${days}d`)
  if (hours > 0n) parts.push(`${hours}h`)
  if (minutes > 0n) parts.push(`${minutes}m`)
  if (secs > 0n || fraction > 0n || parts.length === 0) {
    const frac = fraction > 0n ? `.${fraction.toString().padStart(digits, '0').replace(/0+$/, '')}` : ''
    parts.push(`${secs}${frac}s`)
  }
  return `${negative ? '-' : ''}${parts.join(' ')}`
}

function isoDate(ms: number): string {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString().slice(0, 10)
}

/** An unscaled decimal integer (apache-arrow's `String(value)`) with its scale applied: `123456`, 2 → `1234.56`. */
export function decimalText(unscaled: string, scale: number): string {
  if (scale <= 0) return unscaled + '0'.repeat(-scale)
  const negative = unscaled.startsWith('-')
  const digits = (negative ? unscaled.slice(1) : unscaled).padStart(scale + 1, '0')
  return `${negative ? '-' : ''}${digits.slice(0, -scale)}.${digits.slice(-scale)}`
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** Standard base64 (works in Node and the browser without Buffer or btoa's string detour). */
export function base64(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + BASE64[(n >> 6) & 63]! + BASE64[n & 63]!
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8)
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + (i + 1 < bytes.length ? BASE64[(n >> 6) & 63]! : '=') + '='
  }
  return out
}

interface ListLike {
  length: number
  get(index: number): unknown
}

function isListLike(value: unknown): value is ListLike {
  return typeof value === 'object' && value !== null && 'get' in value && 'length' in value && typeof (value as ListLike).get === 'function'
}

function isBinaryType(type: DataType): boolean {
  return typeIs(type, ARROW_TYPE_ID.Binary) || typeIs(type, ARROW_TYPE_ID.LargeBinary) || typeIs(type, ARROW_TYPE_ID.FixedSizeBinary)
}

function floatJson(value: number): string {
  // JSON has no NaN or infinities; their names as strings keep them apart from null.
  return Number.isFinite(value) ? String(value) : JSON.stringify(String(value))
}

/** JSON text of a value (bigints as exact digits, binary as base64, timestamps as ISO strings, decimals as strings). */
export function jsonText(value: unknown, type?: DataType): string {
  if (value === null || value === undefined) return 'null'
  const temporal = type || value instanceof RawTimestamp ? temporalText(value, type) : undefined
  if (temporal !== undefined) return JSON.stringify(temporal)
  if (type && isDictionary(type)) return jsonText(value, type.dictionary)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') return floatJson(value)
  if (type && isDecimal(type)) return JSON.stringify(decimalText(String(value), type.scale))
  if (value instanceof Uint8Array && (!type || isBinaryType(type))) return JSON.stringify(base64(value))
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (isListLike(value)) {
    const child = type && type.children?.[0] ? (type.children[0] as Field).type : undefined
    const parts: string[] = []
    for (let i = 0; i < value.length; i += 1) parts.push(jsonText(value.get(i), child))
    return `[${parts.join(',')}]`
  }
  if (typeof value === 'object') {
    const fields: Field[] = type && isStruct(type) ? type.children : []
    const object = fields.length > 0 ? null : ((value as { toJSON?: () => unknown }).toJSON?.() ?? value)
    const entries: [string, unknown, DataType | undefined][] =
      fields.length > 0
        ? fields.map((f) => [f.name, (value as Record<string, unknown>)[f.name], f.type])
        : Object.entries(object as Record<string, unknown>).map(([k, v]) => [k, v, undefined])
    return `{${entries.map(([k, v, t]) => `${JSON.stringify(k)}:${jsonText(v, t)}`).join(',')}}`
  }
  return JSON.stringify(String(value))
}

/**
 * One value as the text of a TSV/CSV/Markdown field: `null` for a null (the caller writes it as it
 * must), plain text for scalars, JSON for nested values, base64 for binary.
 */
export function fieldText(value: unknown, type?: DataType): string | null {
  if (value === null || value === undefined) return null
  const temporal = type || value instanceof RawTimestamp ? temporalText(value, type) : undefined
  if (temporal !== undefined) return temporal
  if (type && isDictionary(type)) return fieldText(value, type.dictionary)
  if (typeof value === 'string') return value
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value)
  if (typeof value === 'number') return String(value)
  if (type && isDecimal(type)) return decimalText(String(value), type.scale)
  if (value instanceof Uint8Array && (!type || isBinaryType(type))) return base64(value)
  return jsonText(value, type)
}

/**
 * The value of `row` in a column, exactly: timestamps come from their raw 64-bit buffer (apache-arrow's
 * `get` would round them to float milliseconds); everything else is `get`.
 */
export function cellValue(vector: Vector, row: number): unknown {
  const type = vector.type as DataType
  if (isTimestamp(type)) {
    let index = row
    for (const data of vector.data) {
      if (index < data.length) {
        if (!data.getValid(index)) return null
        const values = data.values as unknown as BigInt64Array | Int32Array
        const raw = values[data.offset + index]
        return raw === undefined ? null : new RawTimestamp(BigInt(raw), type.unit, type.timezone ?? null)
      }
      index -= data.length
    }
    return null
  }
  return vector.get(row) as unknown
}
