/**
 * Spreadsheets as people make them (issue #40, item 5) and a name clash said where it is seen (item 9), in the import
 * sheet: workbooks written by openpyxl (tests/fixtures/import/xlsx/make.py) with a title row above the header, a
 * "Total" footer, a table that starts at C5, two sheets of one layout, and dates stored as Excel serial numbers with
 * a date format.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { dir: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-import-spreadsheet-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [] })
    const harness = await startHarness({ root })
    await use({ dir, harness })
    await harness.close()
    await removeDir(dir)
  },
})

const FIXTURES = join(__dirname, '../fixtures/import/xlsx')
const sheet = (page: Page) => page.getByRole('dialog', { name: /^Import / })
const field = (schema: Locator, text: RegExp) => schema.getByRole('listitem').filter({ hasText: text })

async function dropWorkbook(page: Page, file: string): Promise<Locator> {
  await dropFiles(page, treeItem(page, 'lab'), [{ name: file, bytes: await readFile(join(FIXTURES, file)) }])
  return sheet(page)
}

test('the header row below a title is found; changing the header row and the cells, the preview follows', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const dialog = await dropWorkbook(page, 'report.xlsx')
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  const header = dialog.getByRole('textbox', { name: 'Header row' })
  // Found: row 3, the title row above it left out — not "Sales report…" as the first column's name.
  await expect(dialog.getByText('Row 3 names the columns; the title row above it left out.')).toBeVisible()
  await expect(header).toHaveAttribute('placeholder', '3')
  await expect(dialog.getByRole('region', { name: 'How the file is read' })).toContainText('left out as a title: “Sales report, Q1 2024”')
  await expect(field(schema, /^order\s*Utf8$/)).toBeVisible() // the "Total" footer is text
  await expect(field(schema, /^region\s*Utf8$/)).toBeVisible()
  const first = dialog.getByRole('table', { name: 'First rows' })
  await expect(first.getByRole('columnheader', { name: 'region' })).toBeVisible()
  await screenshot(page, 'import-spreadsheet-header-found')

  // The header row typed: row 1 names the columns, and the preview follows.
  await header.fill('1')
  await expect(field(schema, /^Sales report, Q1 2024\s*Utf8$/)).toBeVisible()
  await expect(first.getByRole('columnheader', { name: 'Sales report, Q1 2024' })).toBeVisible()
  await header.fill('3')
  await expect(field(schema, /^region\s*Utf8$/)).toBeVisible()

  // A range that leaves the footer out: order is whole numbers again.
  const cells = dialog.getByRole('textbox', { name: 'Cells' })
  await cells.fill('B3-E8')
  await expect(dialog.getByText('The range must look like B3:F200 (or B:F for whole columns)')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
  await cells.fill('A3:E8')
  await expect(field(schema, /^order\s*Int64$/)).toBeVisible()
  await expect(dialog.getByText('Only cells A3:E8 are read.')).toBeVisible()
  await screenshot(page, 'import-spreadsheet-range')

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'report' })
  await expect(grid).toHaveAttribute('aria-rowcount', '6')
  await expect(grid.getByRole('gridcell', { name: 'north' }).first()).toBeVisible()
})

test('a table that starts at C5 with a remark beside it imports by its range', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const dialog = await dropWorkbook(page, 'offset.xlsx')
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(dialog.getByText(/^Row 5 names the columns/)).toBeVisible()
  await expect(field(schema, /^column 8\s*Utf8$/)).toBeVisible() // the remark in H7
  await dialog.getByRole('textbox', { name: 'Cells' }).fill('C5:F10')
  await expect(field(schema, /^column 8/)).toHaveCount(0)
  await expect(field(schema, /^taken\s*Date32<DAY>$/)).toBeVisible()
  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'offset' })
  await expect(grid).toHaveAttribute('aria-rowcount', '6')
  await expect(grid.getByRole('columnheader', { name: /^station/ })).toBeVisible()
})

test('a date column (serial numbers with a date format) is typed as a date', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const dialog = await dropWorkbook(page, 'report.xlsx')
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(field(schema, /^day\s*Date32<DAY>$/)).toBeVisible()
  await expect(field(schema, /^shipped\s*Timestamp<MILLISECOND>$/)).toBeVisible()
  const types = dialog.getByRole('region', { name: 'Column types' })
  await expect(types.getByRole('combobox', { name: 'Type of day' })).toHaveValue('date')
  await dialog.getByRole('textbox', { name: 'Cells' }).fill('A3:E8')
  await expect(field(schema, /^order\s*Int64$/)).toBeVisible()
  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'report' })
  await expect(grid).toHaveAttribute('aria-rowcount', '6')
  await expect(grid.getByRole('gridcell', { name: '2024-01-05', exact: true })).toBeVisible()
})

test('two sheets become two tables, or one table', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  let dialog = await dropWorkbook(page, 'report.xlsx')
  const sheets = dialog.getByRole('group', { name: 'Sheets to import' })
  await expect(sheets.getByRole('checkbox', { name: 'Q1' })).toBeChecked()
  await expect(sheets.getByRole('checkbox', { name: 'Q2' })).not.toBeChecked()
  await dialog.getByRole('textbox', { name: 'Cells' }).fill('A3:E8')
  await sheets.getByRole('checkbox', { name: 'Q2' }).check()
  await expect(dialog.getByRole('radio', { name: 'A table per sheet' })).toBeChecked()
  await expect(dialog.getByText('Tables report_Q1, report_Q2;')).toBeVisible()
  await screenshot(page, 'import-spreadsheet-two-sheets')
  await dialog.getByRole('button', { name: 'Import 2 tables' }).click()
  await expect(page.getByRole('dialog', { name: /^Import / })).toHaveCount(0)
  await expect(treeItem(page, 'report_Q1')).toBeVisible()
  await expect(treeItem(page, 'report_Q2')).toBeVisible()
  await treeItem(page, 'report_Q2').click()
  const q2 = page.getByRole('grid', { name: 'report_Q2' })
  await expect(q2).toHaveAttribute('aria-rowcount', '6')
  await expect(q2.getByRole('gridcell', { name: '101', exact: true })).toBeVisible()

  // The same two sheets as one table: ten rows.
  dialog = await dropWorkbook(page, 'report.xlsx')
  await dialog.getByRole('textbox', { name: 'Cells' }).fill('A3:E8')
  await dialog.getByRole('group', { name: 'Sheets to import' }).getByRole('checkbox', { name: 'Q2' }).check()
  await dialog.getByRole('radio', { name: 'One table' }).check()
  await expect(dialog.getByRole('region', { name: 'How the file is read' })).toContainText('sheets "Q1", "Q2", one after another')
  await dialog.getByRole('textbox', { name: 'Table name' }).fill('year')
  await dialog.getByRole('button', { name: 'Import' }).click()
  const year = page.getByRole('grid', { name: 'year' })
  await expect(year).toHaveAttribute('aria-rowcount', '11')
})

test('a name clash is said at the top of the sheet, with Append when the columns match', async ({ page, catalog }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  await openApp(page, catalog.harness)
  let dialog = await dropWorkbook(page, 'people.xlsx')
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByRole('grid', { name: 'people' })).toHaveAttribute('aria-rowcount', '5')

  dialog = await dropWorkbook(page, 'people.xlsx')
  const clash = dialog.getByRole('alert', { name: 'Name taken' })
  await expect(clash).toContainText('A table named “people” already exists in lab (4 rows).')
  await expect(clash).toContainText('Its columns match the file’s')
  // At the top: seen without scrolling the sheet.
  await expect(clash).toBeInViewport()
  const box = await clash.boundingBox()
  const title = await dialog.getByRole('heading', { name: 'Import people.xlsx' }).boundingBox()
  expect(box!.y - (title!.y + title!.height)).toBeLessThan(80)
  await screenshot(page, 'import-spreadsheet-name-clash')
  await expect(dialog.getByRole('radio', { name: 'Append' })).toBeEnabled()
  await clash.getByRole('button', { name: 'Append to “people”' }).click()
  await expect(dialog.getByRole('radio', { name: 'Append' })).toBeChecked()
  await expect(clash).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Append', exact: true }).click()
  await treeItem(page, 'people').click()
  await expect(page.getByRole('grid', { name: 'people' })).toHaveAttribute('aria-rowcount', '9')
})
