import {
  DataType,
  Field,
  FixedSizeList,
  Float32,
  RecordBatch,
  Schema,
  Struct,
  makeBuilder,
  makeData,
  type Data,
  type Vector,
} from 'apache-arrow'
import { AppError, type VectorCandidate } from '../../contract'
import { hasDictionary, typeName, vectorType, withoutDictionaries } from './schema'

/** A list-of-float column whose sample rows all have this many values (≥ 2). */
export function detectVectorCandidates(schema: Schema, sample: RecordBatch[]): Omit<VectorCandidate, 'accepted'>[] {
  const out: Omit<VectorCandidate, 'accepted'>[] = []
  schema.fields.forEach((field, index) => {
    const type = field.type as DataType
    const listLike = DataType.isList(type) || DataType.isFixedSizeList(type)
    if (!listLike) return
    const child = (type.children?.[0] as Field | undefined)?.type
    if (!child || !DataType.isFloat(child)) return
    // Already a Float32 vector: written as is, nothing to offer.
    if (DataType.isFixedSizeList(type) && String(child) === 'Float32') return
    if (DataType.isFixedSizeList(type)) {
      out.push({ column: field.name, dimension: type.listSize, sourceType: typeName(type) })
      return
    }
    let dim: number | null = null
    let seen = 0
    for (const batch of sample) {
      const vector = batch.getChildAt(index)
      if (!vector) continue
      for (let i = 0; i < vector.length; i++) {
        const row = vector.get(i) as Vector | null
        if (row === null) continue
        seen++
        if (dim === null) dim = row.length
        else if (dim !== row.length) return
      }
    }
    if (seen > 0 && dim !== null && dim >= 2) out.push({ column: field.name, dimension: dim, sourceType: typeName(type) })
  })
  return out
}

/**
 * Per-batch conversion from the file's schema to the schema written: dictionaries decoded,
 * accepted vector columns turned into `FixedSizeList<Float32>[d]`. Every output batch carries
 * the same Schema object, so chunks can be assembled into one Arrow Table.
 */
export class BatchTransform {
  readonly schema: Schema
  private readonly vectorDims = new Map<number, number>()
  private readonly decode: boolean[]
  private rowBase = 0

  constructor(
    readonly input: Schema,
    vectors: { column: string; dimension: number }[],
  ) {
    const decoded = withoutDictionaries(input)
    const fields = decoded.fields.map((field, i) => {
      const v = vectors.find((c) => c.column === field.name)
      if (!v) return field
      this.vectorDims.set(i, v.dimension)
      return new Field(field.name, vectorType(v.dimension), field.nullable, field.metadata)
    })
    this.schema = new Schema(fields, input.metadata)
    this.decode = input.fields.map((f) => hasDictionary(f.type))
  }

  get identity(): boolean {
    return this.vectorDims.size === 0 && !this.decode.some(Boolean)
  }

  apply(batch: RecordBatch): RecordBatch {
    const base = this.rowBase
    this.rowBase += batch.numRows
    if (this.identity) return batch.schema === this.schema ? batch : new RecordBatch(this.schema, batch.data)
    const children: Data[] = this.input.fields.map((field, i) => {
      const vector = batch.getChildAt(i)!
      const dim = this.vectorDims.get(i)
      if (dim !== undefined) return toVectorData(vector, dim, field.name, base)
      if (this.decode[i]) return rebuild(vector, this.schema.fields[i]!.type)
      return vector.data.length === 1 ? vector.data[0]! : rebuild(vector, field.type)
    })
    const data = makeData({ type: new Struct(this.schema.fields), length: batch.numRows, nullCount: 0, children })
    return new RecordBatch(this.schema, data)
  }
}

function rebuild(vector: Vector, type: DataType): Data {
  const builder = makeBuilder({ type, nullValues: [null, undefined] })
  for (let i = 0; i < vector.length; i++) builder.append(plain(vector.get(i)))
  return builder.finish().flush()
}

/** Values read from Arrow vectors (nested Vectors, StructRows) as plain JS the builders accept. */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'object' && value !== null && 'toArray' in value && typeof (value as Vector).toArray === 'function') {
    return Array.from((value as Vector).toArray() as ArrayLike<unknown>, plain)
  }
  if (typeof value === 'object' && value !== null && 'toJSON' in value && typeof (value as { toJSON(): unknown }).toJSON === 'function') {
    const obj = (value as { toJSON(): Record<string, unknown> }).toJSON()
    return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

function toVectorData(vector: Vector, dim: number, column: string, rowBase: number): Data {
  const n = vector.length
  const values = new Float32Array(n * dim)
  const nulls = new Uint8Array(Math.ceil(n / 8))
  let nullCount = 0
  for (let i = 0; i < n; i++) {
    const row = vector.get(i) as Vector | null
    if (row === null) {
      nullCount++
      continue
    }
    nulls[i >> 3]! |= 1 << (i & 7)
    if (row.length !== dim) {
      throw new AppError('invalid_input', `Row ${(rowBase + i + 1).toLocaleString('en')}: column "${column}" has ${row.length} values, but it is imported as a ${dim}-value vector`, {
        hint: 'Import without making it a vector, or fix the row',
      })
    }
    if (row.nullCount > 0) {
      throw new AppError('invalid_input', `Row ${(rowBase + i + 1).toLocaleString('en')}: column "${column}" has a missing value inside the vector`, {
        hint: 'Import without making it a vector, or fill the gap',
      })
    }
    values.set(row.toArray() as ArrayLike<number>, i * dim)
  }
  const type = new FixedSizeList(dim, new Field('item', new Float32(), true))
  const child = makeData({ type: new Float32(), length: n * dim, nullCount: 0, data: values })
  return makeData({ type, length: n, nullCount, nullBitmap: nullCount > 0 ? nulls : null, child })
}
