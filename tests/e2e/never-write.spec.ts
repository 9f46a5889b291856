import { diffSnapshots, snapshotTree } from '../helpers/catalog'
import { expect, gridCell, test } from '../helpers/e2e'
import { toolbarButton } from './toolbar'

/**
 * Browsing must not modify a catalog (upstream once created `__manifest` when a directory was opened):
 * hash every file, then expand every namespace and scroll every table through the real UI, and hash again.
 */
test('browsing a catalog writes nothing: expanding every namespace and scrolling every table', async ({ app, demoRoot }) => {
  test.setTimeout(120_000)
  const before = await snapshotTree(demoRoot)
  const tree = app.getByRole('tree')

  // Expand until no collapsed namespace is left.
  for (;;) {
    const collapsed = tree.locator('[role="treeitem"][aria-expanded="false"]')
    if ((await collapsed.count()) === 0) break
    await collapsed.first().click()
    await expect(tree.locator('[aria-busy="true"]')).toHaveCount(0)
  }
  await expect(tree.locator('.tree-status-loading')).toHaveCount(0)

  const tables = tree.locator('[role="treeitem"]:not([aria-expanded])')
  const count = await tables.count()
  expect(count).toBeGreaterThanOrEqual(6)
  for (let i = 0; i < count; i += 1) {
    const item = tables.nth(i)
    const name = (await item.getAttribute('aria-label')) ?? ''
    await item.click()
    const grid = app.getByRole('grid', { name })
    await expect(grid).toBeVisible()
    const rows = Number(await grid.getAttribute('aria-rowcount')) - 1
    if (rows > 0) {
      await expect(gridCell(grid, 0, 0)).not.toBeEmpty()
      await grid.focus()
      await app.keyboard.press('Control+End')
      // Ctrl+End selects the last cell of the last row.
      await expect(grid.locator('[role="row"]:has([aria-selected="true"])')).toHaveAttribute('aria-rowindex', String(rows + 1))
      await expect(gridCell(grid, rows - 1, 0)).not.toBeEmpty()
      await expect(grid).not.toHaveAttribute('aria-busy', 'true')
    }
    // (A table with an image and a vector column has more buttons than 1280 px hold: Schema may be in More tools.)
    await toolbarButton(app, 'Schema')
    await expect(app.getByRole('complementary', { name: 'Schema' })).toBeVisible()
  }
  await app.getByRole('button', { name: 'Refresh tree' }).click()
  await expect(tree.locator('.tree-status-loading')).toHaveCount(0)

  const after = await snapshotTree(demoRoot)
  expect(diffSnapshots(before, after)).toEqual([])
})
