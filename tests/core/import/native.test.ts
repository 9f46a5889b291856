/**
 * The native readers (polars parsing CSV and decoding Parquet on its own threads) against the JS readers on the
 * same files from independent producers (DuckDB, polars, by hand): the same column types and the same values, the
 * same errors (with their lines) for what the type rules refuse, and nothing left in the catalog when a file fails
 * after rows were written.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { Table, tableFromIPC, tableToIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, writeSource } from '../../../src/core/import'
import { nativeDeclined, nativeRows } from '../../../src/core/import/native/polars'
import { duckdbCopy } from '../../fixtures/import/duckdb'
import { pl } from '../../fixtures/import/polars'
import { exactAt, readExact, typesOf } from './exact'
import { stagedLeftovers, tableNames, workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  delete process.env.LCB_IMPORT_NATIVE
  await ws.cleanup()
})

interface Read {
  types: Record<string, string>
  rows: Record<string, unknown>[]
}

/** Every row of the file as the import reads it, values exact; `native` false reads with the JS readers only. */
async function read(path: string, native: boolean, inferRows?: number): Promise<Read> {
  process.env.LCB_IMPORT_NATIVE = native ? '1' : '0'
  const source = await openSource(path, inferRows ? { inferRows } : {})
  try {
    const rows: Record<string, unknown>[] = []
    for await (const sliced of source.batches()) {
      // Through IPC: a sliced batch's buffers start at its first row (exactAt reads unsliced data).
      const batch = tableFromIPC(tableToIPC(new Table([sliced]))).batches[0]!
      for (let r = 0; r < batch.numRows; r++) {
        rows.push(Object.fromEntries(batch.schema.fields.map((f, c) => [f.name, exactAt(batch.data.children[c]!, r)])))
      }
    }
    return { types: Object.fromEntries(source.schema.fields.map((f) => [f.name, String(f.type)])), rows }
  } finally {
    await source.close()
    delete process.env.LCB_IMPORT_NATIVE
  }
}

/** The error (code, message, hint) reading the file ends in, or null. */
async function failure(path: string, native: boolean, inferRows: number): Promise<unknown> {
  try {
    await read(path, native, inferRows)
    return null
  } catch (error) {
    const e = error as { code?: string; message?: string; hint?: string }
    return { code: e.code, message: e.message, hint: e.hint }
  }
}

const ROWS = 20_000

/** Ids past 2^53, zip codes with leading zeros (text), nulls, names with `$`/spaces/non-ASCII, mixed text, dates, timestamps. */
const FLAT_CSV = `
  SELECT
    (9007199254740993 + i * 7)::BIGINT AS id,
    lpad((i * 37 % 99999)::VARCHAR, 5, '0') AS zip,
    CASE WHEN i % 5 = 4 THEN NULL ELSE i * 0.5 - 300 END::DOUBLE AS "amount $",
    CASE WHEN i % 7 = 3 THEN NULL ELSE 'näme ' || i END AS "full name",
    CASE WHEN i % 3 = 0 THEN 'n/a' ELSE (i * 3)::VARCHAR END AS mixed,
    CASE WHEN i % 11 = 1 THEN NULL ELSE (i % 2 = 0) END AS flag,
    DATE '1999-12-30' + i::INTEGER AS day,
    TIMESTAMP '2024-03-01 12:30:00.123456' + to_microseconds(i * 1000003) AS "at",
    i AS "last one"
  FROM range(${ROWS}) t(i)`

describe('CSV: polars reads it as the JS reader does', () => {
  it('DuckDB-written: same types and values, every row read natively', async () => {
    const path = ws.file('flat.csv')
    await duckdbCopy(FLAT_CSV, path, 'csv')
    const before = nativeRows.csv
    const native = await read(path, true, 1000)
    expect(nativeRows.csv - before).toBe(ROWS)
    const js = await read(path, false, 1000)
    expect(native.types).toEqual({
      id: 'Int64',
      zip: 'Utf8',
      'amount $': 'Float64',
      'full name': 'Utf8',
      mixed: 'Utf8',
      flag: 'Bool',
      day: 'Date32<DAY>',
      at: 'Timestamp<MICROSECOND>',
      'last one': 'Int64',
    })
    expect(native.types).toEqual(js.types)
    expect(native.rows).toHaveLength(ROWS)
    expect(native.rows).toEqual(js.rows)
    expect(native.rows[3]).toMatchObject({ id: 9007199254741014n, zip: '00111', 'full name': null, mixed: 'n/a', flag: false })
  })

  it('polars-written: same types and values, every row read natively', async () => {
    const path = ws.file('polars.csv')
    const n = 15_000
    // (nodejs-polars nulls BigInts given together with a dtype; without one they become Int64.)
    const df = pl.DataFrame({
      id: pl.Series('id', Array.from({ length: n }, (_, i) => 9007199254740993n + BigInt(i) * 3n)),
      s: Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : `s ${i} ünï`)),
      f: Array.from({ length: n }, (_, i) => (i % 6 === 0 ? null : i / 8)),
      b: Array.from({ length: n }, (_, i) => i % 3 === 0),
      k: pl.Series('k', Array.from({ length: n }, (_, i) => i), pl.Int64),
    })
    df.writeCSV(path)
    const before = nativeRows.csv
    const native = await read(path, true, 500)
    expect(nativeRows.csv - before).toBe(n)
    const js = await read(path, false, 500)
    expect(native.types).toEqual({ id: 'Int64', s: 'Utf8', f: 'Float64', b: 'Bool', k: 'Int64' })
    expect(native.rows).toEqual(js.rows)
  })

  /** 5,000 rows `i,2i,text i,i`, with `line` replacing data row `at` (1-based) — after the 100 rows inferred from. */
  async function withLine(name: string, line: string, at = 3000): Promise<string> {
    const lines = ['n,double,label,tail']
    for (let i = 1; i <= 5000; i++) lines.push(i === at ? line : `${i},${i * 2},text ${i},${i}`)
    const path = ws.file(name)
    await writeFile(path, `${lines.join('\n')}\n`)
    return path
  }

  it.each([
    ['leading zeros in a number column', '007,14,text 7,7'],
    ['an integer beyond Int64', '99999999999999999999,1,x,1'],
    ['text in a number column', 'x,1,x,1'],
    ['a number with a space', ' 5,1,x,1'],
    ['a row with too few fields', '5,10,text'],
    ['a row with too many fields', '5,10,text,5,extra'],
  ])('%s after the sample: the same error at the same line', async (_what, line) => {
    const path = await withLine(`late-${line.length}-${line.charCodeAt(0)}.csv`, line)
    const native = await failure(path, true, 100)
    expect(native).not.toBeNull()
    expect(native).toEqual(await failure(path, false, 100))
    expect((native as { message: string }).message).toMatch(/line 3001/)
  })

  it.each([
    ['an empty line (skipped)', ''],
    ['quoted text with a quote and a newline', '5,10,"say ""hi""\nthere",5'],
    ['quoted empty text (null)', '5,10,"",5'],
    ['a float written with an exponent in an integer-looking text column', '5,10,1e3,5'],
    ['an empty last field (null)', '5,10,text,'],
  ])('%s after the sample: the same rows (the JS reader takes over where polars is unsure)', async (_what, line) => {
    const path = await withLine(`odd-${line.length}-${line.charCodeAt(line.length - 1)}.csv`, line)
    const before = nativeRows.csv
    const native = await read(path, true, 100)
    // polars read the rows before the odd one at least.
    expect(nativeRows.csv - before).toBeGreaterThanOrEqual(2999)
    const js = await read(path, false, 100)
    expect(native.types).toEqual(js.types)
    expect(native.rows).toEqual(js.rows)
  })

  it('a failure after rows were committed leaves the catalog as it was', async () => {
    const path = await withLine('late-zero-import.csv', '007,14,text 7,7', 4500)
    const source = await openSource(path, { inferRows: 100 })
    await expect(writeSource(ws.client, { namespace: [], name: 'never' }, source, { mode: 'create', limits: { maxRows: 1000, maxBytes: 64 * 1024 * 1024 } })).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('line 4501'),
    })
    expect(await tableNames(ws.client)).not.toContain('never')
    expect(await stagedLeftovers(ws.client)).toEqual([])
  })

  it('stopping after the first batch ends polars and leaves no pipe behind', async () => {
    const path = ws.file('stop.csv')
    await duckdbCopy(FLAT_CSV, path, 'csv')
    const temp = ws.file('tmp-stop')
    await mkdir(temp)
    const saved = process.env.TMPDIR
    process.env.TMPDIR = temp
    try {
      process.env.LCB_IMPORT_NATIVE = '1'
      const source = await openSource(path, { inferRows: 100 })
      const batches = source.batches()
      const before = nativeRows.csv
      const first = await batches.next()
      expect(first.done).toBe(false)
      expect(nativeRows.csv - before).toBeGreaterThan(0)
      expect(await readdir(temp)).toHaveLength(1)
      await batches.return(undefined)
      await source.close()
      expect(await readdir(temp)).toEqual([])
      // polars is free for the next file.
      const again = await read(path, true, 100)
      expect(again.rows).toHaveLength(ROWS)
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
      delete process.env.LCB_IMPORT_NATIVE
    }
  })

  it('imports into Lance with the same types and values as the JS reader', async () => {
    const path = ws.file('flat-import.csv')
    await duckdbCopy(FLAT_CSV, path, 'csv')
    process.env.LCB_IMPORT_NATIVE = '1'
    await writeSource(ws.client, { namespace: [], name: 'csv_native' }, await openSource(path), { mode: 'create' })
    process.env.LCB_IMPORT_NATIVE = '0'
    await writeSource(ws.client, { namespace: [], name: 'csv_js' }, await openSource(path), { mode: 'create' })
    delete process.env.LCB_IMPORT_NATIVE
    const native = await readExact(ws.client, { namespace: [], name: 'csv_native' })
    const js = await readExact(ws.client, { namespace: [], name: 'csv_js' })
    expect(typesOf(native.table)).toEqual(typesOf(js.table))
    expect(native.rows).toHaveLength(ROWS)
    expect(native.rows).toEqual(js.rows)
  })
})

describe('Parquet: polars decodes it as the JS readers do', () => {
  it.each(['snappy', 'zstd', 'uncompressed'])('DuckDB-written, %s: same types and values, read natively', async (compression) => {
    const path = ws.file(`flat-${compression}.parquet`)
    await duckdbCopy(FLAT_CSV.replace('AS "at",', 'AS "at", (i % 100)::INTEGER AS small, (i * 1000)::UINTEGER AS u,'), path, 'parquet', `, COMPRESSION ${compression}, ROW_GROUP_SIZE 3000`)
    const before = nativeRows.parquet
    const native = await read(path, true)
    expect(nativeRows.parquet - before, `polars declined: ${nativeDeclined.join(' | ')}`).toBe(ROWS)
    const js = await read(path, false)
    expect(native.types).toEqual(js.types)
    expect(native.types).toMatchObject({ id: 'Int64', small: 'Int32', u: 'Uint32', day: 'Date32<DAY>', at: 'Timestamp<MICROSECOND>', zip: 'Utf8' })
    expect(native.rows).toEqual(js.rows)
  })

  it('polars-written: same types and values, read natively', async () => {
    const path = ws.file('polars.parquet')
    const n = 12_000
    pl.DataFrame({
      id: pl.Series('id', Array.from({ length: n }, (_, i) => 9007199254740993n + BigInt(i))),
      s: Array.from({ length: n }, (_, i) => (i % 4 === 0 ? null : `s ${i} ünï`)),
      f: Array.from({ length: n }, (_, i) => i / 8),
      b: Array.from({ length: n }, (_, i) => i % 3 === 0),
    }).writeParquet(path, { compression: 'zstd' })
    const before = nativeRows.parquet
    const native = await read(path, true)
    expect(nativeRows.parquet - before, `polars declined: ${nativeDeclined.join(' | ')}`).toBe(n)
    const js = await read(path, false)
    expect(native.types).toEqual(js.types)
    expect(native.rows).toEqual(js.rows)
  })
})
