import {
  Field,
  FixedSizeList,
  Float32,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimeUnit,
  Timestamp,
  makeData,
  makeVector,
  type DataType,
  type Vector,
} from 'apache-arrow'

/**
 * Small builders for Arrow columns from typed arrays: the demo catalog, the tests and the benchmark
 * make large tables quickly this way (row objects through `makeArrowTable` are ~10x slower).
 */

/** A column: its vector and whether the field may hold nulls. */
export interface Column {
  vector: Vector
  nullable?: boolean
}

/** One record batch from equally long columns, in the given order. */
export function batchOf(columns: Record<string, Column | Vector>): RecordBatch {
  const entries = Object.entries(columns).map(([name, c]) => {
    const column: Column = 'vector' in c ? c : { vector: c }
    return { name, vector: column.vector, nullable: column.nullable ?? column.vector.nullCount > 0 }
  })
  const length = entries[0]?.vector.length ?? 0
  for (const e of entries) {
    if (e.vector.length !== length) throw new Error(`column ${e.name} has ${e.vector.length} rows, expected ${length}`)
  }
  const fields = entries.map((e) => new Field(e.name, e.vector.type, e.nullable))
  const children = entries.map((e) => {
    if (e.vector.data.length !== 1) throw new Error(`column ${e.name} must be one chunk (it has ${e.vector.data.length}); build smaller batches`)
    return e.vector.data[0]!
  })
  const schema = new Schema(fields)
  return new RecordBatch(schema, makeData({ type: new Struct(fields), length, nullCount: 0, children }))
}

/** A table of batches that share one schema. */
export function tableOf(batches: RecordBatch[]): Table {
  return new Table(batches)
}

/** Fixed-size lists of float32 (vectors): `values.length` must be rows × dimension. */
export function float32Vectors(values: Float32Array, dimension: number): Vector<FixedSizeList<Float32>> {
  const length = values.length / dimension
  const type = new FixedSizeList(dimension, new Field('item', new Float32(), true))
  return makeVector(makeData({ type, length, nullCount: 0, child: makeData({ type: new Float32(), length: values.length, data: values }) }))
}

/** Timestamps in microseconds since the epoch, in `timezone` (UTC by default). */
export function timestampsMicro(values: BigInt64Array, timezone: string | null = 'UTC'): Vector<Timestamp> {
  const type = new Timestamp(TimeUnit.MICROSECOND, timezone)
  return makeVector(makeData({ type, length: values.length, nullCount: 0, data: values })) as Vector<Timestamp>
}

/** A null bitmap (1 = valid) from a predicate over row indexes. */
export function validityBitmap(length: number, isValid: (row: number) => boolean): { bitmap: Uint8Array; nullCount: number } {
  const bitmap = new Uint8Array(Math.ceil(length / 8))
  let nullCount = 0
  for (let i = 0; i < length; i++) {
    if (isValid(i)) bitmap[i >> 3]! |= 1 << (i & 7)
    else nullCount++
  }
  return { bitmap, nullCount }
}

/** A fixed-width column (numbers) with some nulls. */
export function withNulls<T extends DataType>(vector: Vector<T>, isValid: (row: number) => boolean): Vector<T> {
  const data = vector.data[0]!
  const { bitmap, nullCount } = validityBitmap(vector.length, isValid)
  return makeVector(data.clone(data.type, data.offset, data.length, nullCount, [data.valueOffsets, data.values, bitmap, data.typeIds] as never))
}

/** A deterministic PRNG (mulberry32), so generated catalogs are the same on every run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
