/**
 * Files from other producers in the import sheet: a polars Arrow file (Utf8View, LargeList, ZSTD
 * buffers) lists its conversions; a CSV's ISO dates are typed, with a choice to keep them as text.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { polarsFrame, writePolarsIpc } from '../fixtures/import/polars'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { dir: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-import-types-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [] })
    const harness = await startHarness({ root })
    await use({ dir, harness })
    await harness.close()
    await removeDir(dir)
  },
})

/** A real drop of one file on `target`. */
const dropFile = (page: Page, target: Locator, name: string, bytes: Uint8Array) => dropFiles(page, target, [{ name, bytes }])

const sheet = (page: Page) => page.getByRole('dialog', { name: /^Import / })

for (const { scheme, ...size } of [
  { width: 1400, height: 900, scheme: 'light' as const },
  { width: 900, height: 600, scheme: 'dark' as const },
]) {
  test(`a polars Arrow file (Utf8View, ZSTD) lists its conversions and imports (${size.width}×${size.height}, ${scheme})`, async ({ page, catalog }) => {
    await page.setViewportSize(size)
    await page.emulateMedia({ colorScheme: scheme })
    const path = join(catalog.dir, 'polars.arrow')
    writePolarsIpc(polarsFrame(300, 100, false), path, 'file', 'zstd')
    await openApp(page, catalog.harness)
    await dropFile(page, treeItem(page, 'lab'), 'polars frame.arrow', await readFile(path))

    const dialog = sheet(page)
    const conversions = dialog.getByRole('region', { name: 'Conversions' })
    await expect(conversions).toBeVisible()
    await expect(conversions.getByRole('listitem').filter({ hasText: /^s\s*Utf8View → Utf8$/ })).toBeVisible()
    await expect(conversions.getByRole('listitem').filter({ hasText: /^l\s*LargeList<Int64> → List<Int64>$/ })).toBeVisible()
    await expect(dialog.getByRole('region', { name: 'Schema to write' })).toContainText('Timestamp<NANOSECOND, Europe/Paris>')
    await expect(dialog.getByRole('table', { name: 'First rows' }).locator('tbody tr')).toHaveCount(20)
    await screenshot(page, `import-conversions-${size.width}`)

    await dialog.getByRole('button', { name: 'Import' }).click()
    const grid = page.getByRole('grid', { name: 'polars_frame' })
    await expect(grid).toHaveAttribute('aria-rowcount', '301')
    await expect(grid.getByRole('gridcell', { name: 'a longer string, row 1 — ünïcödé' }).first()).toBeVisible()
  })
}

test('CSV dates and timestamps are typed, or kept as text when asked', async ({ page, catalog }) => {
  const csv = ['id,day,at,note', '1,2024-02-29,2024-03-01T12:30:00.5Z,a', '2,2024-03-01,2024-03-02 08:00:00+02:00,b', ''].join('\n')
  await openApp(page, catalog.harness)
  await dropFile(page, treeItem(page, 'lab'), 'visits.csv', new TextEncoder().encode(csv))

  const dialog = sheet(page)
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Date32<DAY>$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^at\s*Timestamp<MICROSECOND, UTC>$/ })).toBeVisible()
  await screenshot(page, 'import-csv-dates')

  const keep = dialog.getByRole('checkbox', { name: 'Keep dates and times as text' })
  await keep.check()
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Utf8$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^at\s*Utf8$/ })).toBeVisible()
  await keep.uncheck()
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Date32<DAY>$/ })).toBeVisible()

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'visits' })
  await expect(grid).toHaveAttribute('aria-rowcount', '3')
  await expect(grid.getByRole('columnheader', { name: 'at' })).toBeVisible()
})

test('a JSON array is read as rows: how it is read and its column types are shown', async ({ page, catalog }) => {
  const records = Array.from({ length: 30 }, (_, i) => ({ id: 9007199254740993n + BigInt(i), title: `Film ${i}`, rating: i % 4 === 0 ? null : i / 2, tags: ['a', `t${i}`], cast: { lead: `L${i}` } }))
  const json = `[\n${records.map((r) => `  ${JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `@${v}@` : v)).replace(/"@(\d+)@"/g, '$1')}`).join(',\n')}\n]\n`
  await openApp(page, catalog.harness)
  await dropFile(page, treeItem(page, 'lab'), 'films.json', new TextEncoder().encode(json))

  const dialog = sheet(page)
  await expect(dialog.getByRole('region', { name: 'How the file is read' })).toContainText('rows: the elements of the top-level array')
  const types = dialog.getByRole('region', { name: 'Column types' })
  await expect(types.getByRole('combobox', { name: 'Type of id' })).toHaveValue('integer')
  await expect(types.getByRole('row', { name: /^id / })).toContainText('Int64: whole numbers kept exact beyond 2^53, e.g. 9007199254740993')
  await expect(types.getByRole('row', { name: /^rating / })).toContainText('8 of 30 empty → null')
  await expect(dialog.getByRole('region', { name: 'Schema to write' }).getByRole('listitem').filter({ hasText: /^cast\s*Struct/ })).toBeVisible()
  await screenshot(page, 'import-json-array')

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'films' })
  await expect(grid).toHaveAttribute('aria-rowcount', '31')
  await expect(grid.getByRole('gridcell', { name: '9007199254740993' })).toBeVisible()
})

test('a zip-code CSV says why the zips stay text; a column type changed before import is what gets written', async ({ page, catalog }) => {
  const csv = ['zip;city;population', '00501;Holtsville;', '02134;Boston;650000', '10001;New York;8400000', ''].join('\n')
  await openApp(page, catalog.harness)
  await dropFile(page, treeItem(page, 'lab'), 'zips.csv', new TextEncoder().encode(csv))

  const dialog = sheet(page)
  await expect(dialog.getByRole('region', { name: 'How the file is read' })).toContainText('delimiter: semicolon')
  const types = dialog.getByRole('region', { name: 'Column types' })
  await expect(types.getByRole('row', { name: /^zip / })).toContainText('text: values with leading zeros, e.g. 00501')
  await expect(types.getByRole('row', { name: /^population / })).toContainText('1 of 3 empty → null')
  await screenshot(page, 'import-zip-reason')

  // population as text, zip kept as text: the schema follows the choice.
  await types.getByRole('combobox', { name: 'Type of population' }).selectOption('text')
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(schema.getByRole('listitem').filter({ hasText: /^population\s*Utf8$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^zip\s*Utf8$/ })).toBeVisible()
  await screenshot(page, 'import-type-changed')

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'zips' })
  await expect(grid).toHaveAttribute('aria-rowcount', '4')
  await expect(grid.getByRole('gridcell', { name: '00501' })).toBeVisible()
  await expect(grid.getByRole('gridcell', { name: '8400000' })).toBeVisible()
})

test('an Excel workbook (written by openpyxl) imports its first sheet, or the sheet picked', async ({ page, catalog }) => {
  const bytes = await readFile(join(__dirname, '../fixtures/import/xlsx/people.xlsx'))
  await openApp(page, catalog.harness)
  await dropFile(page, treeItem(page, 'lab'), 'people.xlsx', bytes)

  const dialog = sheet(page)
  const readAs = dialog.getByRole('region', { name: 'How the file is read' })
  await expect(readAs).toContainText('Read as Excel workbook')
  await expect(readAs).toContainText('sheet "People" (the workbook also has "Notes")')
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(schema.getByRole('listitem').filter({ hasText: /^zip\s*Utf8$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^joined\s*Timestamp<MILLISECOND>$/ })).toBeVisible()
  const picker = dialog.getByRole('combobox', { name: 'Sheet' })
  await expect(picker).toHaveValue('People')
  await screenshot(page, 'import-xlsx')

  await picker.selectOption('Notes')
  await expect(readAs).toContainText('sheet "Notes"')
  await expect(schema.getByRole('listitem').filter({ hasText: /^count\s*Int64$/ })).toBeVisible()
  await picker.selectOption('People')
  await expect(schema.getByRole('listitem').filter({ hasText: /^zip\s*Utf8$/ })).toBeVisible()

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'people' })
  await expect(grid).toHaveAttribute('aria-rowcount', '5')
  await expect(grid.getByRole('gridcell', { name: '00501' })).toBeVisible()
  await expect(grid.getByRole('gridcell', { name: 'Ånne Ødegård' })).toBeVisible()
})
