/**
 * Limits that hold at the first byte (issue #43): each file that once froze or ballooned the host — a zstd bomb, a
 * zstd frame declaring a 2 GB window, … — is refused in words (an AppError with a code, the limit and the way past it)
 * after bounded work: the test finishes, and the process's peak memory grew by less than 500 MiB. Next to each, its
 * near miss (a file just inside the limit) still imports.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Field, Int32, makeData, RecordBatch, Schema, Struct } from 'apache-arrow'
import { AppError } from '../../../src/contract'
import { DecodeLimit } from '../../../src/core/arrow/ipc/codecs'
import { linearSchemaAssign } from '../../../src/core/arrow/linearSchema'
import { openSource, previewImport, writeSource } from '../../../src/core/import'
import { parquetCompressors } from '../../../src/core/import/readers/compressors'
import { CsvFieldGuard } from '../../../src/core/import/readers/csvFields'
import { openTextStream } from '../../../src/core/import/readers/text'
import { gzipRun, raw, repeated, run, textCell, xlsx, zstdFrame } from '../../fixtures/import/bombs'
import { readExact } from './exact'
import { workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

const MiB = 1024 * 1024
const GiB = 1024 * MiB
/** What a refusal may cost at most: far above what the work should take, far below what the files once took. */
const MEMORY_CEILING = 500 * MiB

/** The process's resident memory now and its peak since the last reset (Linux: /proc; elsewhere sampled). */
function memory(): { rss: number; peak: number } {
  try {
    const status = readFileSync('/proc/self/status', 'utf8')
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]) * 1024
    return { rss: kb('VmRSS'), peak: kb('VmHWM') }
  } catch {
    const rss = process.memoryUsage().rss
    return { rss, peak: rss }
  }
}

/** Run `work` and return how far the process's peak memory rose above where it stood before. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ value: T | Error; grew: number }> {
  try {
    writeFileSync('/proc/self/clear_refs', '5') // resets VmHWM to the current RSS
  } catch {
    // not Linux: the peak is sampled below
  }
  const before = memory().rss
  let sampled = before
  const timer = setInterval(() => (sampled = Math.max(sampled, memory().rss)), 20)
  let value: T | Error
  try {
    value = await work()
  } catch (error) {
    value = error as Error
  } finally {
    clearInterval(timer)
  }
  const peak = Math.max(sampled, memory().peak)
  return { value, grew: peak - before }
}

async function preview(path: string, fileName: string) {
  return previewImport({ path, fileName, client: ws.client, namespace: [] })
}

/** Preview `bytes` as `fileName`: the refusal it ends in, with the memory it cost. */
async function refusal(fileName: string, bytes: Buffer): Promise<{ error: AppError; grew: number }> {
  const path = ws.file(fileName)
  writeFileSync(path, bytes)
  const { value, grew } = await peakGrowth(() => preview(path, fileName))
  if (!(value instanceof AppError)) throw new Error(`expected a refusal, got ${value instanceof Error ? `${value.name}: ${value.message}` : 'a preview'}`)
  return { error: value, grew }
}

async function importFile(fileName: string, bytes: Buffer, name: string) {
  const path = ws.file(fileName)
  writeFileSync(path, bytes)
  const source = await openSource(path, { fileName })
  await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create' })
  return readExact(ws.client, { namespace: [], name })
}

describe('compressed text', () => {
  const CSV = 'a,b\n1,2\n'

  it('a zstd file of a CSV header and 1 GiB of newlines (32 KB) is refused by its ratio after 64 MiB', async () => {
    const bytes = zstdFrame([raw(CSV), ...run(0x0a, GiB)])
    expect(bytes.length).toBeLessThan(40_000)
    const { error, grew } = await refusal('newlines.csv.zst', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/^newlines\.csv\.zst decompresses to more than 1,000 times its size \(64(\.\d)? MiB from [\d.]+ KiB\), which no ordinary data does/)
    expect(error.hint).toMatch(/decompress it first \(unzstd\)/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('a gzip file of 1 GiB of newlines (1 MB) is refused the same way', async () => {
    const { error, grew } = await refusal('newlines.csv.gz', gzipRun(CSV, 0x0a, GiB))
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/^newlines\.csv\.gz decompresses to more than 1,000 times its size/)
    expect(error.hint).toMatch(/gunzip -k/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it.each([
    ['a window descriptor of 1.9 GiB', { windowLog: 30, mantissa: 7 }, /needs a 1\.9 GiB zstd window/, /--long=31 or --memory=1920MB/],
    ['a window descriptor of 2 GiB', { windowLog: 31 }, /needs a 2 GiB zstd window/, /--long=31 or --memory=2048MB/],
    ['a single-segment frame of 1 GiB content', { singleSegment: GiB }, /needs a 1 GiB zstd window/, /--long=30 or --memory=1024MB/],
  ])('a zstd frame declaring %s is refused at its header, as zstd -d does', async (_what, options, message, hint) => {
    const { error, grew } = await refusal('window.csv.zst', zstdFrame([raw(CSV), ...run(0x0a, 64 * MiB)], options))
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(message)
    expect(error.message).toMatch(/import reads zstd windows up to 128 MiB/)
    expect(error.hint).toMatch(hint)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('a later frame of a multi-frame file is checked too', async () => {
    const bytes = Buffer.concat([zstdFrame([raw(CSV)]), zstdFrame([raw('3,4\n')], { windowLog: 31 })])
    const { error } = await refusal('frames.csv.zst', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/needs a 2 GiB zstd window/)
  })

  it('near misses import: an 8 MiB and a 128 MiB window, and a skippable frame', async () => {
    const rows = (from: number, count: number) => Array.from({ length: count }, (_, i) => `${from + i},${(from + i) * 2}\n`).join('')
    const eight = zstdFrame([raw(`a,b\n${rows(0, 100)}`)], { windowLog: 23 })
    const skippable = Buffer.alloc(12)
    skippable.writeUInt32LE(0x184d2a50, 0)
    skippable.writeUInt32LE(4, 4)
    const most = zstdFrame([raw(rows(100, 100))], { windowLog: 27 })
    const { rows: read } = await importFile('near.csv.zst', Buffer.concat([eight, skippable, most]), 'near')
    expect(read).toHaveLength(200)
    expect(read.at(-1)).toEqual({ a: 199n, b: 398n })
  }, 120_000)

  it('dense text under the limits reads whole: 60 MiB at ~700× (under 64 MiB), 256 MiB at ~130×', async () => {
    const row = Buffer.from('7,14\n')
    const dense = gzipSync(Buffer.alloc(60 * MiB, row), { level: 9 })
    expect((60 * MiB) / dense.length).toBeGreaterThan(600)
    expect(await drain('dense.csv.gz', dense, 'gzip')).toBe(60 * MiB)
    // A 1 KiB block of random digits repeated: deflate codes each 258 bytes as one match (~130×).
    const block = Buffer.from(Array.from({ length: 1024 }, () => String.fromCharCode(48 + Math.floor(Math.random() * 10))).join(''))
    const repetitive = gzipSync(Buffer.alloc(256 * MiB, block), { level: 9 })
    expect((256 * MiB) / repetitive.length).toBeGreaterThan(100)
    const { value, grew } = await peakGrowth(() => drain('repetitive.csv.gz', repetitive, 'gzip'))
    expect(value).toBe(256 * MiB)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  }, 120_000)

  it('damaged zstd framing is corrupt, in words', async () => {
    const reserved = zstdFrame([raw(CSV)])
    reserved[6] = (reserved[6]! & ~0b110) | 0b110 // the block type 3 (reserved)
    const { error } = await refusal('reserved.csv.zst', reserved)
    expect(error.code).toBe('corrupt')
    expect(error.message).toMatch(/^reserved\.csv\.zst is not a valid zstd file: the block at byte 6 has the reserved type/)
  })
})

/** Read a compressed text file through to its end: the characters it holds. */
async function drain(fileName: string, bytes: Buffer, compression: 'gzip' | 'zstd'): Promise<number> {
  const path = ws.file(fileName)
  writeFileSync(path, bytes)
  const stream = openTextStream(path, { fileName, compression, encoding: 'utf-8' })
  let chars = 0
  try {
    for await (const chunk of stream.text as AsyncIterable<string>) chars += chunk.length
  } finally {
    stream.destroy()
  }
  return chars
}

describe('wide files', () => {
  const header = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(',')

  it('a CSV of 10^6 columns (9.9 MB) is refused at its 16,385th header field, in words', async () => {
    const n = 1_000_000
    const bytes = Buffer.from(`${header(n)}\n${'1,'.repeat(n - 1)}1\n`)
    const { error, grew } = await refusal('wide.csv', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('wide.csv has more than 16,384 columns; import takes at most 16,384 columns (as many as an Excel sheet has)')
    expect(error.hint).toMatch(/Keep the columns you need/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('a row of 40 M commas (40 MB) is refused at its 16,385th field, before csv-parse holds them (1.8 GiB)', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n1,2\n'), Buffer.alloc(40 * MiB, ','), Buffer.from('\n')])
    const { error, grew } = await refusal('commas.csv', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('commas.csv line 3: a row of more than 16,384 fields; import takes at most 16,384 columns')
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('fields are counted as csv-parse reads quotes, across chunk boundaries: quoted delimiters and line breaks are text', async () => {
    const cell = `"${'x,""\n'.repeat(20_000)}"`
    const text = `a,b\n1,${cell}\n2,${'x,'.repeat(20_000)}x\n`
    const guard = new CsvFieldGuard('quoted.csv', ',', '\n')
    const chunks = Array.from({ length: Math.ceil(text.length / 7) }, (_, i) => text.slice(i * 7, i * 7 + 7))
    const out: string[] = []
    const error = await new Promise<Error | null>((resolve) => {
      guard.on('data', (c: string) => out.push(c))
      guard.on('error', resolve)
      guard.on('end', () => resolve(null))
      Readable.from(chunks).pipe(guard)
    })
    // Row 2 (20,000 commas and line breaks, quoted) passes whole; row 3, 20,000 commas unquoted, is refused.
    expect(error?.message).toBe('quoted.csv line 20003: a row of more than 16,384 fields; import takes at most 16,384 columns')
    expect(out.join('')).toContain(cell)
  })

  it('near misses import: a CSV of 5,000 columns; a header of 16,384 columns longer than the sniffed sample, ended by CRLF', async () => {
    const n = 5000
    const { table, rows } = await importFile('five-thousand.csv', Buffer.from(`${header(n)}\n${Array.from({ length: n }, (_, i) => i).join(',')}\n`), 'five_thousand')
    expect(table.schema.fields).toHaveLength(n)
    expect(rows[0]!.c4999).toBe(4999n)
    // 16,384 names of 6–7 characters: the header is ~110 KB, past the 64 KiB the delimiters are told from.
    const widest = `${header(16_384)}\r\n${'7,'.repeat(16_383)}7\r\n`
    const path = ws.file('widest.csv')
    writeFileSync(path, widest)
    const found = await preview(path, 'widest.csv')
    expect(found.schema).toHaveLength(16_384)
    expect(found.schema.at(-1)!.name).toBe('c16383') // no "\r" left on the last name
    expect(found.schema.at(-1)!.type).toBe('Int64')
  }, 120_000)

  it('16,384 columns of one name get their suffixes (each found in one try: this took 10 s, the square of the count)', async () => {
    const path = ws.file('alike.csv')
    writeFileSync(path, `a_3,${Array(16_383).fill('a').join(',')}\n${Array(16_384).fill('1').join(',')}\n`)
    const found = await preview(path, 'alike.csv')
    const names = found.schema.map((f) => f.name)
    expect(names.slice(0, 5)).toEqual(['a_3', 'a', 'a_2', 'a_4', 'a_5'])
    expect(names.at(-1)).toBe('a_16384')
    expect(new Set(names).size).toBe(16_384)
  })

  it('JSON lines whose first record has 10^6 fields are refused', async () => {
    const record = `{${Array.from({ length: 1_000_000 }, (_, i) => `"k${i}":${i}`).join(',')}}\n`
    const { error, grew } = await refusal('wide.jsonl', Buffer.from(record))
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('wide.jsonl has more than 16,384 different fields in its first records; import takes at most 16,384 columns (as many as an Excel sheet has)')
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('a CSV record over 64 Mi characters (a quote left open) is refused in words', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n1,"'), Buffer.alloc(70 * MiB, 'x'), Buffer.from('"\n')])
    const { error, grew } = await refusal('open-quote.csv', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('open-quote.csv line 2: a record longer than 64 Mi characters, the most import holds at once')
    expect(error.hint).toMatch(/A quote left open/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('building a record batch costs linear work in the column count (apache-arrow looked each field up by name)', () => {
    linearSchemaAssign()
    const n = 20_000
    let reads = 0
    const fields = Array.from({ length: n }, (_, i) => {
      const field = new Field(`c${i}`, new Int32(), true)
      const name = field.name
      Object.defineProperty(field, 'name', { get: () => (reads++, name) })
      return field
    })
    const schema = new Schema(fields)
    const data = makeData({ type: new Struct(fields), length: 0, nullCount: 0, children: fields.map((f) => makeData({ type: f.type, length: 0, nullCount: 0 })) })
    reads = 0
    const batch = new RecordBatch(schema, data)
    expect(batch.schema.fields).toHaveLength(n)
    expect(batch.schema.fields[n - 1]!.name).toBe(`c${n - 1}`)
    // apache-arrow's own Schema.assign reads names n²/2 times (2·10^8 here); a lookup by Map a few times n.
    expect(reads).toBeLessThan(10 * n)
  })
})

describe('spreadsheets', () => {
  const head = `<row r="1">${textCell('A1', 'id')}${textCell('B1', 'name')}</row>`

  it("a 1.6 KB workbook whose header cell claims ZZZZZZ1 is refused at that cell, not counted up to (321 M columns)", async () => {
    const bytes = await xlsx(`<row r="1">${textCell('A1', 'id')}${textCell('ZZZZZZ1', 'far')}</row><row r="2"><c r="A2"><v>1</v></c></row>`)
    expect(bytes.length).toBeLessThan(2500)
    const { error, grew } = await refusal('far.xlsx', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('far.xlsx has cell ZZZZZZ1, past column XFD (16,384), the last an Excel sheet has')
    expect(error.hint).toMatch(/save the sheet as CSV/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('a row past 1,048,576, and 10^6 header cells without references, are refused without overflowing the stack', async () => {
    const far = await refusal('rows.xlsx', await xlsx(`${head}<row r="2000000"><c r="A2000000"><v>1</v></c></row>`))
    expect(far.error.message).toBe('rows.xlsx has row 2000000, past row 1,048,576, the last an Excel sheet has')
    const cells = await xlsx([Buffer.from('<row r="1">'), ...repeated('<c t="inlineStr"><is><t>h</t></is></c>', 1_000_000), Buffer.from('</row>')])
    const wide = await refusal('cells.xlsx', cells)
    expect(wide.error.code).toBe('unsupported')
    expect(wide.error.message).toBe('cells.xlsx has cell XFE1, past column XFD (16,384), the last an Excel sheet has')
    expect(wide.grew).toBeLessThan(MEMORY_CEILING)
  })

  it('near miss: a sheet using column XFD previews, its last column named and read', async () => {
    const bytes = await xlsx(`<row r="1">${textCell('A1', 'id')}${textCell('XFD1', 'last')}</row><row r="2"><c r="A2"><v>1</v></c><c r="XFD2"><v>2.5</v></c></row>`)
    const path = ws.file('xfd.xlsx')
    writeFileSync(path, bytes)
    const found = await preview(path, 'xfd.xlsx')
    expect(found.schema).toHaveLength(16_384)
    expect(found.schema.at(-1)).toMatchObject({ name: 'last', type: 'Float64' })
    expect(found.schema[1]).toMatchObject({ name: 'column 2', type: 'Utf8' })
    const source = await openSource(path, { fileName: 'xfd.xlsx' })
    const batches = source.batches()
    const first = (await batches.next()).value as RecordBatch
    await batches.return(undefined)
    await source.close()
    expect(first.getChild('last')!.get(0)).toBe(2.5)
    expect(first.getChild('id')!.get(0)).toBe(1n)
  })

  it('a cell of 400 M characters (a 390 KB file) is refused after 1 Mi characters of it', async () => {
    const bytes = await xlsx([Buffer.from(`${head}<row r="2"><c r="A2" t="inlineStr"><is><t>`), ...repeated('x', 400_000_000), Buffer.from('</t></is></c></row>')])
    expect(bytes.length).toBeLessThan(500_000)
    const { error, grew } = await refusal('cell.xlsx', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/^cell\.xlsx holds more than 1 Mi characters of XML without a tag \(a cell or string far past the 32,767 characters an Excel cell holds\)/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  }, 120_000)

  it("cells and shared strings past Excel's 32,767 characters are refused; a cell of exactly 32,767 imports", async () => {
    const long = (n: number) => `${head}<row r="2"><c r="A2"><v>1</v></c>${textCell('B2', 'y'.repeat(n))}</row>`
    const over = await refusal('long.xlsx', await xlsx(long(32_768)))
    expect(over.error.message).toBe('long.xlsx has a cell in row 2 (column B) of more than 32,767 characters, the most an Excel cell holds')
    const shared = await refusal('shared.xlsx', await xlsx(`${head}<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>0</v></c></row>`, `<si><t>${'z'.repeat(40_000)}</t></si>`))
    expect(shared.error.message).toBe('shared.xlsx holds a shared string (number 1) longer than 32,767 characters, the most an Excel cell holds')
    const { rows } = await importFile('longest.xlsx', await xlsx(long(32_767)), 'longest')
    expect((rows[0]!.name as string).length).toBe(32_767)
  })

  it('40 M empty shared strings (a 290 KB file) are refused by their count', async () => {
    const bytes = await xlsx(`${head}<row r="2"><c r="A2"><v>1</v></c><c r="B2" t="s"><v>0</v></c></row>`, repeated('<si/>', 40_000_000))
    expect(bytes.length).toBeLessThan(400_000)
    const { error, grew } = await refusal('strings.xlsx', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('strings.xlsx holds more than 8,388,608 shared strings, more than import holds in memory')
    expect(error.hint).toMatch(/save the sheet as CSV/i)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  }, 120_000)

  it('a sheet part that inflates past 250× (512 MiB of empty tags in 500 KB) is refused as a bomb', async () => {
    const bytes = await xlsx([Buffer.from(head), ...repeated('<x/>', 128 * 1024 * 1024)])
    const { error, grew } = await refusal('tags.xlsx', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/^tags\.xlsx: its part xl\/worksheets\/sheet1\.xml inflates to more than 250 times its size \([\d.]+ MiB from [\d.]+ KiB\)/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  }, 120_000)
})

describe('JSON nesting', () => {
  const nested = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`

  it('JSON lines and a JSON array nested 100,000 deep are refused in words, not by a stack overflow', async () => {
    const lines = await refusal('deep.jsonl', Buffer.from(`{"id":1,"v":${nested(100_000, '1')}}\n`))
    expect(lines.error.code).toBe('unsupported')
    expect(lines.error.message).toBe('deep.jsonl line 1: a record nested 100,001 levels deep; import reads JSON nested at most 1,000 levels')
    expect(lines.error.hint).toMatch(/Flatten the records/)
    const array = await refusal('deep.json', Buffer.from(`[\n{"id":1,"v":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}]`))
    expect(array.error.code).toBe('unsupported')
    expect(array.error.message).toBe('deep.json line 2: a record nested more than 1,000 levels deep; import reads JSON nested at most 1,000 levels')
  })

  it('near misses import: records nested 1,000 deep; lists nested past 32 levels become their JSON text', async () => {
    const deepest = `{"id":1,"v":${nested(999, '1')}}\n{"id":2,"v":${'{"a":'.repeat(999)}2${'}'.repeat(999)}}\n`
    const { table, rows } = await importFile('deepest.jsonl', Buffer.from(deepest), 'deepest')
    expect(String(table.schema.fields[1]!.type)).toBe('Utf8')
    expect(rows[0]!.v).toBe(nested(999, '1'))
    const path = ws.file('levels.jsonl')
    writeFileSync(path, `{"kept":${nested(32, '1')},"text":${nested(33, '1')}}\n`)
    const found = await preview(path, 'levels.jsonl')
    expect(found.schema[0]!.type).toBe(`${'List<'.repeat(32)}Int64${'>'.repeat(32)}`)
    expect(found.schema[1]!.type).toBe('Utf8')
    expect(found.columns![1]!.reason).toBe('text: values nested 33 levels deep, more than the 32 kept as nested columns')
    const { rows: read } = await importFile('levels.jsonl', readFileSync(path), 'levels')
    expect(read[0]!.text).toBe(nested(33, '1'))
  })

  it('a JSON line longer than 64 Mi characters is refused as it streams in', async () => {
    const bytes = Buffer.concat([Buffer.from('{"id":1}\n{"v":"'), Buffer.alloc(70 * MiB, 'x'), Buffer.from('"}\n')])
    const { error, grew } = await refusal('long.jsonl', bytes)
    expect(error.code).toBe('unsupported')
    expect(error.message).toBe('long.jsonl line 2: a line longer than 64 Mi characters, the most import holds at once')
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })
})

describe('codecs that declare their output (Arrow IPC buffers, Parquet pages)', () => {
  const pl = createRequire(__filename)('nodejs-polars') as { DataFrame(columns: unknown[]): { writeIPC(path: string, o: object): void }; Series(name: string, values: unknown): unknown }

  it('a polars Arrow file whose one ZSTD batch declares 76 MiB in 2.4 KiB is refused before it is decoded', async () => {
    const path = ws.file('zeros.arrow')
    pl.DataFrame([pl.Series('z', new Float64Array(10_000_000))]).writeIPC(path, { compression: 'zstd' })
    const { value, grew } = await peakGrowth(() => preview(path, 'zeros.arrow'))
    expect(value).toBeInstanceOf(AppError)
    const error = value as AppError
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(/^zeros\.arrow has a record batch whose compressed [\d.]+ KiB declare 76\.3 MiB \(more than 1,000 times\)/)
    expect(error.hint).toMatch(/without compression/)
    expect(grew).toBeLessThan(MEMORY_CEILING)
  })

  it('near misses import: 1 M zeros in one ZSTD batch (under 64 MiB), and 5 M zeros beside 5 M random values', async () => {
    const path = ws.file('some-zeros.arrow')
    pl.DataFrame([pl.Series('z', new Float64Array(1_000_000))]).writeIPC(path, { compression: 'zstd' })
    const source = await openSource(path, { fileName: 'some-zeros.arrow' })
    let rows = 0
    for await (const batch of source.batches()) rows += batch.numRows
    expect(rows).toBe(1_000_000)
    const mixed = ws.file('mixed.arrow')
    const random = Float64Array.from({ length: 5_000_000 }, () => Math.random())
    pl.DataFrame([pl.Series('z', new Float64Array(5_000_000)), pl.Series('r', random)]).writeIPC(mixed, { compression: 'zstd' })
    const found = await preview(mixed, 'mixed.arrow')
    expect(found.rowCount).toBe(5_000_000)
  }, 120_000)

  it('Parquet pages are held to the size they declare: a bomb refused before decoding, a gzip page that lies stopped at it', () => {
    const compressors = parquetCompressors()
    const bomb = zstdFrame(run(0, 2 * GiB - 1))
    expect(() => compressors.ZSTD!(bomb, 2 * GiB - 1)).toThrow(DecodeLimit)
    expect(() => compressors.ZSTD!(bomb, 2 * GiB - 1)).toThrow(/has a page whose compressed 64 KiB declare 2 GiB \(more than 1,000 times\)/)
    const lying = gzipSync(Buffer.alloc(10 * MiB))
    expect(() => compressors.GZIP!(lying, 1000)).toThrow(/Cannot create a Buffer larger than|buffer/i)
    expect(compressors.GZIP!(lying, 10 * MiB)).toHaveLength(10 * MiB)
  })
})
