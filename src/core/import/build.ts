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
export function coerce(value: unknown, type: DataType): unknown {
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
  if (DataType.isDate(type) || DataType.isTimestamp(type)) {
    const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : NaN
    return Number.isFinite(ms) ? ms : MISMATCH
  }
  if (DataType.isList(type) || DataType.isFixedSizeList(type)) {
    if (!Array.isArray(value) && !ArrayBuffer.isView(value)) return MISMATCH
    const items = Array.from(value as ArrayLike<unknown>)
    if (DataType.isFixedSizeList(type) && items.length !== type.listSize) return MISMATCH
    const child = type.children[0]!.type
    const out = new Array<unknown>(items.length)
    for (let i = 0; i < items.length; i++) {
      const c = coerce(items[i], child)
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
      const c = coerce(record[f.name], f.type)
      if (c === MISMATCH) return MISMATCH
      out[f.name] = c
    }
    return out
  }
  return MISMATCH
}

/** Build one RecordBatch from already-coerced column values (`columns[i]` holds field i). */
export function batchFromColumns(schema: Schema, columns: unknown[][], length: number): RecordBatch {
  const children: Data[] = schema.fields.map((field: Field, i) => {
    const builder = makeBuilder({ type: field.type, nullValues: [null, undefined] })
    const values = columns[i]!
    for (let r = 0; r < length; r++) builder.append(values[r])
    return builder.finish().flush()
  })
  const data = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children })
  return new RecordBatch(schema, data)
}
