import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import { gridCell } from '../helpers/e2e'
import { buildSqlCatalog, duckdbAnswer, parquetTable, sqlFor } from '../e2e/sqlData'
import type { DesktopApp } from './app'
import { launchRig } from './rig/rig'

/**
 * The query view on the desktop rig (the built main bundle, its menu, the sandboxed preload, the catalog host):
 * File › New Query's shortcut opens it over the selected catalog, and the join + group-by gives DuckDB's own
 * answer over the same rows in Parquet, at the latest version and at an older one; Save as table… writes it and opens
 * the table; Cancel stops a long query; an error is underlined; a result's Export… goes through the save dialog.
 */
let dir: string
let built: Awaited<ReturnType<typeof buildSqlCatalog>>

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await mkdtemp(join(tmpdir(), 'lcb-desktop-sql-'))
  built = await buildSqlCatalog(dir)
})
test.afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const editor = (page: Page) => page.getByRole('textbox', { name: 'SQL' })

/** The rig's window with the SQL catalog opened through File › Open Directory… and the native dialog. */
async function openSqlCatalog(app: DesktopApp): Promise<Page> {
  const page = await app.window()
  await expect(page.getByRole('tree')).toBeVisible({ timeout: 120_000 })
  await app.answerNextDialog('open', [built.root])
  await app.clickMenu('File', 'Open Directory…')
  await expect(page.getByRole('treeitem', { name: basename(built.root), exact: true })).toHaveAttribute('aria-expanded', 'true')
  return page
}

/** File › New Query's shortcut (Ctrl/Cmd+Shift+N), `sql` typed into its editor and run (Ctrl/Cmd+Enter). */
async function newQuery(app: DesktopApp, page: Page, sql: string): Promise<void> {
  await app.pressAccelerator('CmdOrCtrl+Shift+N')
  await editor(page).click()
  await page.keyboard.insertText(sql)
  await editor(page).press('ControlOrMeta+Enter')
}

// eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
test('New Query (Ctrl/Cmd+Shift+N), a join + group-by as DuckDB answers it over Parquet, an older version, Save as table, Cancel, an error underlined', async ({}, testInfo) => {
  test.setTimeout(240_000)
  const latest = await duckdbAnswer(sqlFor(parquetTable(built.parquet.ordersV2), parquetTable(built.parquet.customers)))
  const older = await duckdbAnswer(sqlFor(parquetTable(built.parquet.ordersV1), parquetTable(built.parquet.customers)))
  const app = await launchRig({ userData: testInfo.outputPath('userData') })
  try {
    const page = await openSqlCatalog(app)
    await newQuery(app, page, sqlFor('shop.orders'))
    await expect(page.getByRole('region', { name: 'Query' })).toContainText(basename(built.root))
    const grid = page.getByRole('grid', { name: 'Result' })
    const status = page.getByRole('region', { name: 'Query' }).getByRole('status', { name: 'Query status' })
    await expect(status).toContainText(`${latest.length} rows in`, { timeout: 60_000 })
    for (const [r, row] of latest.entries()) for (const [c, cell] of row.entries()) await expect(gridCell(grid, r, c)).toHaveText(cell)

    await editor(page).press('ControlOrMeta+a')
    await page.keyboard.insertText(sqlFor("lance('shop/orders', version => 1)"))
    await editor(page).press('ControlOrMeta+Enter')
    for (const [r, row] of older.entries()) for (const [c, cell] of row.entries()) await expect(gridCell(grid, r, c)).toHaveText(cell, { timeout: 60_000 })

    // Save as table…: a job in the catalog host, then the new table opens with the result's rows.
    await page.getByRole('button', { name: 'Save as table…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Save as table' })
    await dialog.getByLabel('Namespace').selectOption({ label: 'shop' })
    await dialog.getByLabel('Table name').fill('by_region_v1')
    await dialog.getByRole('button', { name: 'Save as table' }).click()
    const saved = page.getByRole('grid', { name: 'by_region_v1' })
    await expect(saved).toHaveAttribute('aria-rowcount', String(older.length + 1), { timeout: 60_000 })
    for (const [c, cell] of older[0]!.entries()) await expect(gridCell(saved, 0, c)).toHaveText(cell)

    // Cancel: a cross join far too long to finish stops, and the view takes the next statement.
    await newQuery(app, page, 'SELECT count(*) FROM shop.orders a, shop.orders b, shop.orders c WHERE a.amount + b.amount + c.amount = -1')
    await expect(status).toContainText('Running')
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(status).toContainText('Cancelled', { timeout: 30_000 })

    await editor(page).press('ControlOrMeta+a')
    await page.keyboard.insertText('SELECT region\nFROM shop.customers\nWHERE regoin = 1')
    await editor(page).press('ControlOrMeta+Enter')
    await expect(page.getByRole('alert')).toContainText('line 3, column 7', { timeout: 60_000 })
    await expect(page.getByTestId('sql-error-mark')).toHaveText('regoin')
    await page.screenshot({ path: join('test-results', 'desktop-rig-sql.png') })
  } finally {
    await app.dispose()
  }
})

// eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
test('Export… of a query result through the save dialog: the file holds the result’s rows, as DuckDB answers over Parquet', async ({}, testInfo) => {
  test.setTimeout(180_000)
  const expected = await duckdbAnswer(sqlFor(parquetTable(built.parquet.ordersV2), parquetTable(built.parquet.customers)))
  const app = await launchRig({ userData: testInfo.outputPath('userData') })
  try {
    const page = await openSqlCatalog(app)
    await newQuery(app, page, sqlFor('shop.orders'))
    const status = page.getByRole('region', { name: 'Query' }).getByRole('status', { name: 'Query status' })
    await expect(status).toContainText(`${expected.length} rows in`, { timeout: 60_000 })

    // The table's export sheet, for the result: the save dialog asks where, the job writes there.
    const target = join(testInfo.outputPath(), 'by-region.csv')
    await app.answerNextDialog('save', target)
    await page.getByRole('button', { name: 'Export…' }).click()
    const sheet = page.getByRole('dialog', { name: /^Export query_result_/ })
    await sheet.getByRole('radio', { name: /^CSV/ }).check()
    await sheet.getByRole('button', { name: 'Export', exact: true }).click()
    await expect(sheet).toBeHidden({ timeout: 60_000 })
    const indicator = page.getByRole('button', { name: /^Jobs: / })
    await expect(indicator).toContainText('ended', { timeout: 60_000 })
    if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
    await expect(page.getByRole('listitem', { name: /^Export of query_result_/ }).first()).toContainText('Done')
    const records = parse(await readFile(target), { columns: true }) as Record<string, string>[]
    expect(records.map((r) => [r.region || 'NULL', r.orders, r.total])).toEqual(expected)
    expect((await app.dialogsShown()).map((d) => d.kind)).toEqual(['open', 'save'])
  } finally {
    await app.dispose()
  }
})
