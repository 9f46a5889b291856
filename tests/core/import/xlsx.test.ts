/**
 * Excel workbooks written by an independent producer (openpyxl; tests/fixtures/import/xlsx/make.py wrote the
 * committed files): the first sheet by default or a named one, typed cells kept (text with leading zeros,
 * non-ASCII, dates as timestamps, true/false, empty and error cells as nulls), blank rows skipped, and a row
 * past the sampled ones that does not fit stops the import with its row number and leaves nothing behind.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, previewImport, writeSource } from '../../../src/core/import'
import { readExact, typesOf } from './exact'
import { stagedLeftovers, tableNames, workspace, type Workspace } from './helpers'

const FIXTURES = join(__dirname, '../../fixtures/import/xlsx')

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

async function importSheet(file: string, name: string, sheet?: string) {
  const source = await openSource(join(FIXTURES, file), { sheet })
  await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create' })
  return readExact(ws.client, { namespace: [], name })
}

describe('Excel import', () => {
  it('reads the first sheet with the types its cells hold', async () => {
    const { table, rows } = await importSheet('people.xlsx', 'people')
    expect(typesOf(table)).toEqual({
      id: 'Int64',
      zip: 'Utf8',
      name: 'Utf8',
      'score $': 'Float64',
      active: 'Bool',
      joined: 'Timestamp<MILLISECOND>',
      'double score': 'Utf8',
      ratio: 'Float64',
    })
    expect(rows.map((r) => r.zip)).toEqual(['00501', '02134', '10001', '94105'])
    expect(rows.map((r) => r.name)).toEqual(['Ånne Ødegård', 'José', '李雷', 'O\'Brien, "Pat"'])
    expect(rows.map((r) => r['score $'])).toEqual([12.5, null, 7, 3.25])
    expect(rows.map((r) => r.active)).toEqual([true, false, true, null])
    expect(rows.map((r) => r.joined)).toEqual([Date.UTC(2024, 2, 1, 12, 30), Date.UTC(2023, 11, 31), null, Date.UTC(2020, 0, 2)].map((ms) => (ms === null ? null : BigInt(ms))))
    // Formulas without a saved result (openpyxl saves none) and error cells (#N/A) are empty.
    expect(rows.map((r) => r['double score'])).toEqual([null, null, null, null])
    expect(rows.map((r) => r.ratio)).toEqual([0.25, null, 0.5, 1.5])
    expect(rows.map((r) => r.id)).toEqual([1n, 2n, 3n, 4n])
  })

  it('reads another sheet by name, and the preview names every sheet', async () => {
    const preview = await previewImport({ path: join(FIXTURES, 'people.xlsx'), fileName: 'people.xlsx', client: ws.client, namespace: [] })
    expect(preview.format).toBe('xlsx')
    expect(preview.formatLabel).toBe('Excel workbook')
    expect(preview.sheets).toEqual({ names: ['People', 'Notes'], chosen: 'People', headerRow: 1, titleRows: 0 })
    expect(preview.readAs).toContain('sheet "People" (the workbook also has "Notes")')
    const { rows } = await importSheet('people.xlsx', 'notes', 'Notes')
    expect(rows).toEqual([
      { note: 'first', count: 10n },
      { note: 'second', count: 20n },
    ])
    await expect(openSource(join(FIXTURES, 'people.xlsx'), { sheet: 'Missing' })).rejects.toThrow(/no sheet named "Missing"[\s\S]*/)
  })

  it('stops at a row past the sample that does not fit, naming it, and leaves nothing behind', async () => {
    const source = await openSource(join(FIXTURES, 'long.xlsx'))
    expect(source.columns?.map((c) => [c.name, c.type])).toEqual([
      ['order', 'Int64'],
      ['region', 'Utf8'],
      ['amount', 'Float64'],
      ['day', 'Date32<DAY>'], // dates without a time: days
    ])
    await expect(writeSource(ws.client, { namespace: [], name: 'sales' }, source, { mode: 'create' })).rejects.toThrow(/long\.xlsx row 12001: the value of "amount" does not fit/)
    expect(await tableNames(ws.client)).not.toContain('sales')
    expect(await stagedLeftovers(ws.client)).toEqual([])
    // Typed as text in the sheet, the same file imports whole.
    const asText = await openSource(join(FIXTURES, 'long.xlsx'), { columnTypes: { amount: 'text' } })
    await writeSource(ws.client, { namespace: [], name: 'sales' }, asText, { mode: 'create' })
    const { rows } = await readExact(ws.client, { namespace: [], name: 'sales' })
    expect(rows).toHaveLength(12000)
    expect(rows.at(-1)).toMatchObject({ order: 12000n, amount: 'n/a' })
    expect(rows[0]).toMatchObject({ order: 1n, region: 'south', amount: '1.5' })
  })

  it('says what is wrong with a damaged workbook and an old .xls', async () => {
    const whole = await readFile(join(FIXTURES, 'people.xlsx'))
    const cut = ws.file('cut.xlsx')
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)))
    await expect(openSource(cut)).rejects.toThrow(/cut\.xlsx cannot be read as an Excel workbook|cut\.xlsx holds no worksheets/)
    const xls = ws.file('old.xls')
    await writeFile(xls, Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600)]))
    await expect(openSource(xls)).rejects.toThrow(/Excel 97–2003 workbook/)
    // A workbook renamed to something else is still told by its content.
    const renamed = ws.file('people.bin')
    await copyFile(join(FIXTURES, 'people.xlsx'), renamed)
    expect((await openSource(renamed)).format).toBe('xlsx')
  })
})
