/**
 * The CSV native reader in windows of whole rows (LCB_CSV_WINDOW_BYTES tiny, so that quoted newlines, `""`, CRLF, a
 * BOM and a missing last newline fall exactly on window boundaries): the same rows and types as one window, and a
 * stop mid-way leaves no window file behind.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { Table, tableFromIPC, tableToIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource } from '../../../src/core/import'
import { csvWindowFiles } from '../../../src/core/import/native/csvWindows'
import { nativeRows } from '../../../src/core/import/native/polars'
import { exactAt } from './exact'
import { workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  delete process.env.LCB_IMPORT_NATIVE
  delete process.env.LCB_CSV_WINDOW_BYTES
  await ws.cleanup()
})

async function read(path: string, windowBytes: number | null, native = true): Promise<{ types: Record<string, string>; rows: Record<string, unknown>[] }> {
  process.env.LCB_IMPORT_NATIVE = native ? '1' : '0'
  if (windowBytes === null) delete process.env.LCB_CSV_WINDOW_BYTES
  else process.env.LCB_CSV_WINDOW_BYTES = String(windowBytes)
  const source = await openSource(path, { inferRows: 5 })
  try {
    const rows: Record<string, unknown>[] = []
    for await (const sliced of source.batches()) {
      const batch = tableFromIPC(tableToIPC(new Table([sliced]))).batches[0]!
      for (let r = 0; r < batch.numRows; r++) rows.push(Object.fromEntries(batch.schema.fields.map((f, c) => [f.name, exactAt(batch.data.children[c]!, r)])))
    }
    return { types: Object.fromEntries(source.schema.fields.map((f) => [f.name, String(f.type)])), rows }
  } finally {
    await source.close()
    delete process.env.LCB_IMPORT_NATIVE
    delete process.env.LCB_CSV_WINDOW_BYTES
  }
}

/** Rows with quoted fields holding newlines (LF and CRLF) and `""`, so that some window cuts fall inside them. */
function content(eol: string, bom: boolean, trailing: boolean): string {
  const lines = ['id,note,amount,day']
  for (let i = 1; i <= 60; i++) {
    // A `""` in a text cell hands the rest to the JS reader: only the last rows have one.
    const quoted = i > 50 ? ' ""quoted""' : ''
    const note = i % 3 === 0 ? `"line ${i}${eol}next,${quoted}${eol}end"` : i % 3 === 1 ? `"plain, ${i}${quoted}"` : `text ${i}`
    lines.push(`${i},${note},${i * 1.5},2024-01-${String((i % 28) + 1).padStart(2, '0')}`)
  }
  return `${bom ? '\ufeff' : ''}${lines.join(eol)}${trailing ? eol : ''}`
}

describe('CSV windows', () => {
  it.each([
    ['LF, trailing newline', '\n', false, true],
    ['CRLF, BOM', '\r\n', true, true],
    ['no trailing newline', '\n', false, false],
    ['CRLF, BOM, no trailing newline', '\r\n', true, false],
  ])('%s: every window size gives the rows and types of one window', async (_what, eol, bom, trailing) => {
    const path = ws.file(`w-${eol.length}-${bom}-${trailing}.csv`)
    await writeFile(path, content(eol as string, bom as boolean, trailing as boolean))
    const whole = await read(path, null)
    expect(whole.rows).toHaveLength(60)
    expect(whole.types).toEqual({ id: 'Int64', note: 'Utf8', amount: 'Float64', day: 'Date32<DAY>' })
    expect(whole).toEqual(await read(path, null, false))
    // 1 byte cuts after every row (each window holds one: a window grows to the end of its row); 40, 97 and 300
    // put cuts at different places inside the quoted newlines. (7 cut after every row too: a copy of 1.)
    for (const size of [1, 40, 97, 300]) {
      const before = nativeRows.csv
      expect(await read(path, size), `window ${size}`).toEqual(whole)
      // polars read the rows before the first `""` (row 51), through many windows.
      expect(nativeRows.csv - before).toBe(50)
    }
    // ~120 polars reads (a window of 1 byte is one read a row): ~5 s on a quiet machine, past a minute at load 10.
  }, 240_000)

  it('cuts only at newlines outside quotes, each window after the first starting with the header', async () => {
    const path = ws.file('cuts.csv')
    const text = content('\n', true, false)
    await writeFile(path, text)
    const folder = ws.file('cuts')
    await mkdir(folder)
    const header = Buffer.from('\ufeffid,note,amount,day\n')
    const parts: Buffer[] = []
    for await (const file of csvWindowFiles(path, 50, folder)) {
      const bytes = await readFile(file)
      parts.push(parts.length === 0 ? bytes : bytes.subarray(header.length))
      if (parts.length > 1) expect(bytes.subarray(0, header.length)).toEqual(header)
      // A window's rows end outside quotes: an even number of quotes.
      expect([...bytes].filter((b) => b === 0x22).length % 2).toBe(0)
    }
    expect(parts.length).toBeGreaterThan(10)
    expect(Buffer.concat(parts).toString()).toBe(text)
  })

  it('stopping mid-way ends polars and leaves no window file behind', async () => {
    const path = ws.file('stop-w.csv')
    await writeFile(path, content('\n', false, true))
    const temp = ws.file('tmp-stop-w')
    await mkdir(temp)
    const saved = process.env.TMPDIR
    process.env.TMPDIR = temp
    process.env.LCB_IMPORT_NATIVE = '1'
    process.env.LCB_CSV_WINDOW_BYTES = '100'
    try {
      const source = await openSource(path, { inferRows: 5 })
      const batches = source.batches()
      expect((await batches.next()).done).toBe(false)
      expect(await readdir(temp)).toHaveLength(1)
      await batches.return(undefined)
      await source.close()
      expect(await readdir(temp)).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = saved
      delete process.env.LCB_IMPORT_NATIVE
      delete process.env.LCB_CSV_WINDOW_BYTES
    }
  })
})
