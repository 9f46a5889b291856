import {
  DataType,
  Field,
  RecordBatch,
  Schema,
  Struct,
  makeBuilder,
  makeData,
  type Data,
} from 'apache-arrow'

/** Returned by {@link coerce} when a value does not fit the column type. */
export const MISMATCH: unique symbol = Symbol('mismatch')

/**
 * Convert a plain JS value (from JSON, CSV parsing or hyparquet) to what apache-arrow's builder of
 * `type` expects, or {@link MISMATCH}. null/undefined stay null. Recursive for lists and structs.
 */
export function coerce(value: unknown, type: DataType, nested = false): unknown {
  if (value === null || value === undefined) return null
  if (DataType.isInt(type)) {
    if (type.bitWidth === 64) {
      if (typeof value === 'bigint') return value
      if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value)
      if (typeof value === 'boolean') return value ? 1n : 0n
      return MISMATCH
    }
    if (typeof value === 'number' && Number.isInteger(value)) return value
    if (typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER)) return Number(value)
    return MISMATCH
  }
  if (DataType.isFloat(type)) {
    if (typeof value === 'number') return value
    if (typeof value === 'bigint') return Number(value)
    return MISMATCH
  }
  if (DataType.isBool(type)) return typeof value === 'boolean' ? value : MISMATCH
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) {
    if (typeof value === 'string') return value
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
    // A spreadsheet date in a column that also holds text.
    if (value instanceof Date) return Number.isFinite(value.getTime()) ? value.toISOString().replace(/T00:00:00\.000Z$/, '').replace('.000Z', 'Z') : MISMATCH
    // Nested JSON where the first rows held text: keep it as JSON text rather than fail.
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))
  }
  if (DataType.isBinary(type) || DataType.isLargeBinary(type)) {
    if (value instanceof Uint8Array) return value
    if (typeof value === 'string') return new TextEncoder().encode(value)
    return MISMATCH
  }
  if (DataType.isFixedSizeBinary(type)) {
    return value instanceof Uint8Array && value.length === type.byteWidth ? value : MISMATCH
  }
  if (DataType.isTimestamp(type)) {
    // A bigint is already in the column's unit (Parquet raw values); Dates and numbers are epoch ms.
    if (nested) {
      // apache-arrow's builders (used for nested columns) take epoch ms; sub-ms digits are lost there.
      if (typeof value === 'bigint') return Number(value) / [0.001, 1, 1000, 1_000_000][type.unit]!
      const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : NaN
      return Number.isFinite(ms) ? ms : MISMATCH
    }
    if (typeof value === 'bigint') return value
    const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : NaN
    return Number.isFinite(ms) ? msToUnit(ms, type.unit) : MISMATCH
  }
  if (DataType.isDate(type)) {
    const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : NaN
    return Number.isFinite(ms) ? ms : MISMATCH
  }
  if (DataType.isTime(type)) {
    if (type.bitWidth === 64) return typeof value === 'bigint' ? value : typeof value === 'number' && Number.isInteger(value) ? BigInt(value) : MISMATCH
    return typeof value === 'number' && Number.isInteger(value) ? value : typeof value === 'bigint' ? Number(value) : MISMATCH
  }
  if (DataType.isDecimal(type)) return decimalWords(value, type.bitWidth)
  if (DataType.isList(type) || DataType.isFixedSizeList(type)) {
    if (!Array.isArray(value) && !ArrayBuffer.isView(value)) return MISMATCH
    const items = Array.from(value as ArrayLike<unknown>)
    if (DataType.isFixedSizeList(type) && items.length !== type.listSize) return MISMATCH
    const child = type.children[0]!.type
    const out = new Array<unknown>(items.length)
    for (let i = 0; i < items.length; i++) {
      const c = coerce(items[i], child, true)
      if (c === MISMATCH) return MISMATCH
      out[i] = c
    }
    return out
  }
  if (DataType.isStruct(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) return MISMATCH
    const record = value as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const f of type.children) {
      const c = coerce(record[f.name], f.type, true)
      if (c === MISMATCH) return MISMATCH
      out[f.name] = c
    }
    return out
  }
  return MISMATCH
}

const UNIT_FROM_MS = [
  (ms: number) => BigInt(Math.floor(ms / 1000)),
  (ms: number) => BigInt(Math.trunc(ms)),
  (ms: number) => BigInt(Math.round(ms * 1000)),
  (ms: number) => BigInt(Math.round(ms * 1000)) * 1000n,
]

function msToUnit(ms: number, unit: number): bigint {
  return UNIT_FROM_MS[unit]!(ms)
}

/**
 * An unscaled decimal (a number or bigint, or big-endian two's-complement bytes as Parquet stores
 * them) as the little-endian 32-bit words apache-arrow's Decimal columns hold; exact.
 */
function decimalWords(value: unknown, bitWidth: number): Uint32Array | typeof MISMATCH {
  let n: bigint
  if (typeof value === 'bigint') n = value
  else if (typeof value === 'number' && Number.isInteger(value)) n = BigInt(value)
  else if (value instanceof Uint8Array) {
    n = 0n
    for (const byte of value) n = (n << 8n) | BigInt(byte)
    if (value.length > 0 && value[0]! >= 0x80) n -= 1n << BigInt(value.length * 8)
  } else return MISMATCH
  const words = new Uint32Array(bitWidth / 32)
  const limit = 1n << BigInt(bitWidth - 1)
  if (n >= limit || n < -limit) return MISMATCH
  let u = BigInt.asUintN(bitWidth, n)
  for (let i = 0; i < words.length; i++) {
    words[i] = Number(u & 0xffffffffn)
    u >>= 32n
  }
  return words
}

/** 64-bit (and wider) fixed-width columns built directly, so raw values in the column's unit stay exact. */
function directData(type: DataType, values: unknown[], length: number): Data | null {
  const wide64 = DataType.isTimestamp(type) || (DataType.isTime(type) && type.bitWidth === 64)
  const decimal = DataType.isDecimal(type)
  if (!wide64 && !decimal) return null
  const stride = decimal ? type.bitWidth / 32 : 1
  const nulls = new Uint8Array(Math.ceil(length / 8))
  let nullCount = 0
  const out = decimal ? new Uint32Array(length * stride) : new BigInt64Array(length)
  for (let r = 0; r < length; r++) {
    const v = values[r]
    if (v === null || v === undefined) {
      nullCount++
      continue
    }
    nulls[r >> 3]! |= 1 << (r & 7)
    if (decimal) (out as Uint32Array).set(v as Uint32Array, r * stride)
    else (out as BigInt64Array)[r] = v as bigint
  }
  return makeData({ type, length, nullCount, nullBitmap: nullCount > 0 ? nulls : null, data: out } as never)
}

/** Build one RecordBatch from already-coerced column values (`columns[i]` holds field i). */
export function batchFromColumns(schema: Schema, columns: unknown[][], length: number): RecordBatch {
  return batchFromData(schema, schema.fields.map((field: Field, i) => columnData(field.type, columns[i]!, length)), length)
}

/** One column's Arrow data from already-coerced values. */
export function columnData(type: DataType, values: unknown[], length: number): Data {
  const direct = directData(type, values, length)
  if (direct) return direct
  const builder = makeBuilder({ type, nullValues: [null, undefined] })
  for (let r = 0; r < length; r++) builder.append(values[r])
  return builder.finish().flush()
}

export function batchFromData(schema: Schema, children: Data[], length: number): RecordBatch {
  const data = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children })
  return new RecordBatch(schema, data)
}
