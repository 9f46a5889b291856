import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { Table, type RecordBatch } from 'apache-arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { expect, gridCell, screenshot, test, treeItem } from '../helpers/e2e'
import { buildCatalog } from '../helpers/catalog'
import { duckdbAnswer, parquetTable, sqlFor, queryStatus as status, sqlEditor as editor, useSqlCatalog } from './sqlData'

/**
 * The query view (#39) in Chromium against the real core and its DuckDB engine over the harness: a join + group-by
 * gives DuckDB's own answer over the same rows in Parquet, at the latest and at an older version; Cancel stops a
 * long query; Save as table… writes the result through a job and opens the table; an error names its line and
 * column and the editor underlines its span.
 */
const setup = useSqlCatalog('lcb-e2e-sql-')

/** A screenshot in test-results, and with UPDATE_SCREENSHOTS=1 also the README's copy in resources/screenshots. */
async function keepScreenshot(page: Page, name: string) {
  const path = await screenshot(page, name)
  if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(path, join(__dirname, '..', '..', 'resources', 'screenshots', `${name}.png`))
}

/** New query, then the statement typed into the editor (CodeMirror: typed, as a user types; its brackets closing themselves are undone by select-all + insert). */
async function newQuery(page: Page, sql: string): Promise<void> {
  await page.getByRole('button', { name: 'New query' }).click()
  await expect(editor(page)).toBeVisible()
  await editor(page).click()
  await page.keyboard.insertText(sql)
}

/** The rendered rows of a grid, each as its cells' text. */
async function gridRows(grid: Locator, rows: number, columns: number): Promise<string[][]> {
  const out: string[][] = []
  for (let r = 0; r < rows; r += 1) {
    const row: string[] = []
    for (let c = 0; c < columns; c += 1) row.push((await gridCell(grid, r, c).textContent()) ?? '')
    out.push(row)
  }
  return out
}

async function runAndRead(page: Page, expected: string[][]): Promise<Locator> {
  await editor(page).press('ControlOrMeta+Enter')
  const grid = page.getByRole('grid', { name: 'Result' })
  await expect(status(page)).toContainText(`${expected.length} rows in`, { timeout: 60_000 })
  await expect(grid).toHaveAttribute('aria-rowcount', String(expected.length + 1))
  await expect(gridCell(grid, expected.length - 1, 0)).toHaveText(expected.at(-1)![0]!)
  expect(await gridRows(grid, expected.length, expected[0]!.length)).toEqual(expected)
  return grid
}

test('a join + group-by across two tables gives DuckDB’s answer over the same data in Parquet; at an older version too', async ({ page }) => {
  const latest = await duckdbAnswer(sqlFor(parquetTable(setup.parquet.ordersV2), parquetTable(setup.parquet.customers)))
  const older = await duckdbAnswer(sqlFor(parquetTable(setup.parquet.ordersV1), parquetTable(setup.parquet.customers)))
  expect(latest).not.toEqual(older)

  await newQuery(page, sqlFor('shop.orders'))
  await runAndRead(page, latest)
  // The status names the row count and the time taken.
  await expect(status(page)).toHaveText(/^\s*5 rows in [\d.]+ (ms|s)$/)
  await keepScreenshot(page, 'sql-query')

  // Explain: per table, what is pushed into Lance — only the columns the query needs (orders' id is never read).
  await page.getByRole('button', { name: 'Explain' }).click()
  const plan = page.getByRole('region', { name: 'Plan' })
  await expect(plan).toContainText('shop.orders @ version 2', { timeout: 60_000 })
  await expect(plan).toContainText(/Columns read\s*customer_id, amount/)
  await expect(plan).toContainText('HASH_JOIN')
  await plan.getByRole('button', { name: 'Close plan' }).click()
  await expect(page.getByRole('grid', { name: 'Result' })).toBeVisible()

  // The same statement at version 1 of orders, through the lance() table function.
  await editor(page).press('ControlOrMeta+a')
  await page.keyboard.insertText(sqlFor("lance('shop/orders', version => 1)"))
  await runAndRead(page, older)
})

test('a statement joins a table of another open catalog, named by its label: lance(path, catalog => label)', async ({ page }) => {
  // A second directory catalog, "crm", holding the same customers under another namespace.
  const source = await DirNamespaceClient.open(setup.root)
  const batches: RecordBatch[] = []
  for await (const batch of source.scan({ namespace: ['shop'], name: 'customers' }, {})) batches.push(batch)
  await source.close()
  const customers = new Table(batches)
  const second = await buildCatalog(join(setup.dir, 'crm'), { namespaces: [['crm']], tables: [{ namespace: ['crm'], name: 'customers', data: customers }] })
  await page.getByRole('button', { name: 'Open directory' }).click()
  await page.getByLabel('Directory path').fill(second)
  await page.getByRole('button', { name: 'Open', exact: true }).click()
  // The catalog's row (level 1): its namespace, also "crm", appears under it once listed.
  await expect(page.getByRole('treeitem', { name: 'crm', exact: true, level: 1 })).toBeVisible()

  // The new query is on the catalog just opened (crm); the orders are the first catalog's, by its label.
  await newQuery(page, sqlFor("lance('shop/orders', catalog => 'catalog')", 'crm.customers'))
  await runAndRead(page, await duckdbAnswer(sqlFor(parquetTable(setup.parquet.ordersV2), parquetTable(setup.parquet.customers))))
  await screenshot(page, 'sql-two-catalogs')
  // Explain names the other catalog a table came from; this catalog's own table names none.
  await page.getByRole('button', { name: 'Explain' }).click()
  const plan = page.getByRole('region', { name: 'Plan' })
  await expect(plan.getByRole('heading', { name: 'shop.orders @ version 2 · catalog catalog' })).toBeVisible({ timeout: 60_000 })
  await expect(plan.getByRole('heading', { name: 'crm.customers @ version 1', exact: true })).toBeVisible()
})

test('Ctrl/Cmd+Enter runs the statement under the caret; completion offers the catalog’s tables', async ({ page }) => {
  await newQuery(page, 'SELECT count(*) AS n FROM shop.customers;\nSELECT count(*) AS n FROM shop.orders;')
  // The caret is at the end: the second statement runs.
  await editor(page).press('ControlOrMeta+Enter')
  const grid = page.getByRole('grid', { name: 'Result' })
  await expect(gridCell(grid, 0, 0)).toHaveText('750', { timeout: 60_000 })
  // Up to the first line: the first statement.
  await editor(page).press('ControlOrMeta+Home')
  await editor(page).press('ControlOrMeta+Enter')
  await expect(gridCell(grid, 0, 0)).toHaveText('40', { timeout: 60_000 })

  await editor(page).press('ControlOrMeta+End')
  await page.keyboard.insertText('\nSELECT * FROM shop.ord')
  await page.keyboard.press('Control+Space')
  await expect(page.getByRole('listbox').getByRole('option', { name: /orders/ })).toBeVisible()
  await page.keyboard.press('Escape')

  // The catalog's history, newest first: choosing an entry puts it in the editor.
  await page.getByRole('button', { name: 'History' }).click()
  const history = page.getByRole('menu', { name: 'Query history' }).getByRole('menuitem')
  await expect(history.first()).toHaveText('SELECT count(*) AS n FROM shop.customers')
  await expect(history.nth(1)).toHaveText('SELECT count(*) AS n FROM shop.orders')
  await history.nth(1).click()
  await expect(editor(page)).toHaveText('SELECT count(*) AS n FROM shop.orders')
})

test('Cancel stops a running query; the status says so and the view takes the next one', async ({ page }) => {
  // Three copies of orders cross-joined: 750³ ≈ 420 million rows to count, far longer than the test waits.
  await newQuery(page, 'SELECT count(*) FROM shop.orders a, shop.orders b, shop.orders c WHERE a.amount + b.amount + c.amount = -1')
  await editor(page).press('ControlOrMeta+Enter')
  const cancel = page.getByRole('button', { name: 'Cancel' })
  await expect(cancel).toBeEnabled()
  await expect(status(page)).toContainText('Running')
  await cancel.click()
  await expect(status(page)).toContainText('Cancelled', { timeout: 30_000 })
  await expect(cancel).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled()

  await editor(page).press('ControlOrMeta+a')
  await page.keyboard.insertText('SELECT 41 + 1 AS answer')
  await editor(page).press('ControlOrMeta+Enter')
  await expect(gridCell(page.getByRole('grid', { name: 'Result' }), 0, 0)).toHaveText('42', { timeout: 60_000 })
})

test('Save as table… writes the result into a namespace through a job, then the table opens', async ({ page }) => {
  const latest = await duckdbAnswer(sqlFor(parquetTable(setup.parquet.ordersV2), parquetTable(setup.parquet.customers)))
  await newQuery(page, sqlFor('shop.orders'))
  await runAndRead(page, latest)
  await page.getByRole('button', { name: 'Save as table…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save as table' })
  await dialog.getByLabel('Namespace').selectOption({ label: 'shop' })
  await dialog.getByLabel('Table name').fill('by_region')
  await screenshot(page, 'sql-save-as-table')
  await dialog.getByRole('button', { name: 'Save as table' }).click()
  await expect(dialog).toBeHidden()
  // The job ends and the new table opens, with the result's rows.
  const grid = page.getByRole('grid', { name: 'by_region' })
  await expect(grid).toBeVisible({ timeout: 60_000 })
  await expect(treeItem(page, 'by_region')).toBeVisible()
  await expect(grid).toHaveAttribute('aria-rowcount', String(latest.length + 1))
  expect(await gridRows(grid, latest.length, 3)).toEqual(latest)
  const client = await DirNamespaceClient.open(setup.root)
  try {
    expect((await client.listTables(['shop'])).items).toContain('by_region')
  } finally {
    await client.close()
  }
})

test('an error is an alert naming its line and column, and the editor underlines its span', async ({ page }) => {
  await newQuery(page, 'SELECT region\nFROM shop.customers\nWHERE regoin = 1')
  await editor(page).press('ControlOrMeta+Enter')
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('line 3, column 7', { timeout: 60_000 })
  const mark = page.getByTestId('sql-error-mark')
  await expect(mark).toHaveText('regoin')
  await expect(status(page)).toContainText('Failed at line 3, column 7')
  await screenshot(page, 'sql-error')
  // Edited away, the underline goes.
  await mark.click()
  await editor(page).press('ControlOrMeta+a')
  await page.keyboard.insertText('SELECT 1')
  await expect(mark).toHaveCount(0)
})
