import { join } from 'node:path'
import { buildCatalog } from '../helpers/catalog'
import { expect, gridCell, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * A filter or a sort is a new view of the same grid (no remount per view): the view starts at its
 * first row with nothing selected, and what belongs to the grid rather than the view — column widths the user
 * set — stays. `rows` has 30,000 sample rows (ids 0…29,999).
 */
const ROWS = 30_000
let dir: string
let root: string
let harness: Harness

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-view-change-')
  root = await buildCatalog(join(dir, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: ROWS }] })
})
test.afterAll(async () => {
  await removeDir(dir)
})
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

test('a filter and a sort show the new view from its first row, with no selection, in the same grid with the widths the user set', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'rows')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  // Marks this grid element: a remounted grid would not carry it.
  await grid.evaluate((element) => element.setAttribute('data-test-mark', 'first'))

  // Widen `label` by dragging its resizer.
  const label = grid.getByRole('columnheader', { name: 'label', exact: true })
  const before = (await label.boundingBox())!.width
  const handle = grid.getByRole('separator', { name: 'Resize label' })
  const box = (await handle.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.move(box.x + 100, box.y + box.height / 2, { steps: 5 })
  await page.mouse.up()
  const widened = (await label.boundingBox())!.width
  expect(widened).toBeGreaterThan(before + 60)

  // Select a cell, then go to the end of the table.
  await gridCell(grid, 2, 1).click()
  await expect(gridCell(grid, 2, 1)).toHaveAttribute('aria-selected', 'true')
  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(gridCell(grid, ROWS - 1, 0)).toHaveText(String(ROWS - 1))

  // A filter: its first rows at the top, nothing selected, the same grid, the widened column.
  const filterBox = page.getByRole('textbox', { name: 'Filter rows' })
  await filterBox.fill('id % 2 = 1')
  await filterBox.press('Enter')
  await expect(page.getByTestId('row-count')).toHaveText('15,000')
  await expect(gridCell(grid, 0, 0)).toHaveText('1')
  await expect(gridCell(grid, 1, 0)).toHaveText('3')
  await expect.poll(() => grid.evaluate((element) => element.scrollTop)).toBe(0)
  await expect(grid.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(0)
  await expect(page.getByRole('status', { name: 'Table status' })).toContainText('Rows 1–')
  await expect(grid).toHaveAttribute('data-test-mark', 'first')
  expect((await label.boundingBox())!.width).toBeCloseTo(widened, 0)
  await screenshot(page, 'view-change-filter')

  // Its last rows, then a cell selected in this view.
  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(gridCell(grid, 14_999, 0)).toHaveText(String(ROWS - 1))
  await gridCell(grid, 14_999, 1).click()
  await expect(gridCell(grid, 14_999, 1)).toHaveAttribute('aria-selected', 'true')

  // A sort (id descending: two header clicks): again from the top, nothing selected, the same grid.
  const id = grid.getByRole('columnheader', { name: 'id', exact: true })
  await id.click()
  await expect(id).toHaveAttribute('aria-sort', 'ascending')
  await expect(gridCell(grid, 0, 0)).toHaveText('1')
  await id.click()
  await expect(id).toHaveAttribute('aria-sort', 'descending')
  await expect(gridCell(grid, 0, 0)).toHaveText(String(ROWS - 1))
  await expect(gridCell(grid, 1, 0)).toHaveText(String(ROWS - 3))
  await expect.poll(() => grid.evaluate((element) => element.scrollTop)).toBe(0)
  await expect(grid.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(0)
  await expect(grid).toHaveAttribute('data-test-mark', 'first')
  expect((await label.boundingBox())!.width).toBeCloseTo(widened, 0)
  await screenshot(page, 'view-change-sort')

  // The sorted view's end is its smallest odd id.
  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(gridCell(grid, 14_999, 0)).toHaveText('1')
})
