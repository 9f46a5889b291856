import {
  Field,
  Float16,
  Int32,
  IntervalDayTime,
  LargeBinary,
  LargeUtf8,
  Map_,
  Schema,
  Struct,
  Utf8,
  Decimal,
  makeBuilder,
  makeData,
  RecordBatch,
} from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, previewImport, writeSource } from '../../../src/core/import'
import { readFile, writeFile } from 'node:fs/promises'
import { fbFile, fbMessage, flatbuffers } from '../../../src/core/arrow/ipc/fb'
import { openIpc } from '../../../src/core/arrow/ipc/reader'
import { writeArrow } from '../../fixtures/import/arrow'
import { duckdbCopy } from '../../fixtures/import/duckdb'
import { polarsFrame, polarsRow, writePolarsIpc, writePolarsParquet, type IpcCompression } from '../../fixtures/import/polars'
import { readExact, typesOf } from './exact'
import { workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

/** Record batches in an IPC file or stream (the fixtures must really have several). */
async function batchCount(path: string): Promise<number> {
  const reader = await openIpc(path, path.endsWith('.arrows') ? 'stream' : 'file')
  let n = 0
  for await (const batch of reader.batches()) n += batch.numRows > 0 ? 1 : 0
  return n
}

let tables = 0
async function importFile(path: string, options: { datesAsText?: boolean } = {}) {
  const name = `t${++tables}`
  const source = await openSource(path, options)
  await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create' })
  return readExact(ws.client, { namespace: [], name })
}

const ROWS = 2_500
const CHUNK = 1_000

function expectedPolars(i: number, categorical: boolean) {
  const { cat, ...rest } = polarsRow(i)
  return categorical ? { ...rest, cat } : rest
}

describe('Arrow IPC written by polars (Utf8View, LargeList, dictionaries, decimals, every time type)', () => {
  const cases: ['file' | 'stream', IpcCompression][] = [
    ['file', 'uncompressed'],
    ['file', 'lz4'],
    ['file', 'zstd'],
    ['stream', 'uncompressed'],
    ['stream', 'lz4'],
    ['stream', 'zstd'],
  ]
  it.each(cases)('%s, %s: every value round-trips exactly', async (kind, compression) => {
    const path = ws.file(`polars-${compression}.${kind === 'file' ? 'arrow' : 'arrows'}`)
    // Multi-chunk frames get no categorical: polars cannot write per-chunk dictionaries to a file
    // and merges the chunks of a stream; the dictionary case is the single-batch test below.
    const categorical = false
    writePolarsIpc(polarsFrame(ROWS, CHUNK, categorical), path, kind, compression)
    // polars' stream writer joins the chunks into one batch; its file writer keeps them.
    expect(await batchCount(path)).toBe(kind === 'file' ? Math.ceil(ROWS / CHUNK) : 1)
    const { table, rows } = await importFile(path)
    // polars writes strings as Utf8View in files and as LargeUtf8 in streams; both import losslessly.
    const text = kind === 'file' ? 'Utf8' : 'LargeUtf8'
    const types = typesOf(table)
    if (categorical) expect(types.cat).toBe(text)
    delete types.cat
    expect(types).toEqual({
      i: 'Int32',
      id: 'Int64',
      s: text,
      dec: 'Decimal[30e+2]',
      d: 'Date32<DAY>',
      ts: 'Timestamp<NANOSECOND, Europe/Paris>',
      tsu: 'Timestamp<MICROSECOND>',
      tsm: 'Timestamp<MILLISECOND, UTC>',
      dur: 'Duration<NANOSECOND>',
      t: 'Time64<NANOSECOND>',
      l: 'List<Int64>',
      ll: `List<List<${text}>>`,
      st: `Struct<{x:Float64, y:${text}}>`,
      u: 'Uint8',
    })
    expect(rows).toHaveLength(ROWS)
    const sorted = [...rows].sort((a, b) => (a.i as number) - (b.i as number))
    sorted.forEach((row, i) => expect(row).toEqual(expectedPolars(i, categorical)))
  })

  it('a categorical (dictionary of Utf8View) imports as text; the preview lists each conversion as "column: from → to"', async () => {
    const path = ws.file('polars-preview.arrow')
    writePolarsIpc(polarsFrame(50, 50), path, 'file', 'zstd')
    expect(await batchCount(path)).toBe(1)
    const preview = await previewImport({ path, fileName: 'polars-preview.arrow', client: ws.client, namespace: [] })
    expect(preview.conversions).toHaveLength(5)
    expect(preview.conversions).toEqual(
      expect.arrayContaining([
        { column: 's', from: 'Utf8View', to: 'Utf8' },
        { column: 'l', from: 'LargeList<Int64>', to: 'List<Int64>' },
        { column: 'll', from: 'LargeList<LargeList<Utf8View>>', to: 'List<List<Utf8>>' },
        { column: 'st', from: 'Struct<x: Float64, y: Utf8View>', to: 'Struct<x: Float64, y: Utf8>' },
        { column: 'cat', from: 'Dictionary<Utf8View>', to: 'Utf8' },
      ]),
    )
    expect(preview.schema.find((f) => f.name === 's')?.type).toBe('Utf8')
    expect(preview.schema.find((f) => f.name === 'cat')?.type).toBe('Utf8')
    const { rows } = await importFile(path)
    expect(rows.map((r) => r.cat)).toEqual(Array.from({ length: 50 }, (_, i) => polarsRow(i).cat))
  })
})

describe('Parquet written by polars and DuckDB, every compression they offer', () => {
  it.each(['zstd', 'snappy', 'gzip', 'lz4', 'brotli', 'uncompressed'] as const)('polars, %s', async (compression) => {
    const path = ws.file(`polars-${compression}.parquet`)
    writePolarsParquet(polarsFrame(ROWS, CHUNK), path, compression)
    const { table, rows } = await importFile(path)
    const types = typesOf(table)
    expect(types).toMatchObject({ id: 'Int64', dec: 'Decimal[30e+2]', d: 'Date32<DAY>', tsu: 'Timestamp<MICROSECOND>', tsm: 'Timestamp<MILLISECOND, UTC>', t: 'Time64<NANOSECOND>' })
    // Parquet keeps "adjusted to UTC", not the zone name.
    expect(types.ts).toBe('Timestamp<NANOSECOND, UTC>')
    const sorted = [...rows].sort((a, b) => (a.i as number) - (b.i as number))
    sorted.forEach((row, i) => {
      const e = polarsRow(i)
      expect({ id: row.id, s: row.s, dec: row.dec, d: row.d, ts: row.ts, tsu: row.tsu, tsm: row.tsm, t: row.t, l: row.l, ll: row.ll, st: row.st }).toEqual({
        id: e.id,
        s: e.s,
        dec: e.dec,
        d: e.d,
        ts: e.ts,
        tsu: e.tsu,
        tsm: e.tsm,
        t: e.t,
        l: e.l,
        ll: e.ll,
        st: e.st,
      })
    })
  })

  const DUCK = `
    SELECT
      i::INTEGER AS i,
      (9007199254740993 + i * 7)::BIGINT AS id,
      CASE WHEN i % 9 = 4 THEN NULL ELSE (i * 1234567.891 - 500000)::DECIMAL(18, 3) END AS d18,
      ('123456789012345678901234.' || lpad((i % 10000000000)::VARCHAR, 10, '0'))::DECIMAL(38, 10) * (CASE WHEN i % 2 = 0 THEN 1 ELSE -1 END) AS d38,
      (DATE '2024-02-29' + i::INTEGER) AS day,
      (TIMESTAMP '2024-03-01 12:30:00.123456' + to_microseconds(i * 1000001)) AS ts_us,
      (TIMESTAMPTZ '2024-03-01 12:30:00.123456+00' + to_microseconds(i * 7)) AS tstz,
      make_timestamp_ns(1709296200123456789 + i * 1001) AS ts_ns,
      (TIMESTAMP '2024-03-01 12:30:00.123' + to_milliseconds(i))::TIMESTAMP_MS AS ts_ms,
      (TIME '12:30:00.123456' + to_microseconds(i)) AS tm,
      [i, i + 1]::BIGINT[] AS l
    FROM range(${ROWS}) t(i)`

  it.each(['zstd', 'snappy', 'gzip', 'lz4', 'brotli', 'uncompressed'] as const)('DuckDB, %s', async (compression) => {
    const path = ws.file(`duck-${compression}.parquet`)
    await duckdbCopy(DUCK, path, 'parquet', `, COMPRESSION ${compression}, ROW_GROUP_SIZE ${CHUNK}`)
    const { table, rows } = await importFile(path)
    expect(typesOf(table)).toMatchObject({
      id: 'Int64',
      d18: 'Decimal[18e+3]',
      d38: 'Decimal[38e+10]',
      day: 'Date32<DAY>',
      ts_us: 'Timestamp<MICROSECOND>',
      tstz: 'Timestamp<MICROSECOND, UTC>',
      ts_ns: 'Timestamp<NANOSECOND>',
      ts_ms: 'Timestamp<MILLISECOND>',
      tm: 'Time64<MICROSECOND>',
      l: 'List<Int64>',
    })
    const sorted = [...rows].sort((a, b) => (a.i as number) - (b.i as number))
    const day0 = Date.UTC(2024, 1, 29) / 86_400_000
    const us0 = BigInt(Date.UTC(2024, 2, 1, 12, 30, 0)) * 1000n + 123456n
    sorted.forEach((row, n) => {
      const i = BigInt(n)
      expect(row.id).toBe(9007199254740993n + i * 7n)
      expect(row.d18).toBe(n % 9 === 4 ? null : BigInt(Math.round((n * 1234567.891 - 500000) * 1000)))
      const frac = BigInt(`123456789012345678901234${String(n % 10000000000).padStart(10, '0')}`)
      expect(row.d38).toBe(n % 2 === 0 ? frac : -frac)
      expect(row.day).toBe(day0 + n)
      expect(row.ts_us).toBe(us0 + i * 1000001n)
      expect(row.tstz).toBe(us0 + i * 7n)
      expect(row.ts_ns).toBe(1709296200123456789n + i * 1001n)
      expect(row.ts_ms).toBe(us0 / 1000n + i)
      expect(row.tm).toBe((12n * 3600n + 30n * 60n) * 1_000_000n + 123456n + i)
      expect(row.l).toEqual([i, i + 1n])
    })
  })
})

describe('types only apache-arrow writes here: kept, converted, or refused by name', () => {
  it('Float16, Decimal256, LargeUtf8, LargeBinary are kept; Map becomes List<Struct<key, value>>', async () => {
    const entries = new Field('entries', new Struct([new Field('key', new Utf8(), false), new Field('value', new Int32(), true)]), false)
    const schema = new Schema([
      new Field('id', new Int32(), false),
      new Field('h', new Float16(), true),
      new Field('big', new Decimal(4, 60, 256), true),
      new Field('lu', new LargeUtf8(), true),
      new Field('lb', new LargeBinary(), true),
      new Field('m', new Map_(entries), true),
    ])
    const rows = [
      { id: 0, h: 1.5, big: -12345678901234567890123456789012345678901234567890n, lu: 'large ü', lb: new Uint8Array([1, 2, 3]), m: new Map([['a', 1], ['b', null]]) },
      { id: 1, h: null, big: null, lu: null, lb: null, m: null },
    ]
    const children = schema.fields.map((f) => {
      const b = makeBuilder({ type: f.type, nullValues: [null, undefined] })
      for (const r of rows) {
        const v = (r as Record<string, unknown>)[f.name]
        if (f.name === 'big' && typeof v === 'bigint') {
          const words = new Uint32Array(8)
          let u = BigInt.asUintN(256, v)
          for (let w = 0; w < 8; w++, u >>= 32n) words[w] = Number(u & 0xffffffffn)
          b.append(words)
        } else b.append(v)
      }
      return b.finish().flush()
    })
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: rows.length, nullCount: 0, children }))
    const path = ws.file('arrow-js-types.arrow')
    await writeArrow(path, 'file', schema, [batch])
    const preview = await previewImport({ path, fileName: 'arrow-js-types.arrow', client: ws.client, namespace: [] })
    expect(preview.conversions).toEqual([{ column: 'm', from: 'Map<key: Utf8, value: Int32>', to: 'List<Struct<key: Utf8, value: Int32>>' }])
    const { table, rows: back } = await importFile(path)
    expect(typesOf(table)).toMatchObject({ h: 'Float16', big: 'Decimal[60e+4]', lu: 'LargeUtf8', lb: 'LargeBinary', m: 'List<Struct<{key:Utf8, value:Int32}>>' })
    expect((table.schema.fields[2]!.type as Decimal).bitWidth).toBe(256)
    const first = back.find((r) => r.id === 0)!
    expect(first.h).toBe(1.5)
    expect(first.big).toBe(-12345678901234567890123456789012345678901234567890n)
    expect(first.lu).toBe('large ü')
    expect(first.m).toEqual([{ key: 'a', value: 1 }, { key: 'b', value: null }])
    expect(back.find((r) => r.id === 1)).toMatchObject({ h: null, big: null, lu: null, lb: null, m: null })
  })

  it('a column no lossless conversion can store is named with its type', async () => {
    const schema = new Schema([new Field('id', new Int32(), false), new Field('gap', new IntervalDayTime(), true)])
    const b1 = makeBuilder({ type: new Int32() })
    b1.append(1)
    const b2 = makeBuilder({ type: new IntervalDayTime(), nullValues: [null] })
    b2.append(null)
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children: [b1.finish().flush(), b2.finish().flush()] }))
    const path = ws.file('interval.arrow')
    await writeArrow(path, 'file', schema, [batch])
    await expect(openSource(path)).rejects.toMatchObject({ code: 'unsupported', message: 'Lance cannot store column `gap` of type Interval[DayTime]' })
  })
})

describe('CSV dates and timestamps (written by DuckDB)', () => {
  const SELECT = `
    SELECT i::BIGINT AS id,
      (DATE '2024-02-29' + i::INTEGER) AS day,
      (TIMESTAMP '2024-03-01 12:30:00.123456' + to_microseconds(i)) AS at,
      (TIMESTAMPTZ '2024-03-01 12:30:00.5+00' + to_seconds(i)) AS atz,
      'text ' || i AS note
    FROM range(300) t(i)`

  it('infers Date32 and Timestamp (zone-less and UTC), values exact', async () => {
    const path = ws.file('dates.csv')
    await duckdbCopy(SELECT, path, 'csv')
    const { table, rows } = await importFile(path)
    expect(typesOf(table)).toEqual({ id: 'Int64', day: 'Date32<DAY>', at: 'Timestamp<MICROSECOND>', atz: 'Timestamp<MICROSECOND, UTC>', note: 'Utf8' })
    const day0 = Date.UTC(2024, 1, 29) / 86_400_000
    const us0 = BigInt(Date.UTC(2024, 2, 1, 12, 30, 0)) * 1000n
    for (const row of rows) {
      const i = row.id as bigint
      expect(row.day).toBe(day0 + Number(i))
      expect(row.at).toBe(us0 + 123456n + i)
      expect(row.atz).toBe(us0 + 500000n + i * 1_000_000n)
    }
  })

  it('keeps them as text when asked', async () => {
    const path = ws.file('dates-text.csv')
    await duckdbCopy(SELECT, path, 'csv')
    const { table, rows } = await importFile(path, { datesAsText: true })
    expect(typesOf(table)).toEqual({ id: 'Int64', day: 'Utf8', at: 'Utf8', atz: 'Utf8', note: 'Utf8' })
    expect(rows.find((r) => r.id === 0n)?.day).toBe('2024-02-29')
  })
})

describe('BinaryView (polars writes no binary column from JS: its Utf8View column relabelled)', () => {
  /** Set the IPC type id of column `index` to `typeId` in the schema message and in the footer. */
  function relabel(bytes: Uint8Array, index: number, typeId: number): void {
    const patch = (at: number, root: (bb: InstanceType<typeof flatbuffers.ByteBuffer>) => { fields(i: number): { bb: { __offset(p: number, o: number): number } | null; bb_pos: number } | null } | null) => {
      const bb = new flatbuffers.ByteBuffer(bytes.subarray(at))
      const field = root(bb)!.fields(index)!
      const slot = field.bb!.__offset(field.bb_pos, 8) // Field.type_type
      expect(bytes[at + field.bb_pos + slot]).toBe(24)
      bytes[at + field.bb_pos + slot] = typeId
    }
    patch(16, (bb) => fbMessage.Message.getRootAsMessage(bb).header(new fbMessage.Schema()))
    const footerLength = new DataView(bytes.buffer, bytes.byteOffset).getInt32(bytes.length - 10, true)
    patch(bytes.length - 10 - footerLength, (bb) => fbFile.Footer.getRootAsFooter(bb).schema())
  }

  it.each(['uncompressed', 'zstd'] as const)('%s: imports as Binary with the same bytes', async (compression) => {
    const path = ws.file(`binary-view-${compression}.arrow`)
    writePolarsIpc(polarsFrame(ROWS, CHUNK, false).select('i', 's'), path, 'file', compression)
    const bytes = new Uint8Array(await readFile(path))
    relabel(bytes, 1, 23)
    await writeFile(path, bytes)
    const preview = await previewImport({ path, fileName: 'bv.arrow', client: ws.client, namespace: [] })
    expect(preview.conversions).toEqual([{ column: 's', from: 'BinaryView', to: 'Binary' }])
    const { table, rows } = await importFile(path)
    expect(typesOf(table)).toEqual({ i: 'Int32', s: 'Binary' })
    const sorted = [...rows].sort((a, b) => (a.i as number) - (b.i as number))
    sorted.forEach((row, i) => {
      const s = polarsRow(i).s
      expect(row.s === null ? null : new TextDecoder().decode(row.s as Uint8Array)).toBe(s)
    })
  })
})
