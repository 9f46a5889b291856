import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, writeSource } from '../../../src/core/import'
import { KITCHEN_SCHEMA, dictionaryBatches, kitchenRow, kitchenTable, writeArrow } from '../../fixtures/import/arrow'
import { DUCK_SELECT, duckdbCopy } from '../../fixtures/import/duckdb'
import { byId, plain, readBack, workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

const ROWS = 9_500
/** Small chunks so every import here spans several chunks and appends. */
const limits = { maxRows: 4_000, maxBytes: 64 * 1024 * 1024 }

function expectedKitchen(vectorEmb: boolean): Record<string, unknown>[] {
  return Array.from({ length: ROWS }, (_, i) => {
    const row = plain(kitchenRow(i)) as Record<string, unknown>
    row.vec = (row.vec as number[]).map(Math.fround)
    if (vectorEmb && row.emb) row.emb = (row.emb as number[]).map(Math.fround)
    return row
  })
}

async function importFile(path: string, name: string, vectorColumns?: string[]) {
  const source = await openSource(path)
  const result = await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create', limits, vectorColumns })
  return { source, result }
}

describe('apache-arrow fixtures round-trip through a real dir catalog', () => {
  it.each(['file', 'stream'] as const)('Arrow IPC %s: int64 > 2^53, nulls, nested types, several batches', async (format) => {
    const path = ws.file(`kitchen.${format === 'file' ? 'arrow' : 'arrows'}`)
    await writeArrow(path, format, KITCHEN_SCHEMA, kitchenTable(ROWS, 3_000).batches)
    const { source, result } = await importFile(path, `kitchen_${format}`, [])
    expect(source.format).toBe(format === 'file' ? 'arrow-file' : 'arrow-stream')
    expect(source.rowCount).toBe(format === 'file' ? ROWS : null)
    expect(result.rowCount).toBe(ROWS)
    const back = await readBack(ws.client, { namespace: [], name: `kitchen_${format}` })
    expect(back.table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(
      KITCHEN_SCHEMA.fields.map((f) => `${f.name}: ${String(f.type)}`),
    )
    expect(byId(back.rows)).toEqual(expectedKitchen(false))
  })

  it('turns an accepted list-of-float column into FixedSizeList<Float32>[d]', async () => {
    const path = ws.file('kitchen-vec.arrow')
    await writeArrow(path, 'file', KITCHEN_SCHEMA, kitchenTable(ROWS, 3_000).batches)
    await importFile(path, 'kitchen_vec', ['emb'])
    const back = await readBack(ws.client, { namespace: [], name: 'kitchen_vec' })
    expect(String(back.table.schema.fields.find((f) => f.name === 'emb')!.type)).toBe('FixedSizeList[3]<Float32>')
    expect(byId(back.rows)).toEqual(expectedKitchen(true))
  })

  it('decodes per-batch dictionaries (which the Arrow file format used by LanceDB cannot carry)', async () => {
    const path = ws.file('dict.arrows')
    const { schema, batches } = dictionaryBatches(500, 120)
    await writeArrow(path, 'stream', schema, batches)
    await importFile(path, 'dict')
    const back = await readBack(ws.client, { namespace: [], name: 'dict' })
    expect(String(back.table.schema.fields[1]!.type)).toBe('Utf8')
    const expected = Array.from({ length: 500 }, (_, i) => {
      const start = Math.floor(i / 120) * 120
      return { id: String(i), kind: i % 5 === 0 ? null : `kind-${(i + start) % 3}` }
    })
    expect(byId(back.rows)).toEqual(expected)
  })
})

describe('DuckDB fixtures (an independent producer) round-trip', () => {
  const N = 12_345
  const duckRow = (i: number, list: 'vector' | 'text') => ({
    id: (9007199254740993n + BigInt(i) * 7n).toString(),
    name: i % 7 === 3 ? null : `name ${i}, "q"`,
    score: i % 5 === 4 ? null : i * 0.5,
    even: i % 2 === 0,
    emb: list === 'vector' ? [i * 0.25, i * 0.5, i * 0.75].map(Math.fround) : `[${[i * 0.25, i * 0.5, i * 0.75].map(duckNumber).join(', ')}]`,
  })

  it('Parquet (row groups, metadata row count)', async () => {
    const path = ws.file('duck.parquet')
    await duckdbCopy(DUCK_SELECT(N), path, 'parquet', ', ROW_GROUP_SIZE 5000')
    const { source } = await importFile(path, 'duck_parquet')
    expect(source.rowCount).toBe(N)
    const back = await readBack(ws.client, { namespace: [], name: 'duck_parquet' })
    expect(back.table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual([
      'id: Int64',
      'name: Utf8',
      'score: Float64',
      'even: Bool',
      'emb: FixedSizeList[3]<Float32>',
    ])
    expect(byId(back.rows)).toEqual(Array.from({ length: N }, (_, i) => duckRow(i, 'vector')))
  })

  it.each(['gzip', 'brotli', 'lz4', 'zstd', 'uncompressed'])('Parquet compressed with %s', async (codec) => {
    const path = ws.file(`duck-${codec}.parquet`)
    await duckdbCopy(DUCK_SELECT(700), path, 'parquet', `, COMPRESSION ${codec}, ROW_GROUP_SIZE 300`)
    const name = `duck_${codec}`
    await importFile(path, name)
    const back = await readBack(ws.client, { namespace: [], name })
    expect(byId(back.rows)).toEqual(Array.from({ length: 700 }, (_, i) => duckRow(i, 'vector')))
  })

  it('Parquet nested and logical types (struct, list of struct, date, timestamps, decimal, small and unsigned ints, blob, uuid)', async () => {
    const path = ws.file('nested.parquet')
    await duckdbCopy(
      `SELECT i::INTEGER AS i, {'a': i, 'b': 'x' || i} AS s, ['p', NULL, 'q'] AS l, [{'k': i}] AS ls, DATE '2024-01-02' + i::INTEGER AS d,
        TIMESTAMP '2024-01-02 03:04:05.123' AS ts, 1.25::DECIMAL(10,2) AS dec, i::TINYINT AS t, (18446744073709551615 - i)::UBIGINT AS u,
        'blob'::BLOB AS bl, '1c038bff-b28d-4060-98d3-9d01f2722f53'::UUID AS id FROM range(3) t(i)`,
      path,
      'parquet',
    )
    await importFile(path, 'nested')
    const back = await readBack(ws.client, { namespace: [], name: 'nested' })
    expect(back.table.schema.fields.map((f) => String(f.type))).toEqual([
      'Int32', 'Struct<{a:Int64, b:Utf8}>', 'List<Utf8>', 'List<Struct<{k:Int64}>>', 'Date32<DAY>', 'Timestamp<MICROSECOND>',
      'Decimal[10e+2]', 'Int8', 'Uint64', 'Binary', 'Utf8',
    ])
    const row1 = back.rows.find((r) => r.i === 1)
    expect(row1).toEqual({
      i: 1, s: { a: '1', b: 'x1' }, l: ['p', null, 'q'], ls: [{ k: '1' }], d: Date.UTC(2024, 0, 3), ts: Date.UTC(2024, 0, 2, 3, 4, 5, 123),
      // 1.25 as DECIMAL(10,2): the unscaled 125 in Decimal128's little-endian 32-bit words, exact.
      dec: [125, 0, 0, 0], t: 1, u: '18446744073709551614', bl: [98, 108, 111, 98], id: '1c038bff-b28d-4060-98d3-9d01f2722f53',
    })
  })

  it('refuses a Parquet MAP column before writing', async () => {
    const path = ws.file('map.parquet')
    await duckdbCopy(`SELECT 1 AS id, MAP {'a': 1} AS m`, path, 'parquet')
    await expect(importFile(path, 'map')).rejects.toMatchObject({ code: 'unsupported', message: expect.stringMatching(/column "m" is a Parquet MAP/) })
  })

  it('JSON lines (exact int64 past 2^53, lists as vectors)', async () => {
    const path = ws.file('duck.jsonl')
    await duckdbCopy(DUCK_SELECT(N), path, 'json')
    await importFile(path, 'duck_json')
    const back = await readBack(ws.client, { namespace: [], name: 'duck_json' })
    expect(String(back.table.schema.fields[0]!.type)).toBe('Int64')
    expect(byId(back.rows)).toEqual(Array.from({ length: N }, (_, i) => duckRow(i, 'vector')))
  })

  it('CSV (header, quotes, empty cells as null, inferred types)', async () => {
    const path = ws.file('duck.csv')
    await duckdbCopy(DUCK_SELECT(N), path, 'csv')
    await importFile(path, 'duck_csv')
    const back = await readBack(ws.client, { namespace: [], name: 'duck_csv' })
    expect(back.table.schema.fields.map((f) => String(f.type))).toEqual(['Int64', 'Utf8', 'Float64', 'Bool', 'Utf8'])
    expect(byId(back.rows)).toEqual(Array.from({ length: N }, (_, i) => duckRow(i, 'text')))
  })
})

/** How DuckDB prints a DOUBLE inside a list cast to text: shortest round-trip form, `.0` dropped. */
function duckNumber(x: number): string {
  return Number.isInteger(x) ? `${x}.0` : String(x)
}
