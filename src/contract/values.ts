import { DataType, TimeUnit, type Field, type Vector } from 'apache-arrow'

/**
 * Values as text, whole and exact: what a copy (renderer) and an export (core) write. Unlike the grid's
 * display (src/renderer/features/table/formatCell.ts) nothing is elided or rounded: int64 keeps every
 * digit, a 768-d vector keeps 768 values, timestamps keep their sub-millisecond digits, binary is base64,
 * and nested values are JSON.
 */

/** A timestamp read from its raw buffer (apache-arrow's `get` turns it into float milliseconds). */
export class RawTimestamp {
  constructor(
    readonly value: bigint,
    readonly unit: TimeUnit,
  ) {}
}

const UNIT_DIGITS: Record<TimeUnit, number> = { [TimeUnit.SECOND]: 0, [TimeUnit.MILLISECOND]: 3, [TimeUnit.MICROSECOND]: 6, [TimeUnit.NANOSECOND]: 9 }

/** ISO 8601 in UTC with as many fraction digits as the unit has (`2024-05-01T12:00:00.123456Z`). */
export function isoTimestamp(value: bigint, unit: TimeUnit): string {
  const digits = UNIT_DIGITS[unit]
  const scale = 10n ** BigInt(digits)
  let seconds = value / scale
  let fraction = value % scale
  if (fraction < 0n) {
    fraction += scale
    seconds -= 1n
  }
  const date = new Date(Number(seconds) * 1000)
  if (Number.isNaN(date.getTime())) return value.toString()
  const base = date.toISOString().slice(0, 19)
  return digits === 0 ? `${base}Z` : `${base}.${fraction.toString().padStart(digits, '0')}Z`
}

/** Milliseconds (possibly fractional, as apache-arrow returns nested timestamps) as ISO 8601. */
function isoFromMs(ms: number): string {
  const date = new Date(Math.floor(ms))
  if (Number.isNaN(date.getTime())) return String(ms)
  const micros = Math.round((ms - Math.floor(ms)) * 1000)
  const iso = date.toISOString()
  return micros > 0 ? `${iso.slice(0, 23)}${String(micros).padStart(3, '0')}Z` : iso
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
  return DataType.isBinary(type) || DataType.isLargeBinary(type) || DataType.isFixedSizeBinary(type)
}

function floatJson(value: number): string {
  // JSON has no NaN or infinities; their names as strings keep them apart from null.
  return Number.isFinite(value) ? String(value) : JSON.stringify(String(value))
}

/** JSON text of a value (bigints as exact digits, binary as base64, timestamps as ISO strings, decimals as strings). */
export function jsonText(value: unknown, type?: DataType): string {
  if (value === null || value === undefined) return 'null'
  if (value instanceof RawTimestamp) return JSON.stringify(isoTimestamp(value.value, value.unit))
  if (type && DataType.isDictionary(type)) return jsonText(value, type.dictionary)
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (type && DataType.isTimestamp(type)) return JSON.stringify(isoFromMs(value))
    if (type && DataType.isDate(type)) return JSON.stringify(isoDate(value))
    return floatJson(value)
  }
  if (type && DataType.isDecimal(type)) return JSON.stringify(decimalText(String(value), type.scale))
  if (value instanceof Uint8Array && (!type || isBinaryType(type))) return JSON.stringify(base64(value))
  if (value instanceof Date) return JSON.stringify(value.toISOString())
  if (isListLike(value)) {
    const child = type && type.children?.[0] ? (type.children[0] as Field).type : undefined
    const parts: string[] = []
    for (let i = 0; i < value.length; i += 1) parts.push(jsonText(value.get(i), child))
    return `[${parts.join(',')}]`
  }
  if (typeof value === 'object') {
    const fields: Field[] = type && DataType.isStruct(type) ? type.children : []
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
  if (value instanceof RawTimestamp) return isoTimestamp(value.value, value.unit)
  if (type && DataType.isDictionary(type)) return fieldText(value, type.dictionary)
  if (typeof value === 'string') return value
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value)
  if (typeof value === 'number') {
    if (type && DataType.isTimestamp(type)) return isoFromMs(value)
    if (type && DataType.isDate(type)) return isoDate(value)
    return String(value)
  }
  if (type && DataType.isDecimal(type)) return decimalText(String(value), type.scale)
  if (value instanceof Uint8Array && (!type || isBinaryType(type))) return base64(value)
  return jsonText(value, type)
}

/**
 * The value of `row` in a column, exactly: timestamps come from their raw 64-bit buffer (apache-arrow's
 * `get` would round them to float milliseconds); everything else is `get`.
 */
export function cellValue(vector: Vector, row: number): unknown {
  const type = vector.type as DataType
  if (DataType.isTimestamp(type)) {
    let index = row
    for (const data of vector.data) {
      if (index < data.length) {
        if (!data.getValid(index)) return null
        const values = data.values as unknown as BigInt64Array | Int32Array
        const raw = values[data.offset + index]
        return raw === undefined ? null : new RawTimestamp(BigInt(raw), type.unit)
      }
      index -= data.length
    }
    return null
  }
  return vector.get(row) as unknown
}
