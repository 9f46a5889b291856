import { join } from 'node:path'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, gridCell, gridRow, makeTempDir, openApp, openTable, removeDir, startHarness, test } from '../helpers/e2e'

/**
 * Past ~333k rows (24 px each) the grid's scroll height would exceed what browsers allow, so scroll
 * positions are scaled onto the rows (src/renderer/features/table/grid/geometry.ts). Check that the
 * scaled scrollbar still reaches every row and that a wheel notch still moves a few rows.
 */
const ROWS = 400_000

test('a table too tall for one element: the scaled scrollbar reaches the last row and the middle', async ({ page }) => {
  test.setTimeout(120_000)
  const dir = await makeTempDir('lcb-e2e-tall-')
  const root = await buildCatalog(join(dir, 'catalog'), { tables: [{ namespace: [], name: 'tall', data: sampleTable(ROWS, { dimension: 0 }) }] })
  const harness = await startHarness({ root })
  try {
    await openApp(page, harness)
    const grid = await openTable(page, [], 'tall')
    await expect(gridCell(grid, 0, 0)).toHaveText('0')
    const { scrollHeight, clientHeight } = await grid.evaluate((g) => ({ scrollHeight: g.scrollHeight, clientHeight: g.clientHeight }))
    expect(scrollHeight).toBeLessThan(ROWS * 24) // scaled
    expect(scrollHeight).toBeGreaterThan(clientHeight)

    // A wheel notch moves rows, not a scaled jump of hundreds.
    await grid.hover()
    await page.mouse.wheel(0, 240)
    await expect(page.getByRole('status', { name: 'Table status' })).toContainText('Rows 11–')

    // Drag to the middle: the rows shown are the rows their index says.
    await grid.evaluate((g) => {
      g.scrollTop = (g.scrollHeight - g.clientHeight) / 2
    })
    const middle = grid.locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"])').nth(3)
    // The rows re-render after the scroll event: wait for the window to move instead of reading it once.
    await expect.poll(async () => Math.abs(Number(await middle.getAttribute('aria-rowindex')) - 2 - ROWS / 2)).toBeLessThan(100)
    await expect(middle.getByRole('gridcell').first()).not.toBeEmpty()
    const index = Number(await middle.getAttribute('aria-rowindex')) - 2
    await expect(middle.getByRole('gridcell').first()).toHaveText(String(index))

    // And to the end.
    await grid.evaluate((g) => {
      g.scrollTop = g.scrollHeight
    })
    await expect(gridCell(grid, ROWS - 1, 0)).toHaveText(String(ROWS - 1))
    await expect(gridRow(grid, ROWS - 1).getByRole('rowheader')).toHaveText('400,000')
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})
