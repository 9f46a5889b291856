import { DuckDBTypeId, JSDuckDBValueConverter, type DuckDBDataChunk, type DuckDBType, type DuckDBValue } from '@duckdb/node-api'
import {
  Binary,
  Bool,
  DataType,
  DateDay,
  Decimal,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  List,
  makeData,
  makeVector,
  RecordBatch,
  Schema,
  Struct,
  Table,
  Time,
  TimeUnit,
  Timestamp,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  vectorFromArray,
  type Vector,
} from 'apache-arrow'
import { toIpcStream } from '../arrow'

/**
 * DuckDB result → Arrow, for `sql/page`: the inverse of types.ts, exact for integers (64-bit as bigint), decimals,
 * dates and timestamps (in their unit; `TIMESTAMPTZ` as UTC microseconds), `FLOAT[d]` as a vector; types Arrow lacks
 * (HUGEINT, UUID, INTERVAL, MAP, UNION) become text.
 */
export function arrowTypeOf(type: DuckDBType): DataType {
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN: return new Bool()
    case DuckDBTypeId.TINYINT: return new Int8()
    case DuckDBTypeId.SMALLINT: return new Int16()
    case DuckDBTypeId.INTEGER: return new Int32()
    case DuckDBTypeId.BIGINT: return new Int64()
    case DuckDBTypeId.UTINYINT: return new Uint8()
    case DuckDBTypeId.USMALLINT: return new Uint16()
    case DuckDBTypeId.UINTEGER: return new Uint32()
    case DuckDBTypeId.UBIGINT: return new Uint64()
    case DuckDBTypeId.FLOAT: return new Float32()
    case DuckDBTypeId.DOUBLE: return new Float64()
    case DuckDBTypeId.VARCHAR: return new Utf8()
    case DuckDBTypeId.BLOB: return new Binary()
    case DuckDBTypeId.DATE: return new DateDay()
    case DuckDBTypeId.TIME: return new Time(TimeUnit.MICROSECOND, 64)
    case DuckDBTypeId.TIMESTAMP: return new Timestamp(TimeUnit.MICROSECOND)
    case DuckDBTypeId.TIMESTAMP_S: return new Timestamp(TimeUnit.SECOND)
    case DuckDBTypeId.TIMESTAMP_MS: return new Timestamp(TimeUnit.MILLISECOND)
    case DuckDBTypeId.TIMESTAMP_NS: return new Timestamp(TimeUnit.NANOSECOND)
    case DuckDBTypeId.TIMESTAMP_TZ: return new Timestamp(TimeUnit.MICROSECOND, 'UTC')
    case DuckDBTypeId.DECIMAL: {
      const { width, scale } = type as unknown as { width: number; scale: number }
      return new Decimal(scale, width, 128)
    }
    case DuckDBTypeId.ARRAY: {
      const { valueType, length } = type as unknown as { valueType: DuckDBType; length: number }
      return new FixedSizeList(length, new Field('item', arrowTypeOf(valueType), true))
    }
    case DuckDBTypeId.LIST: return new List(new Field('item', arrowTypeOf((type as unknown as { valueType: DuckDBType }).valueType), true))
    case DuckDBTypeId.STRUCT: {
      const { entryNames, entryTypes } = type as unknown as { entryNames: string[]; entryTypes: DuckDBType[] }
      return new Struct(entryNames.map((name, i) => new Field(name, arrowTypeOf(entryTypes[i]!), true)))
    }
    default: return new Utf8()
  }
}

export interface ResultColumns {
  names: string[]
  types: DuckDBType[]
}

export function resultSchema(columns: ResultColumns, metadata?: Map<string, string>): Schema {
  return new Schema(columns.names.map((name, i) => new Field(name, arrowTypeOf(columns.types[i]!), true)), metadata)
}

/** Rows `[offset, offset + limit)` of the kept chunks (each with its first row's index) as Arrow IPC bytes. */
export function pageBytes(columns: ResultColumns, chunks: readonly { first: number; chunk: DuckDBDataChunk }[], offset: number, limit: number, metadata: Map<string, string>): Uint8Array {
  const schema = resultSchema(columns, metadata)
  const spans = chunks.flatMap(({ first, chunk }) => {
    const from = Math.max(offset, first)
    const to = Math.min(offset + limit, first + chunk.rowCount)
    return from < to ? [{ chunk, from: from - first, to: to - first }] : []
  })
  const length = spans.reduce((n, s) => n + s.to - s.from, 0)
  const vectors = columns.types.map((type, c) => {
    const fast = floatArrayVector(type, schema.fields[c]!.type, spans, c, length)
    if (fast) return fast
    const values: DuckDBValue[] = []
    for (const { chunk, from, to } of spans) {
      const vector = chunk.getColumnVector(c)
      for (let row = from; row < to; row++) values.push(vector.getItem(row))
    }
    return arrowVector(type, schema.fields[c]!.type, values)
  })
  const data = makeData({ type: new Struct(schema.fields), length, nullCount: 0, children: vectors.map((v) => v.data[0]!) })
  return toIpcStream(new Table([new RecordBatch(schema, data)]))
}

/** How the node-api (1.5) holds an ARRAY vector: its rows' validity and the child vector's typed array of every element. */
interface RawArrayVector {
  validity?: { itemValid(row: number): boolean }
  childData?: { items?: unknown }
}

/**
 * A `FLOAT[d]` / `DOUBLE[d]` column (a vector) copied from DuckDB's own memory, one typed-array copy per chunk,
 * instead of one JS value per element (a 768-d column is 768 values a row: a 100,000-row result took 90 s the
 * generic way). Null when the column is of another type, or the node-api's vectors are not laid out as read here
 * (then the generic path answers).
 */
function floatArrayVector(type: DuckDBType, arrow: DataType, spans: readonly { chunk: DuckDBDataChunk; from: number; to: number }[], c: number, length: number): Vector | null {
  if (type.typeId !== DuckDBTypeId.ARRAY || !(arrow instanceof FixedSizeList)) return null
  const child = arrow.children[0]!.type
  const Values = child instanceof Float32 ? Float32Array : child instanceof Float64 ? Float64Array : null
  if (!Values) return null
  const d = arrow.listSize
  const raws = spans.map((s) => s.chunk.getColumnVector(c) as unknown as RawArrayVector)
  if (!raws.every((raw) => raw.childData?.items instanceof Values && typeof raw.validity?.itemValid === 'function')) return null
  const values = new Values(length * d)
  const nullBitmap = new Uint8Array(Math.ceil(length / 8))
  let nullCount = 0
  let at = 0
  spans.forEach(({ from, to }, i) => {
    const raw = raws[i]!
    values.set((raw.childData!.items as Float32Array | Float64Array).subarray(from * d, to * d), at * d)
    for (let row = from; row < to; row++, at++) {
      if (raw.validity!.itemValid(row)) nullBitmap[at >> 3]! |= 1 << (at & 7)
      else nullCount++
    }
  })
  const items = makeData({ type: child, length: length * d, data: values } as never)
  return makeVector(makeData({ type: arrow, length, nullCount, nullBitmap: nullCount ? nullBitmap : null, child: items } as never))
}

function arrowVector(type: DuckDBType, arrow: DataType, values: readonly DuckDBValue[]): Vector {
  const n = values.length
  const nullBitmap = new Uint8Array(Math.ceil(n / 8))
  let nullCount = 0
  values.forEach((v, i) => (v === null ? nullCount++ : (nullBitmap[i >> 3]! |= 1 << (i & 7))))
  const fixed = (data: ArrayLike<unknown> & { length: number }) => makeVector(makeData({ type: arrow, length: n, nullCount, nullBitmap: nullCount ? nullBitmap : null, data } as never))
  const big = (pick: (v: object) => bigint, unsigned = false) => {
    const out = unsigned ? new BigUint64Array(n) : new BigInt64Array(n)
    values.forEach((v, i) => {
      if (v !== null) out[i] = pick(v as object)
    })
    return fixed(out)
  }
  switch (type.typeId) {
    case DuckDBTypeId.BIGINT:
      return big((v) => v as unknown as bigint)
    case DuckDBTypeId.UBIGINT:
      return big((v) => v as unknown as bigint, true)
    case DuckDBTypeId.DATE:
      return fixed(Int32Array.from(values, (v) => (v === null ? 0 : (v as unknown as { days: number }).days)))
    case DuckDBTypeId.TIME:
    case DuckDBTypeId.TIMESTAMP:
    case DuckDBTypeId.TIMESTAMP_TZ:
      return big((v) => (v as { micros: bigint }).micros)
    case DuckDBTypeId.TIMESTAMP_S:
      return big((v) => (v as { seconds: bigint }).seconds)
    case DuckDBTypeId.TIMESTAMP_MS:
      return big((v) => (v as { millis: bigint }).millis)
    case DuckDBTypeId.TIMESTAMP_NS:
      return big((v) => (v as { nanos: bigint }).nanos)
    case DuckDBTypeId.DECIMAL: {
      const words = new Uint32Array(n * 4)
      values.forEach((v, i) => {
        if (v === null) return
        let x = BigInt.asUintN(128, (v as unknown as { value: bigint }).value)
        for (let w = 0; w < 4; w++, x >>= 32n) words[i * 4 + w] = Number(x & 0xffffffffn)
      })
      return fixed(words)
    }
    default:
      break
  }
  const js = values.map((v) => (v === null ? null : JSDuckDBValueConverter(v, type, JSDuckDBValueConverter)))
  if (arrow.typeId === new Utf8().typeId && type.typeId !== DuckDBTypeId.VARCHAR) return vectorFromArray(values.map((v) => (v === null ? null : String(v))), new Utf8())
  return vectorFromArray(js as never[], arrow)
}
