/**
 * The shapes of data files people have, written by independent producers (DuckDB, polars, by hand), each
 * imported and checked against DuckDB reading the same file: the same column types (or a documented better
 * choice) and the same values.
 */
import { writeFile, readFile } from 'node:fs/promises'
import { gzipSync } from 'node:zlib'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, previewImport, writeSource } from '../../../src/core/import'
import { duckdbCopy } from '../../fixtures/import/duckdb'
import { pl } from '../../fixtures/import/polars'
import { readExact, typesOf } from './exact'
import { workspace, type Workspace } from './helpers'

let ws: Workspace
let duck: DuckDBInstance
let db: DuckDBConnection
beforeAll(async () => {
  ws = await workspace()
  duck = await DuckDBInstance.create(':memory:')
  db = await duck.connect()
})
afterAll(async () => {
  db.closeSync()
  duck.closeSync()
  await ws.cleanup()
})

const ROWS = 3000

/** Ids past 2^53, zip codes with leading zeros, nulls, names with `$`/spaces/non-ASCII, quotes, commas, newlines, mixed text. */
const FLAT = `
  SELECT
    (9007199254740993 + i * 7)::BIGINT AS id,
    lpad((i * 37 % 99999)::VARCHAR, 5, '0') AS zip,
    CASE WHEN i % 5 = 4 THEN NULL ELSE i * 0.5 END::DOUBLE AS "amount $",
    CASE WHEN i % 7 = 3 THEN NULL ELSE 'näme ' || i || ', "q"' || CASE WHEN i % 11 = 0 THEN chr(10) || 'line 2' ELSE '' END END AS "full name",
    CASE WHEN i % 3 = 0 THEN 'n/a' ELSE (i * 3)::VARCHAR END AS mixed,
    (i % 2 = 0) AS flag
  FROM range(${ROWS}) t(i)`

const NESTED = `
  SELECT *, {'a': i, 'b': 'x' || i} AS s, [i, i + 1] AS l
  FROM (${FLAT.replace('FROM range', ', i FROM range')})`

let tables = 0
async function importFile(path: string, columnTypes?: Record<string, 'text' | 'integer' | 'float'>) {
  const name = `t${++tables}`
  const source = await openSource(path, { columnTypes })
  const info = { format: source.format, readAs: source.readAs ?? [], columns: source.columns ?? [] }
  await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create' })
  return { ...info, ...(await readExact(ws.client, { namespace: [], name })) }
}

/** DuckDB's own reading of a file: its sniffed types and its rows. */
async function duckRead(fn: string): Promise<{ types: Record<string, string>; rows: Record<string, unknown>[] }> {
  const described = await db.runAndReadAll(`DESCRIBE SELECT * FROM ${fn}`)
  const types = Object.fromEntries(described.getRowObjectsJson().map((r) => [String(r.column_name), String(r.column_type)]))
  const rows = (await db.runAndReadAll(`SELECT * FROM ${fn}`)).getRowObjectsJson() as Record<string, unknown>[]
  return { types, rows }
}

/** Arrow type (as apache-arrow prints it) → the DuckDB type family it corresponds to. */
function family(arrow: string): string {
  if (arrow === 'Int64') return 'BIGINT'
  if (arrow === 'Float64') return 'DOUBLE'
  if (arrow === 'Utf8') return 'VARCHAR'
  if (arrow === 'Bool') return 'BOOLEAN'
  if (arrow.startsWith('List<')) return 'LIST'
  if (arrow.startsWith('Struct<')) return 'STRUCT'
  return arrow
}
function duckFamily(type: string): string {
  if (type.endsWith('[]')) return 'LIST'
  if (type.startsWith('STRUCT')) return 'STRUCT'
  return type
}

/** Values compared as text (DuckDB's JSON gives BIGINT as text, ours are bigint): nulls, nesting and digits must agree. */
function norm(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (Array.isArray(value)) return value.map(norm)
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, norm(v)]))
  return String(value)
}
const byIdText = (rows: Record<string, unknown>[]) => [...rows].map((r) => norm(r) as Record<string, unknown>).sort((a, b) => (BigInt(String(a.id)) < BigInt(String(b.id)) ? -1 : 1))

async function expectLikeDuckDB(path: string, fn: string) {
  const ours = await importFile(path)
  const ref = await duckRead(fn)
  const our = typesOf(ours.table)
  expect(Object.keys(our)).toEqual(Object.keys(ref.types)) // names verbatim, in order
  expect(Object.fromEntries(Object.entries(our).map(([k, t]) => [k, family(t)]))).toEqual(Object.fromEntries(Object.entries(ref.types).map(([k, t]) => [k, duckFamily(t)])))
  expect(ours.rows).toHaveLength(ref.rows.length)
  expect(byIdText(ours.rows)).toEqual(byIdText(ref.rows))
  return ours
}

const lit = (path: string) => `'${path.replace(/'/g, "''")}'`

describe('CSV dialects written by DuckDB import as DuckDB reads them', () => {
  it.each([
    ['comma', 'flat.csv', ''],
    ['semicolon', 'flat-semi.csv', ", DELIMITER ';'"],
    ['tab', 'flat.tsv', ", DELIMITER '\t'"],
    ['pipe', 'flat-pipe.csv', ", DELIMITER '|'"],
    ['gzip', 'flat.csv.gz', ', COMPRESSION gzip'],
    ['zstd', 'flat.csv.zst', ', COMPRESSION zstd'],
  ])('%s', async (_label, file, options) => {
    const path = ws.file(file)
    await duckdbCopy(FLAT, path, 'csv', options)
    const ours = await expectLikeDuckDB(path, `read_csv(${lit(path)})`)
    expect(typesOf(ours.table)).toEqual({ id: 'Int64', zip: 'Utf8', 'amount $': 'Float64', 'full name': 'Utf8', mixed: 'Utf8', flag: 'Bool' })
    const zip = ours.columns.find((c) => c.name === 'zip')!
    expect(zip.reason).toBe('text: values with leading zeros, e.g. 00000')
    expect(ours.columns.find((c) => c.name === 'mixed')!.reason).toMatch(/^text: numbers mixed with text, e\.g\. 3 and n\/a$/)
    expect(ours.columns.find((c) => c.name === 'id')!.reason).toBe('Int64: whole numbers kept exact beyond 2^53, e.g. 9007199254740993')
    const amount = ours.columns.find((c) => c.name === 'amount $')!
    expect(amount.nulls).toBe(ROWS / 5)
    expect(amount.sampledRows).toBe(ROWS)
    expect(ours.readAs.join(' | ')).toMatch(file.endsWith('.gz') ? /gzip-compressed/ : file.endsWith('.zst') ? /zstd-compressed/ : /delimiter/)
  })

  it('CRLF line ends and a UTF-8 BOM', async () => {
    const plain = ws.file('plain-for-crlf.csv')
    await duckdbCopy(FLAT, plain, 'csv')
    const path = ws.file('crlf-bom.csv')
    const text = (await readFile(plain, 'utf8')).replace(/\n/g, '\r\n')
    await writeFile(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]))
    const ours = await expectLikeDuckDB(path, `read_csv(${lit(path)})`)
    expect(Object.keys(typesOf(ours.table))[0]).toBe('id') // the BOM is not part of the first name
  })

  it('a hand-written Latin-1 (Windows-1252) CSV is detected and converted', async () => {
    const path = ws.file('latin1.csv')
    const lines = ['id;ville;prix €', '1;Besançon;12,5', '2;Évian-les-Bains;3', '3;Köln;', '4;naïve "café";7']
    // '€' is not in Latin-1: write it as Windows-1252's 0x80.
    const bytes = Buffer.from(lines.join('\r\n') + '\r\n', 'latin1')
    bytes[bytes.indexOf(Buffer.from('prix ')) + 5] = 0x80
    await writeFile(path, bytes)
    const ours = await importFile(path)
    expect(ours.readAs).toContain('text encoding: Windows-1252 (Latin-1), converted to UTF-8')
    expect(typesOf(ours.table)).toEqual({ id: 'Int64', ville: 'Utf8', 'prix €': 'Utf8' })
    expect(ours.rows.map((r) => r.ville)).toEqual(['Besançon', 'Évian-les-Bains', 'Köln', 'naïve "café"'])
    // DuckDB's latin-1 is ISO-8859-1 proper, which has no '€' (0x80): its copy of the file says 'EUR'.
    const isoPath = ws.file('latin1-iso.csv')
    await writeFile(isoPath, Buffer.concat([Buffer.from(lines[0]!.replace('€', 'EUR')), bytes.subarray(bytes.indexOf(0x0d))]))
    const ref = await duckRead(`read_csv(${lit(isoPath)}, encoding = 'latin-1')`)
    expect(ref.rows.map((r) => r.ville)).toEqual(['Besançon', 'Évian-les-Bains', 'Köln', 'naïve "café"'])
  })
})

describe('JSON shapes written by DuckDB import as DuckDB reads them', () => {
  it.each([
    ['JSON lines', 'nested.jsonl', ''],
    ['an array of objects', 'nested.json', ', ARRAY true'],
    ['JSON lines, gzip', 'nested.jsonl.gz', ', COMPRESSION gzip'],
    ['an array, zstd', 'nested.json.zst', ', ARRAY true, COMPRESSION zstd'],
  ])('%s', async (_label, file, options) => {
    const path = ws.file(file)
    await duckdbCopy(NESTED, path, 'json', options)
    const ours = await expectLikeDuckDB(path, `read_json_auto(${lit(path)})`)
    expect(typesOf(ours.table)).toMatchObject({ id: 'Int64', zip: 'Utf8', 'amount $': 'Float64', flag: 'Bool', l: 'List<Int64>' })
    expect(String(ours.table.schema.fields.find((f) => f.name === 's')!.type)).toMatch(/^Struct<\{a:Int64, b:Utf8\}>$/)
    if (file.includes('.json') && options.includes('ARRAY')) {
      expect(ours.format).toBe('json')
      expect(ours.readAs).toContain('rows: the elements of the top-level array')
    }
  })

  it('an object holding the rows under a key ({"data": [...]}) — the key is said', async () => {
    const path = ws.file('wrapped.json')
    // DuckDB writes one object: {"data": [ {...}, ... ], "count": 3000}
    await duckdbCopy(`SELECT list(t ORDER BY t.id) AS data, count(*) AS count FROM (${FLAT}) t`, path, 'json')
    const ours = await importFile(path)
    expect(ours.format).toBe('json')
    expect(ours.readAs).toContain('rows: the array under the key "data"')
    // DuckDB reads the wrapper as one row; the records are what the file holds (a documented better choice).
    const ref = await duckRead(`(SELECT unnest(data, recursive := true) FROM read_json_auto(${lit(path)}))`)
    expect(byIdText(ours.rows)).toEqual(byIdText(ref.rows))
    expect(typesOf(ours.table)).toMatchObject({ id: 'Int64', zip: 'Utf8', 'amount $': 'Float64', flag: 'Bool' })
  })

  it('a pretty-printed array and numbers beyond Int64 (kept as text: a double would round them)', async () => {
    const path = ws.file('pretty.json')
    const records = [
      { id: 1, big: '123456789012345678901234567890', name: 'a' },
      { id: 2, big: '-5', name: null },
    ]
    await writeFile(path, `[\n${records.map((r) => `  {\n    "id": ${r.id},\n    "big": ${r.big},\n    "name": ${JSON.stringify(r.name)}\n  }`).join(',\n')}\n]\n`)
    const ours = await importFile(path)
    expect(typesOf(ours.table)).toEqual({ id: 'Int64', big: 'Utf8', name: 'Utf8' })
    expect(ours.rows.map((r) => r.big)).toEqual(['123456789012345678901234567890', '-5'])
    expect(ours.columns.find((c) => c.name === 'big')!.reason).toBe('text: whole numbers beyond Int64, e.g. 123456789012345678901234…')
    expect(ours.columns.find((c) => c.name === 'name')!.nulls).toBe(1)
  })
})

describe('files written by polars', () => {
  const frame = () =>
    pl.DataFrame({
      id: pl.Series('id', Array.from({ length: 500 }, (_, i) => i), pl.Int64),
      zip: Array.from({ length: 500 }, (_, i) => String(i * 13).padStart(5, '0')),
      'price €': Array.from({ length: 500 }, (_, i) => (i % 4 === 0 ? null : i / 4)),
      'label x': Array.from({ length: 500 }, (_, i) => (i % 6 === 0 ? null : `l${i}; "x"\n2`)),
    })

  it.each([
    ['TSV', 'polars.tsv', (path: string) => frame().writeCSV(path, { separator: '\t' })],
    ['CSV with ;', 'polars.csv', (path: string) => frame().writeCSV(path, { separator: ';' })],
    ['JSON array', 'polars.json', (path: string) => frame().writeJSON(path, { format: 'json' })],
    ['JSON lines', 'polars.ndjson', (path: string) => frame().writeJSON(path, { format: 'lines' })],
  ])('%s', async (_label, file, write) => {
    const path = ws.file(file)
    write(path)
    const fn = file.endsWith('json') ? `read_json_auto(${lit(path)})` : `read_csv(${lit(path)})`
    const ours = await expectLikeDuckDB(path, fn)
    expect(typesOf(ours.table)).toEqual({ id: 'Int64', zip: 'Utf8', 'price €': 'Float64', 'label x': 'Utf8' })
  })
})

describe('column types changed before import', () => {
  it('a zip column imported as integer on request, and an id column as text', async () => {
    const path = ws.file('zips.csv')
    await writeFile(path, 'zip,id\n00501,1\n02134,2\n')
    const ours = await importFile(path, { zip: 'integer', id: 'text' })
    expect(typesOf(ours.table)).toEqual({ zip: 'Int64', id: 'Utf8' })
    expect(ours.rows).toEqual([
      { zip: 501n, id: '1' },
      { zip: 2134n, id: '2' },
    ])
    const zip = ours.columns.find((c) => c.name === 'zip')!
    expect(zip).toMatchObject({ choice: 'integer', inferred: 'text' })
  })

  it('a value that does not fit the chosen type stops the import with its line, before anything is written', async () => {
    const path = ws.file('bad-choice.csv')
    await writeFile(path, 'a,b\n1,x\n2,y\n')
    const source = await openSource(path, { columnTypes: { b: 'float' } })
    await expect(writeSource(ws.client, { namespace: [], name: 'never' }, source, { mode: 'create' })).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'bad-choice.csv line 2: "x" in column "b" is not a number',
    })
    expect((await ws.client.listTables([], { limit: 100 })).items).not.toContain('never')
  })

  it('previewImport lists columns, reasons and how the file is read', async () => {
    const path = ws.file('zips.csv.gz')
    await writeFile(path, gzipSync('zip;n\n00501;\n10001;2\n'))
    const preview = await previewImport({ path, fileName: 'zips.csv.gz', client: ws.client, namespace: [] })
    expect(preview.suggestedName).toBe('zips')
    expect(preview.readAs).toEqual(['gzip-compressed, decompressed as it is read', 'delimiter: semicolon'])
    expect(preview.columns).toMatchObject([
      { name: 'zip', type: 'Utf8', reason: 'text: values with leading zeros, e.g. 00501', nulls: 0, sampledRows: 2 },
      { name: 'n', type: 'Int64', reason: null, nulls: 1, sampledRows: 2 },
    ])
  })
})

describe('damaged or unknown files: a clear error naming the file and where, before anything is written', () => {
  it.each([
    ['cut.json', '[{"a": 1}, {"a": 2', /cut\.json ends inside an object or array \(line 1\)/],
    ['not-object.json', '[{"a": 1},\n 2]', /not-object\.json line 2: a record is not a JSON object/],
    ['trailing.json', '[{"a": 1}]\n[{"a": 2}]', /trailing\.json line 2: more JSON after the end of the array/],
  ])('%s', async (file, text, message) => {
    const path = ws.file(file)
    await writeFile(path, text)
    const attempt = async () => {
      const source = await openSource(path)
      await writeSource(ws.client, { namespace: [], name: 'never2' }, source, { mode: 'create' })
    }
    await expect(attempt()).rejects.toThrow(message)
    expect((await ws.client.listTables([], { limit: 100 })).items).not.toContain('never2')
  })

  it('a truncated gzip file', async () => {
    const path = ws.file('cut.csv.gz')
    const full = gzipSync(Buffer.from('a,b\n' + '1,2\n'.repeat(50_000)))
    await writeFile(path, full.subarray(0, Math.floor(full.length / 2)))
    const attempt = async () => {
      const source = await openSource(path)
      await writeSource(ws.client, { namespace: [], name: 'never3' }, source, { mode: 'create' })
    }
    await expect(attempt()).rejects.toMatchObject({ code: 'corrupt', message: expect.stringMatching(/^cut\.csv\.gz is not a valid gzip file/) })
  })

  it('UTF-8 broken after the sniffed start names the byte', async () => {
    const path = ws.file('broken-utf8.csv')
    await writeFile(path, Buffer.concat([Buffer.from('a,b\n' + 'x,é\n'.repeat(20_000)), Buffer.from([0x78, 0x2c, 0xe9, 0x0a])]))
    const attempt = async () => {
      const source = await openSource(path)
      await writeSource(ws.client, { namespace: [], name: 'never4' }, source, { mode: 'create' })
    }
    await expect(attempt()).rejects.toThrow(/broken-utf8\.csv is not valid UTF-8 at byte 100,006/)
  })
})

describe('flat Parquet (decoded by arrow-rs in wasm) imports as DuckDB reads it', () => {
  const FLAT_PARQUET = `
    SELECT (9007199254740993 + i * 7)::BIGINT AS id, (i % 100)::INTEGER AS "small int", (i * 0.5)::DOUBLE AS "amount $",
      CASE WHEN i % 7 = 3 THEN NULL ELSE 'näme ' || i END AS "full name", (i % 2 = 0) AS flag,
      DATE '2024-02-29' + i::INTEGER AS day, TIMESTAMP '2024-03-01 12:30:00.123456' + to_microseconds(i) AS "at"
    FROM range(${ROWS}) t(i)`

  it.each(['snappy', 'zstd', 'gzip', 'uncompressed'])('DuckDB, %s, small row groups', async (compression) => {
    const path = ws.file(`flat-${compression}.parquet`)
    await duckdbCopy(FLAT_PARQUET, path, 'parquet', `, COMPRESSION ${compression}, ROW_GROUP_SIZE 1000`)
    const ours = await importFile(path)
    expect(typesOf(ours.table)).toEqual({ id: 'Int64', 'small int': 'Int32', 'amount $': 'Float64', 'full name': 'Utf8', flag: 'Bool', day: 'Date32<DAY>', at: 'Timestamp<MICROSECOND>' })
    const ref = (await db.runAndReadAll(`SELECT id::VARCHAR AS id, "full name", epoch_us("at")::VARCHAR AS "at", (day - DATE '1970-01-01')::INTEGER AS day FROM read_parquet(${lit(path)}) ORDER BY id`)).getRowObjectsJson()
    const sorted = [...ours.rows].sort((a, b) => ((a.id as bigint) < (b.id as bigint) ? -1 : 1))
    expect(sorted.map((r) => ({ id: String(r.id), 'full name': r['full name'], at: String(r.at), day: r.day }))).toEqual(ref)
  })

  it('damaged bytes end in a clear error or a complete table, never a crash (25 mutations)', async () => {
    const path = ws.file('flat-base.parquet')
    await duckdbCopy(FLAT_PARQUET, path, 'parquet', ', ROW_GROUP_SIZE 500')
    const base = await readFile(path)
    let seed = 12345
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff)
    const problems: string[] = []
    for (let n = 0; n < 25; n++) {
      const bytes = Buffer.from(base)
      const at = 4 + Math.floor(rand() * (bytes.length - 12))
      bytes[at] = bytes[at]! ^ (1 + Math.floor(rand() * 255))
      const file = ws.file(`flat-mut-${n}.parquet`)
      await writeFile(file, bytes)
      try {
        const source = await openSource(file)
        await writeSource(ws.client, { namespace: [], name: `mut${n}` }, source, { mode: 'create' })
        const { rowCount } = await ws.client.describeTable({ namespace: [], name: `mut${n}` })
        if (rowCount !== ROWS) problems.push(`mut${n}: ${rowCount} rows`)
      } catch (error) {
        const e = error as { code?: string; message?: string }
        if (!(e.code === 'corrupt' || e.code === 'invalid_input' || e.code === 'unsupported') || !e.message?.includes(`flat-mut-${n}.parquet`)) problems.push(`mut${n}: ${String(error)}`)
      }
    }
    expect(problems).toEqual([])
    // The wasm decoder still works after all that.
    const again = await importFile(path)
    expect(again.rows).toHaveLength(ROWS)
  })
})

describe('CSV columns built straight into Arrow buffers', () => {
  it('negative and large whole numbers stay exact; inf and nan are floats', async () => {
    const path = ws.file('numbers.csv')
    await writeFile(path, 'i,f\n-1,inf\n-4294967297,-Infinity\n9007199254740993,nan\n-9223372036854775808,1e308\n,\n')
    const ours = await importFile(path)
    expect(typesOf(ours.table)).toEqual({ i: 'Int64', f: 'Float64' })
    expect(ours.rows.map((r) => r.i)).toEqual([-1n, -4294967297n, 9007199254740993n, -9223372036854775808n, null])
    expect(ours.rows.map((r) => r.f)).toEqual([Infinity, -Infinity, NaN, 1e308, null])
  })

  it('leading zeros after the sampled rows stop the import at their line (they would be lost)', async () => {
    const path = ws.file('late-zeros.csv')
    await writeFile(path, 'code\n1\n2\n007\n')
    const source = await openSource(path, { inferRows: 2 })
    await expect(writeSource(ws.client, { namespace: [], name: 'never5' }, source, { mode: 'create' })).rejects.toMatchObject({
      message: 'late-zeros.csv line 4: "007" in column "code" is not a number without leading zeros',
      hint: expect.stringMatching(/change its type \(e\.g\. to text\) in the import sheet/),
    })
  })
})
