import { Field, Float64, Int64, makeData, RecordBatch, Schema, Struct, Table } from 'apache-arrow'

/** `rows` rows of (id int64, value float64): cheap to make, big enough for many 10k-row chunks. */
export function numbersTable(rows: number): Table {
  const id = new BigInt64Array(rows)
  const value = new Float64Array(rows)
  for (let i = 0; i < rows; i++) {
    id[i] = BigInt(i)
    value[i] = i / 7
  }
  const fields = [new Field('id', new Int64(), false), new Field('value', new Float64(), false)]
  const data = makeData({
    type: new Struct(fields),
    length: rows,
    nullCount: 0,
    children: [makeData({ type: new Int64(), length: rows, data: id }), makeData({ type: new Float64(), length: rows, data: value })],
  })
  return new Table(new RecordBatch(new Schema(fields), data))
}
