import {
  Binary,
  Bool,
  DateDay,
  DateMillisecond,
  Decimal,
  Dictionary,
  Duration,
  Field,
  FixedSizeBinary,
  FixedSizeList,
  Float16,
  Float32,
  Float64,
  Int8,
  Int32,
  Int64,
  LargeBinary,
  LargeUtf8,
  List,
  Map_,
  Null,
  Schema,
  Struct,
  TimeMicrosecond,
  TimeUnit,
  Timestamp,
  Uint16,
  Uint64,
  Utf8,
  type DataType,
} from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { tableToIPC, type Table } from 'apache-arrow'
import { emptyIpcStream, fieldInfo, fileBuffersToStream, formatType, fromIpc, schemaFields, toIpcStream } from '../../../src/core/arrow'
import { sampleTable } from '../../helpers/catalog'

const item = (type: DataType) => new Field('item', type, true)

describe('readable Arrow types', () => {
  it.each<[DataType, string]>([
    [new Null(), 'Null'],
    [new Int8(), 'Int8'],
    [new Int32(), 'Int32'],
    [new Int64(), 'Int64'],
    [new Uint16(), 'UInt16'],
    [new Uint64(), 'UInt64'],
    [new Float16(), 'Float16'],
    [new Float32(), 'Float32'],
    [new Float64(), 'Float64'],
    [new Bool(), 'Bool'],
    [new Utf8(), 'Utf8'],
    [new LargeUtf8(), 'LargeUtf8'],
    [new Binary(), 'Binary'],
    [new LargeBinary(), 'LargeBinary'],
    [new FixedSizeBinary(16), 'FixedSizeBinary[16]'],
    [new Decimal(2, 10, 128), 'Decimal128(10, 2)'],
    [new DateDay(), 'Date32'],
    [new DateMillisecond(), 'Date64'],
    [new TimeMicrosecond(), 'Time64<MICROSECOND>'],
    [new Timestamp(TimeUnit.MICROSECOND, 'UTC'), 'Timestamp<MICROSECOND, UTC>'],
    [new Timestamp(TimeUnit.MILLISECOND), 'Timestamp<MILLISECOND>'],
    [new Duration(TimeUnit.SECOND), 'Duration<SECOND>'],
    [new FixedSizeList(128, item(new Float32())), 'FixedSizeList<Float32>[128]'],
    [new List(item(new Utf8())), 'List<Utf8>'],
    [new List(item(new List(item(new Int32())))), 'List<List<Int32>>'],
    [new Struct([new Field('a', new Int32()), new Field('b', new Utf8())]), 'Struct<a: Int32, b: Utf8>'],
    [new Map_(new Field('entries', new Struct([new Field('key', new Utf8(), false), new Field('value', new Int64())]), false) as never), 'Map<Utf8, Int64>'],
    [new Dictionary(new Utf8(), new Int32()), 'Dictionary<Int32, Utf8>'],
  ])('%s reads as %s', (type, expected) => {
    expect(formatType(type)).toBe(expected)
  })

  it('marks fixed-size lists of floats as vectors, and nothing else', () => {
    expect(fieldInfo(new Field('v', new FixedSizeList(768, item(new Float32())), false))).toEqual({
      name: 'v',
      type: 'FixedSizeList<Float32>[768]',
      nullable: false,
      vectorDimension: 768,
    })
    expect(fieldInfo(new Field('h', new FixedSizeList(4, item(new Float16())), true)).vectorDimension).toBe(4)
    expect(fieldInfo(new Field('n', new FixedSizeList(3, item(new Int32())), true)).vectorDimension).toBeUndefined()
    expect(fieldInfo(new Field('l', new List(item(new Float32())), true)).vectorDimension).toBeUndefined()
  })

  it('lists the children of structs and lists', () => {
    const info = fieldInfo(new Field('s', new Struct([new Field('a', new Int32(), false), new Field('tags', new List(item(new Utf8())), true)]), true))
    expect(info.children).toEqual([
      { name: 'a', type: 'Int32', nullable: false },
      { name: 'tags', type: 'List<Utf8>', nullable: true, children: [{ name: 'item', type: 'Utf8', nullable: true }] },
    ])
    expect(schemaFields(new Schema([new Field('x', new Int64(), false)]))).toEqual([{ name: 'x', type: 'Int64', nullable: false }])
  })
})

describe('IPC helpers', () => {
  it('round-trips a table through stream bytes, and an empty page keeps the schema', () => {
    const table = sampleTable(7, { start: 2n ** 60n })
    const back = fromIpc(toIpcStream(table))
    expect(back.numRows).toBe(7)
    expect(back.getChild('id')!.get(6)).toBe(2n ** 60n + 6n)
    const empty = fromIpc(emptyIpcStream(table.schema))
    expect(empty.numRows).toBe(0)
    expect(empty.schema.fields.map((f) => f.name)).toEqual(table.schema.fields.map((f) => f.name))
  })
})

describe('fileBuffersToStream', () => {
  /** An IPC file laid out as the spec and arrow-rs do: magic, padding, the stream (schema first, EOS), footer. */
  function fileLike(table: Table, padding: number): Uint8Array {
    const stream = tableToIPC(table, 'stream')
    const footer = new Uint8Array(24).fill(7)
    const length = new Uint8Array(4)
    new DataView(length.buffer).setInt32(0, footer.byteLength, true)
    const magic = Buffer.from('ARROW1')
    return Buffer.concat([magic, new Uint8Array(padding - 6), stream, footer, length, magic])
  }

  it('joins file-format buffers of one batch each into one stream, without decoding', () => {
    const parts = [fileLike(sampleTable(3), 64), fileLike(sampleTable(4, { start: 3n }), 64), fileLike(sampleTable(2, { start: 7n }), 8)]
    const stream = fileBuffersToStream(parts)!
    expect(stream).not.toBeNull()
    const back = fromIpc(stream)
    expect(back.numRows).toBe(9)
    expect(back.batches).toHaveLength(3)
    expect([...back.getChild('id')!]).toEqual(Array.from({ length: 9 }, (_, i) => BigInt(i)))
    expect(back.getChild('vector')!.get(8)!.toArray()).toEqual(Float32Array.from({ length: 8 }, (_, k) => 1 + k / 1000))
  })

  it('refuses what it cannot join, so the caller decodes instead', () => {
    expect(fileBuffersToStream([])).toBeNull()
    expect(fileBuffersToStream([tableToIPC(sampleTable(2), 'stream')])).toBeNull()
    expect(fileBuffersToStream([new Uint8Array(64)])).toBeNull()
    // apache-arrow's own file writer keeps the schema only in the footer.
    expect(fileBuffersToStream([tableToIPC(sampleTable(2), 'file')])).toBeNull()
  })
})
