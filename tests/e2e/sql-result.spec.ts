import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { parse } from 'csv-parse/sync'
import { expect, gridCell, screenshot, test } from '../helpers/e2e'
import { duckdbAnswer, parquetTable, queryStatus as status, sqlEditor as editor, useSqlCatalog } from './sqlData'
import { expectToolOn, moreTools, toolbarButton } from './toolbar'

/**
 * A query result is a view like a table (#39 item 4): Export…, the Summary and the Map of the result, through the
 * table's own sheet and panels (the result opened as a read-only table in the app's temp folder), in Chromium over
 * the harness against the real core and DuckDB.
 */
const setup = useSqlCatalog('lcb-e2e-sql-result-')

/** Orders over 5,000 with their customer's region and a 3-d vector made in SQL (DuckDB's FLOAT[3]). */
const RESULT_SQL = (orders: string, customers: string) => `SELECT o.id, c.region, o.amount, [o.amount / 100, o.id, 1]::FLOAT[3] AS v
FROM ${orders} AS o JOIN ${customers} AS c ON o.customer_id = c.id
WHERE o.amount > 5000
ORDER BY o.id`

async function runResult(page: Page): Promise<string[][]> {
  const expected = await duckdbAnswer(RESULT_SQL(parquetTable(setup.parquet.ordersV2), parquetTable(setup.parquet.customers)))
  await page.getByRole('button', { name: 'New query' }).click()
  await editor(page).click()
  await page.keyboard.insertText(RESULT_SQL('shop.orders', 'shop.customers'))
  await editor(page).press('ControlOrMeta+Enter')
  await expect(status(page)).toContainText(`${expected.length} rows in`, { timeout: 60_000 })
  await expect(gridCell(page.getByRole('grid', { name: 'Result' }), 0, 0)).toHaveText(expected[0]![0]!)
  return expected
}

/** The leftmost drawn pixel of the map's points canvas (CSS pixels from its corner), read back. */
function leftmostPoint(page: Page): Promise<[number, number]> {
  return page.getByTestId('map-points').evaluate((canvas: HTMLCanvasElement) => {
    const copy = document.createElement('canvas')
    copy.width = canvas.width
    copy.height = canvas.height
    const ctx = copy.getContext('2d')!
    ctx.drawImage(canvas, 0, 0)
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height)
    const ratio = canvas.width / canvas.clientWidth
    let best: [number, number] = [Infinity, 0]
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue
      const x = ((i / 4) % copy.width) / ratio
      if (x < best[0]) best = [x, Math.floor(i / 4 / copy.width) / ratio]
    }
    return best
  })
}

test('copy takes the result’s rows as TSV; Export… writes them through the table’s export sheet (a download in the harness)', async ({ page }) => {
  const result = await runResult(page)
  const rows = result.length
  // Copy: the Result grid is the table's grid, so Ctrl/Cmd+A, Ctrl/Cmd+C copy every row (a header row first; null empty).
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(setup.harness.url).origin })
  const grid = page.getByRole('grid', { name: 'Result' })
  await gridCell(grid, 0, 0).click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('ControlOrMeta+c')
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText())
  await expect.poll(async () => (await clipboard()).trimEnd().split('\n').map((line) => line.split('\t').slice(0, 3))).toEqual([['id', 'region', 'amount'], ...result.map((row) => row.slice(0, 3).map((cell) => (cell === 'NULL' ? '' : cell)))])

  await page.getByRole('button', { name: 'Export…' }).click()
  const sheet = page.getByRole('dialog', { name: /^Export query_result_/ })
  await expect(sheet).toBeVisible({ timeout: 60_000 })
  await expect(sheet).toContainText(`${rows}`)
  await sheet.getByRole('radio', { name: /^CSV/ }).check()
  const download = page.waitForEvent('download')
  await sheet.getByRole('button', { name: 'Export', exact: true }).click()
  const file = await download
  const path = join(setup.dir, `download-${file.suggestedFilename()}`)
  await file.saveAs(path)
  const records = parse(await readFile(path), { columns: true }) as Record<string, string>[]
  const expected = await duckdbAnswer(`SELECT id, region, amount FROM (${RESULT_SQL(parquetTable(setup.parquet.ordersV2), parquetTable(setup.parquet.customers))})`)
  expect(records.map((r) => [r.id, r.region || 'NULL', r.amount])).toEqual(expected)
  // The copy lives in the app's temp folder: the catalog holds only its own tables.
  expect((await readdir(join(setup.root, 'shop'), { withFileTypes: true }).catch(() => [])).map((e) => e.name).filter((n) => n.includes('query_result'))).toEqual([])
})

test('the Summary profiles the result and the Map places its vectors; a row picked on the map is selected in the grid', async ({ page }) => {
  const result = await runResult(page)
  const rows = result.length
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByTestId('summary-meta')).toHaveText(`Version 1 · ${rows} rows`, { timeout: 60_000 })
  await expect(summary).toContainText('region')
  await expect(summary).toContainText('amount')

  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const map = page.getByRole('region', { name: 'Embedding map' })
  await expect(map.getByTestId('map-meta')).toContainText(`v · version 1 · ${rows} points`, { timeout: 60_000 })
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', String(rows))
  await screenshot(page, 'sql-result-summary-map')
  // A click on a point selects its row in the Result grid (the result table's rows are the result's, in order).
  const [x, y] = await leftmostPoint(page)
  const overlay = (await map.getByTestId('map-overlay').boundingBox())!
  await page.mouse.click(overlay.x + x + 1, overlay.y + y + 1)
  const selected = map.getByRole('status', { name: 'Selected point' })
  await expect(selected).toContainText(/Row [\d,]+ selected/)
  const row = Number((await selected.textContent())!.match(/Row ([\d,]+)/)![1]!.replace(/,/g, ''))
  const grid = page.getByRole('grid', { name: 'Result' })
  await expect(grid.locator('[role="row"]:has([aria-selected="true"])').first()).toContainText(result[row - 1]![1]!)
  await expect(gridCell(grid, row - 1, 0)).toHaveText(result[row - 1]![0]!)

  // A bar of the Summary: a result has no filter bar, so the condition to add to the query is said instead.
  await page.getByRole('tab', { name: 'Summary' }).click()
  await summary.locator('.summary-bar').first().click()
  await expect(page.getByRole('note')).toContainText('add this condition to the query’s WHERE')

  // Run another statement: the open Summary follows the new result.
  await editor(page).press('ControlOrMeta+a')
  await page.keyboard.insertText('SELECT region, count(*) AS n FROM shop.customers GROUP BY region')
  await editor(page).press('ControlOrMeta+Enter')
  await expect(status(page)).toContainText('5 rows in', { timeout: 60_000 })
  await expect(summary.getByTestId('summary-meta')).toHaveText('Version 1 · 5 rows', { timeout: 60_000 })
  // No vector column in this result: no Map button.
  await expect(page.getByRole('button', { name: 'Map', exact: true })).toHaveCount(0)
})

test('a result too long to open as a table is refused in words where the Summary would show', async ({ page }) => {
  await page.getByRole('button', { name: 'New query' }).click()
  await editor(page).click()
  await page.keyboard.insertText('SELECT i FROM range(1200000) t(i)')
  await editor(page).press('ControlOrMeta+Enter')
  // The result is read only as far as it is shown until the Summary asks for all of it.
  await expect(status(page)).toContainText('rows so far', { timeout: 60_000 })
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByRole('alert')).toContainText('at least 1,000,000 rows', { timeout: 60_000 })
  await expect(summary).toContainText('Save as table…')
  await screenshot(page, 'sql-result-too-long')
  await expect(status(page)).toContainText(/The first [\d,]+ rows in/, { timeout: 60_000 })
  // Capped, the query runs no further: Run and Save as table… are free again, Cancel has nothing to stop.
  await expect(page.getByRole('button', { name: 'Run' })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Save as table…' })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeDisabled()
})

test('in a 700×600 window the query toolbar keeps one line: Summary and History are reached through More tools', async ({ page }) => {
  // (At 900×600 it holds every button, Map included, on its line.)
  await page.setViewportSize({ width: 700, height: 600 })
  await runResult(page)
  const view = page.getByRole('region', { name: 'Query' })
  const toolbar = view.locator('.overflow-toolbar')
  await expect(toolbar).toHaveAttribute('data-measured', 'true')
  const middles = () => toolbar.locator(':scope > *:not([hidden])').evaluateAll((els) => new Set(els.map((e) => Math.round((e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2))).size)
  await expect.poll(middles).toBe(1)
  await expect(view.getByRole('button', { name: 'Run', exact: true })).toBeVisible()
  await expect(moreTools(view)).toBeVisible()
  await toolbarButton(view, 'Summary')
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  await expectToolOn(view, 'Summary', true)
  await screenshot(page, 'sql-toolbar-overflow-700x600')
  // History from More tools opens the query history under it; choosing an entry puts it in the editor.
  await toolbarButton(view, 'History')
  const history = page.getByRole('menu', { name: 'Query history' })
  await expect(history).toBeVisible()
  await history.getByRole('menuitem').first().click()
  await expect(history).toHaveCount(0)
})
