/**
 * Spreadsheets as people make them (issue #40, item 5), in workbooks written by an independent producer (openpyxl;
 * tests/fixtures/import/xlsx/make.py): a title row and a blank row above the header (found by looking, or chosen),
 * a table that starts at C5 with a remark beside it (a cell range), two sheets of one layout (one table, or refused
 * when the columns differ), and dates stored as Excel serial numbers with a date format (days as Date32, date-times
 * as timestamps). The choices travel through the contract to the reader process (`import/preview`, `import/start`).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppErrorData, ImportJobInfo, ImportPreview, Result } from '../../../src/contract'
import { openSource } from '../../../src/core/import'
import { connectNamespace } from '../../../src/core/namespace/connect'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { until } from '../../helpers/processes'
import { xlsx, zip } from '../../fixtures/import/bombs'
import { readExact, typesOf } from './exact'

const FIXTURES = join(__dirname, '../../fixtures/import/xlsx')
const REPORT = join(FIXTURES, 'report.xlsx')
const OFFSET = join(FIXTURES, 'offset.xlsx')
/** Days since 1970 (how a Date32 column reads back). */
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 86_400_000

let dir: string
let service: CatalogService
let connectionId: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lcb-xlsx-layout-'))
  const created = await connectNamespace('dir', { root: join(dir, 'catalog'), create: 'true' })
  await created.close()
  service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
  connectionId = (value(await service.dispatch('connections/openDirectory', { path: join(dir, 'catalog') })) as { id: string }).id
})

afterAll(async () => {
  await service.closeAll()
  await rm(dir, { recursive: true, force: true })
})

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

function failure(result: Result<unknown>): AppErrorData {
  if (result.ok) throw new Error('expected a failure')
  return result.error
}

const preview = async (path: string, layout: Record<string, unknown> = {}) =>
  service.dispatch('import/preview', { connectionId, namespace: [], source: { path }, ...layout }) as Promise<Result<ImportPreview>>

async function importDone(path: string, name: string, layout: Record<string, unknown> = {}) {
  const job = value(await service.dispatch('import/start', { connectionId, namespace: [], name, mode: 'create', source: { path }, ...layout })) as ImportJobInfo
  let info = job
  await until(() => {
    info = service.imports.jobs.list().find((j) => j.id === job.id)!
    return info.state !== 'queued' && info.state !== 'running'
  })
  expect(info.error).toBeNull()
  const client = await connectNamespace('dir', { root: join(dir, 'catalog') })
  try {
    return await readExact(client, { namespace: [], name })
  } finally {
    await client.close()
  }
}

const names = (p: ImportPreview) => p.schema.map((f) => `${f.name}: ${f.type}`)

describe('the header row', () => {
  it('is found below a title row and a blank row, the title left out and said', async () => {
    const p = value(await preview(REPORT))
    expect(p.sheets).toMatchObject({ chosen: 'Q1', headerRow: 3, titleRows: 1 })
    expect(p.readAs).toContain('column names: row 3 (above it, left out as a title: “Sales report, Q1 2024”)')
    expect(p.schema.map((f) => f.name)).toEqual(['order', 'region', 'amount', 'day', 'shipped'])
  })

  it('is the first filled row when that row already names several columns', async () => {
    const source = await openSource(join(FIXTURES, 'people.xlsx'))
    await source.close()
    expect(source.sheets).toMatchObject({ headerRow: 1, titleRows: 0 })
  })

  it('can be chosen: rows above it left out, an empty row refused in words', async () => {
    const first = value(await preview(REPORT, { headerRow: 1 }))
    expect(first.schema[0]!.name).toBe('Sales report, Q1 2024')
    expect(first.sheets).toMatchObject({ headerRow: 1, titleRows: 0 })
    const third = value(await preview(REPORT, { headerRow: 3 }))
    expect(third.sheets).toMatchObject({ headerRow: 3, titleRows: 0 })
    expect(third.readAs).toContain('column names: row 3')
    const empty = failure(await preview(REPORT, { headerRow: 2 }))
    expect(empty.code).toBe('invalid_input')
    expect(empty.message).toMatch(/Row 2 of the sheet "Q1" of report\.xlsx is empty/)
    // Past an Excel sheet's last row: refused by the contract, the limit named.
    expect(failure(await preview(REPORT, { headerRow: 1_048_577 })).code).toBe('invalid_input')
  })
})

describe('the header row, when it is not obvious', () => {
  // Hand-made sheets (tests/fixtures/import/bombs.ts writes the SpreadsheetML): the shapes where a one-cell first row
  // is not a title, so the first row stays the header.
  const text = (ref: string, t: string) => `<c r="${ref}" t="inlineStr"><is><t>${t}</t></is></c>`
  const num = (ref: string, n: number) => `<c r="${ref}"><v>${n}</v></c>`
  const header = async (rows: string) => {
    const path = join(dir, `shape-${Math.random().toString(36).slice(2)}.xlsx`)
    await writeFile(path, await xlsx(rows))
    const source = await openSource(path)
    await source.close()
    return { row: source.sheets?.headerRow, titles: source.sheets?.titleRows, columns: source.columns?.map((c) => c.name) }
  }

  it('stays the first row above a row of numbers, a row of repeated names, or in a one-column sheet', async () => {
    expect(await header(`<row r="1">${text('A1', 'Report')}</row><row r="2">${num('A2', 1)}${num('B2', 2)}</row>`)).toMatchObject({ row: 1, titles: 0 })
    expect(await header(`<row r="1">${text('A1', 'Report')}</row><row r="2">${text('A2', 'x')}${text('B2', 'x')}</row>`)).toMatchObject({ row: 1, titles: 0 })
    expect(await header(`<row r="1">${text('A1', 'name')}</row><row r="2">${text('A2', 'Ann')}</row><row r="3">${text('A3', 'Bo')}</row>`)).toMatchObject({ row: 1, titles: 0, columns: ['name'] })
  })

  it('skips two title rows above a header that starts in column B', async () => {
    const rows = `<row r="1">${text('A1', 'Report')}</row><row r="2">${text('B2', 'Printed 3 March')}</row><row r="4">${text('B4', 'a')}${text('C4', 'b')}</row><row r="5">${num('B5', 1)}${num('C5', 2)}</row>`
    expect(await header(rows)).toEqual({ row: 4, titles: 2, columns: ['a', 'b'] })
  })
})

describe('a cell range', () => {
  it('leaves out the footer below it, so the order column is whole numbers again', async () => {
    expect(names(value(await preview(REPORT)))).toContain('order: Utf8') // the "Total" footer is text
    const p = value(await preview(REPORT, { range: 'A3:E8' }))
    expect(names(p)).toEqual(['order: Int64', 'region: Utf8', 'amount: Float64', 'day: Date32<DAY>', 'shipped: Timestamp<MILLISECOND>'])
    expect(p.sheets).toMatchObject({ range: 'A3:E8', headerRow: 3 })
    expect(p.readAs).toContain('cells A3:E8')
    const { rows } = await importDone(REPORT, 'q1', { range: 'A3:E8' })
    expect(rows.map((r) => r.order)).toEqual([1n, 2n, 3n, 4n, 5n])
  })

  it('reads a table that starts at C5 without the remark beside it', async () => {
    expect(names(value(await preview(OFFSET)))).toContain('column 8: Utf8')
    const p = value(await preview(OFFSET, { range: 'c5:f10' }))
    expect(names(p)).toEqual(['station: Utf8', 'reading: Float64', 'ok: Bool', 'taken: Date32<DAY>'])
    const { rows } = await importDone(OFFSET, 'stations', { range: 'C5:F10' })
    expect(rows).toHaveLength(5)
    expect(rows[0]).toEqual({ station: 'S1', reading: 7.5, ok: true, taken: day(2023, 12, 25) })
  })

  it('is refused in words when it is not a range, or leaves the header row out', async () => {
    const bad = failure(await preview(REPORT, { range: 'B3-F200' }))
    expect(bad.code).toBe('invalid_input')
    expect(bad.message).toMatch(/must look like B3:F200/)
    expect(failure(await preview(REPORT, { range: 'A1:ZZZZ9' })).code).toBe('invalid_input')
    const outside = failure(await preview(REPORT, { range: 'A4:E8', headerRow: 3 }))
    expect(outside.message).toMatch(/Header row 3 is outside the cell range A4:E8/)
  })
})

describe('several sheets', () => {
  it('of one layout become one table, in tab order', async () => {
    const p = value(await preview(REPORT, { sheets: ['Q1', 'Q2'], range: 'A3:E8' }))
    expect(p.sheets).toMatchObject({ read: ['Q1', 'Q2'] })
    expect(p.readAs).toContain('sheets "Q1", "Q2", one after another')
    const { rows } = await importDone(REPORT, 'year', { sheets: ['Q1', 'Q2'], range: 'A3:E8' })
    expect(rows.map((r) => r.order)).toEqual([1n, 2n, 3n, 4n, 5n, 101n, 102n, 103n, 104n, 105n])
    expect(rows.at(-1)!.day).toBe(day(2024, 4, 9))
  })

  it('name the sheet and its row when a value does not fit', async () => {
    const source = await openSource(REPORT, { layout: { sheets: ['Q1', 'Q2'] }, columnTypes: { order: 'integer' } })
    const batches = source.batches()
    await expect(batches.next()).rejects.toThrow(/report\.xlsx sheet "Q1" row 10: the value of "order" does not fit/)
    await source.close()
  })

  it('whose columns differ are refused as one table, before anything is written', async () => {
    const error = failure(await service.dispatch('import/preview', { connectionId, namespace: [], source: { path: join(FIXTURES, 'people.xlsx') }, sheets: ['People', 'Notes'] }))
    expect(error.code).toBe('invalid_input')
    expect(error.message).toMatch(/The sheet "Notes" of people\.xlsx names other columns than "People"/)
    expect(error.hint).toMatch(/each sheet as a table of its own/)
  })
})

describe('dates', () => {
  it('in an East Asian built-in date format (id 31, no format code in the file) are dates', async () => {
    const path = join(dir, 'cjk-date.xlsx')
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
    const rels = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
    await writeFile(
      path,
      await zip({
        'xl/workbook.xml': `<workbook xmlns="${main}" xmlns:r="${rels}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        'xl/_rels/workbook.xml.rels': `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rels}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
        'xl/styles.xml': `<styleSheet xmlns="${main}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="31"/></cellXfs></styleSheet>`,
        'xl/worksheets/sheet1.xml': `<worksheet xmlns="${main}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>day</t></is></c></row><row r="2"><c r="A2" s="1"><v>45292</v></c></row></sheetData></worksheet>`,
      }),
    )
    const source = await openSource(path)
    expect(source.columns?.map((c) => [c.name, c.type])).toEqual([['day', 'Date32<DAY>']])
    const batch = (await source.batches().next()).value!
    expect(batch.getChild('day')!.get(0)).toBe(Date.UTC(2024, 0, 1))
    await source.close()
  })


  it('stored as serial numbers with a date format come in as dates (days) and timestamps (date-times)', async () => {
    const { table, rows } = await importDone(REPORT, 'q1dates', { range: 'A3:E8' })
    expect(typesOf(table)).toMatchObject({ day: 'Date32<DAY>', shipped: 'Timestamp<MILLISECOND>' })
    expect(rows.map((r) => r.day)).toEqual([5, 6, 7, 8, 9].map((d) => day(2024, 1, d)))
    expect(rows[0]!.shipped).toBe(BigInt(Date.UTC(2024, 0, 6, 9, 30)))
    // A day column can still be had as a timestamp or as text.
    const p = value(await preview(REPORT, { range: 'A3:E8', columnTypes: { day: 'timestamp' } }))
    expect(p.columns?.find((c) => c.name === 'day')).toMatchObject({ inferred: 'date', choice: 'timestamp', choices: ['date', 'timestamp', 'text'] })
  })
})
