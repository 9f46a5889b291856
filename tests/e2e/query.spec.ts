import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { Page, Route } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, gridCell, gridRow, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * Asking the data: filter, sort, go to row, find similar rows, full-text search, and one version per
 * view — in Chromium against the real core over the harness. `big` has 260,000 rows (ids 0…259,999, label
 * "row-<i>", score i/2, note null every 5th row, an 8-d vector) and an FTS index on `label`.
 */
const BIG_ROWS = 260_000
let dir: string
let root: string

test.beforeAll(async () => {
  test.setTimeout(180_000)
  dir = await makeTempDir('lcb-e2e-query-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'big', data: sampleTable(BIG_ROWS, { dimension: 8 }) },
      { namespace: [], name: 'small', rows: 1000 },
    ],
  })
  const db = await lancedb.connectNamespace('dir', { root })
  const big = await db.openTable('big')
  await big.createIndex('label', { config: lancedb.Index.fts() })
})

test.afterAll(async () => {
  await removeDir(dir)
})

let harness: Harness
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

const filterBox = (page: Page) => page.getByRole('textbox', { name: 'Filter rows' })
const rowCount = (page: Page) => page.getByTestId('row-count')

async function applyFilter(page: Page, predicate: string) {
  await filterBox(page).fill(predicate)
  await filterBox(page).press('Enter')
}

test('filter: the count, aria-rowcount and the last row follow the predicate; a bad one shows Lance’s message', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  await expect(rowCount(page)).toHaveText('260,000')
  await applyFilter(page, 'id % 1000 = 7 AND note IS NOT NULL')
  await expect(rowCount(page)).toHaveText('260')
  await expect(grid).toHaveAttribute('aria-rowcount', '261')
  await expect(gridCell(grid, 0, 0)).toHaveText('7')
  // Drag to the end: the last matching rows.
  await grid.evaluate((g) => {
    g.scrollTop = g.scrollHeight
  })
  await expect(gridCell(grid, 259, 0)).toHaveText('259007')
  await screenshot(page, 'query-filter')

  // A bad predicate: Lance's message under the box; the grid keeps what it showed.
  await applyFilter(page, 'score >>> 1')
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('`>>` is not an operator of filters')
  await expect(rowCount(page)).toHaveText('260')
  await expect(grid).toHaveAttribute('aria-rowcount', '261')
  // (The message takes some height, so the window shows a few rows less; they are still the filtered rows.)
  await expect(gridCell(grid, 250, 0)).toHaveText('250007')
  await screenshot(page, 'query-bad-predicate')

  // Escape clears: the whole table again.
  await filterBox(page).press('Escape')
  await expect(rowCount(page)).toHaveText('260,000')
  await expect(page.getByRole('alert')).toHaveCount(0)
  // The recent filters remember the good one.
  await page.getByRole('button', { name: 'Recent filters' }).click()
  await expect(page.getByRole('option', { name: 'id % 1000 = 7 AND note IS NOT NULL' })).toBeVisible()
})

test('one answer per question: while a filter, sort or search runs or after it fails, the rows and count on screen are named the previous result', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  const label = page.getByTestId('row-count-label')
  const note = page.getByRole('status', { name: 'Previous result' })
  const status = page.getByRole('status', { name: 'Table status' })
  await applyFilter(page, 'id < 100')
  await expect(rowCount(page)).toHaveText('100')
  await expect(label).toHaveText('Matching rows')
  await expect(note).toHaveCount(0)

  // A refused filter: its message, and the rows of `id < 100` are said to be the previous result — header, note, status bar.
  await applyFilter(page, 'no_such_column > 1')
  await expect(page.getByRole('alert')).toBeVisible()
  await expect(label).toHaveText('Matching rows (previous result)')
  await expect(note).toContainText('the 100 rows shown are for the filter id < 100')
  await expect(note).toContainText('The filter no_such_column > 1 could not be applied')
  await expect(status).toContainText('of 100 (previous result)')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await screenshot(page, 'query-previous-result')
  // Editing the box back to the filter on screen: the screen answers the box again.
  await filterBox(page).fill('id < 100')
  await expect(note).toHaveCount(0)
  await expect(label).toHaveText('Matching rows')
  await expect(status).not.toContainText('previous result')

  // A filter still running (its count held, as a slow disk would): the old count is not its answer.
  const held: Route[] = []
  await page.route('**/api/tables/count', async (route) => {
    const body = route.request().postDataJSON() as { view?: { filter?: string; search?: unknown } }
    if (body.view?.filter === 'id < 50' || body.view?.search) held.push(route)
    else await route.continue()
  })
  await applyFilter(page, 'id < 50')
  await expect(note).toContainText('Waiting for the filter id < 50…')
  await expect(label).toHaveText('Matching rows (previous result)')
  await expect.poll(() => held.length).toBe(1)
  await held.shift()!.continue()
  await expect(rowCount(page)).toHaveText('50')
  await expect(note).toHaveCount(0)
  await expect(label).toHaveText('Matching rows')

  // A text search running: the same.
  const search = page.getByRole('searchbox', { name: 'Full-text search' })
  await search.fill('row-7')
  await search.press('Enter')
  await expect(note).toContainText('Waiting for the search “row-7”…')
  await expect(label).toHaveText('Matching rows (previous result)')
  await expect.poll(() => held.length).toBe(1)
  await held.shift()!.continue()
  await expect(label).toHaveText('Search results')
  await expect(note).toHaveCount(0)
  await search.fill('')
  await expect(label).toHaveText('Matching rows')
  await page.unroute('**/api/tables/count')

  // A sort refused (its first page fails): the header keeps the sort on screen and the rows are named the previous result.
  await page.route('**/api/tables/page', async (route) => {
    const body = route.request().postDataJSON() as { view?: { sort?: unknown } }
    if (body.view?.sort) await route.fulfill({ json: { ok: false, error: { code: 'unavailable', message: 'The disk went away' } } })
    else await route.continue()
  })
  const header = grid.getByRole('columnheader', { name: 'score' })
  await header.click()
  await expect(page.getByRole('alert')).toContainText('The disk went away')
  await expect(header).toHaveAttribute('aria-sort', 'none')
  await expect(note).toContainText('the 50 rows shown are for the filter id < 50')
  await expect(note).toContainText('Sorting by score ascending could not be applied')
  await expect(label).toHaveText('Matching rows (previous result)')
  // A new question answered: one answer on screen again.
  await page.unroute('**/api/tables/page')
  await applyFilter(page, 'id < 10')
  await expect(rowCount(page)).toHaveText('10')
  await expect(note).toHaveCount(0)
  await expect(label).toHaveText('Matching rows')
})

test('quick filters from a cell: filter to this value (int64 exact), exclude it, is null; Ctrl+F focuses the box', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  await gridCell(grid, 3, 0).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Filter to this value' }).click()
  await expect(filterBox(page)).toHaveValue('id = 3')
  await expect(rowCount(page)).toHaveText('1')
  await filterBox(page).press('Escape')
  await expect(rowCount(page)).toHaveText('260,000')
  await gridCell(grid, 0, 3).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Is null' }).click()
  await expect(filterBox(page)).toHaveValue('note IS NULL')
  await expect(rowCount(page)).toHaveText('52,000')
  await gridCell(grid, 0, 0).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Exclude this value' }).click()
  await expect(filterBox(page)).toHaveValue('(note IS NULL) AND (id IS NULL OR id <> 0)')
  await expect(rowCount(page)).toHaveText('51,999')
  await grid.focus()
  await page.keyboard.press('Control+f')
  await expect(filterBox(page)).toBeFocused()
})

test('sort by clicking a header: ascending, descending, none — combined with a filter', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  const header = grid.getByRole('columnheader', { name: 'score' })
  await expect(header).toHaveAttribute('aria-sort', 'none')
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect(gridCell(grid, 0, 0)).toHaveText('259999')
  await applyFilter(page, 'id < 1000')
  await expect(rowCount(page)).toHaveText('1,000')
  await expect(gridCell(grid, 0, 0)).toHaveText('999')
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await screenshot(page, 'query-sort')
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'none')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
})

test('go to row 250,001 (Ctrl+G): the grid scrolls there and selects it', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  await grid.focus()
  await page.keyboard.press('Control+g')
  const dialog = page.getByRole('dialog', { name: 'Go to row' })
  await dialog.getByRole('textbox').fill('250,001')
  await dialog.getByRole('textbox').press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(gridCell(grid, 250_000, 0)).toHaveText('250000')
  await expect(gridCell(grid, 250_000, 0)).toHaveAttribute('aria-selected', 'true')
  await expect(gridRow(grid, 250_000).getByRole('rowheader')).toHaveText('250,001')
  await expect(grid).toBeFocused()
  await screenshot(page, 'query-go-to-row')
})

test('find similar rows: the source row first at distance 0, with metric, k and whether the index was used', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'big')
  await gridCell(grid, 5, 1).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
  const bar = page.getByRole('region', { name: 'Similar rows' })
  await expect(bar).toContainText('Nearest 20 to row 6')
  await expect(rowCount(page)).toHaveText('20')
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await expect(gridCell(grid, 0, 1)).toHaveText('5')
  await expect(page.getByTestId('index-note')).toHaveText('exact search (no vector index used on vector)')
  // The distances ascend.
  const distances = await grid.locator('[role="row"] [aria-colindex="2"][role="gridcell"]').allTextContents()
  const numbers = distances.map(Number)
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers)
  await screenshot(page, 'query-similar')
  await bar.getByRole('combobox', { name: 'Metric' }).selectOption('cosine')
  await expect(bar.getByRole('combobox', { name: 'Metric' })).toHaveValue('cosine')
  await expect(rowCount(page)).toHaveText('20')
  await bar.getByRole('button', { name: 'Clear search' }).click()
  await expect(rowCount(page)).toHaveText('260,000')

  // A pasted vector (row 77's: 77 + k/1000); a wrong dimension is refused in the dialog, naming both.
  await page.getByRole('button', { name: 'Search by vector…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Search by vector' })
  await dialog.getByRole('textbox', { name: 'Vector' }).fill('[1, 2, 3]')
  await dialog.getByRole('button', { name: 'Find similar rows' }).click()
  await expect(dialog).toContainText('The vector has 3 values; vector holds 8-d vectors')
  await dialog.getByRole('textbox', { name: 'Vector' }).fill(`[${Array.from({ length: 8 }, (_, k) => 77 + k / 1000).join(', ')}]`)
  await dialog.getByRole('button', { name: 'Find similar rows' }).click()
  await expect(bar).toContainText('Nearest 20 to a pasted vector')
  await expect(gridCell(grid, 0, 1)).toHaveText('77')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
})

test('full-text search appears only for a table with an FTS index', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'small')
  await expect(page.getByRole('searchbox', { name: 'Full-text search' })).toHaveCount(0)
  const grid = await openTable(page, [], 'big')
  const search = page.getByRole('searchbox', { name: 'Full-text search' })
  await search.fill('4242')
  await search.press('Enter')
  await expect(rowCount(page)).toHaveText('1')
  await expect(grid.getByRole('columnheader', { name: '_score' })).toBeVisible()
  await expect(gridCell(grid, 0, 1)).toHaveText('4242')
})

test('one version per view: after another writer deletes rows, page, count and header agree, and a hint offers the reload', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'small')
  await expect(rowCount(page)).toHaveText('1,000')
  const version = Number(await page.getByTestId('table-version').textContent())
  // Another process (lancedb directly, not through the app) deletes rows.
  const db = await lancedb.connectNamespace('dir', { root })
  await (await db.openTable('small')).delete('id < 100')
  await expect(page.getByRole('status', { name: 'Newer version' })).toContainText(`version ${version + 1}`)
  // Still the old version everywhere: header, count, pages (also new pages, read after the change).
  await expect(page.getByTestId('table-version')).toHaveText(String(version))
  await expect(rowCount(page)).toHaveText('1,000')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await applyFilter(page, 'id < 200')
  await expect(rowCount(page)).toHaveText('200')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await screenshot(page, 'query-newer-version')
  await page.getByRole('status', { name: 'Newer version' }).getByRole('button', { name: 'Reload' }).click()
  await expect(page.getByTestId('table-version')).toHaveText(String(version + 1))
  await expect(rowCount(page)).toHaveText('100')
  await expect(gridCell(grid, 0, 0)).toHaveText('100')
  await expect(page.getByRole('status', { name: 'Newer version' })).toHaveCount(0)
})
