import { join } from 'node:path'
import { PHOTO_ROWS, buildNestedCatalog } from '../helpers/catalog'
import { expect, expandPath, gridCell, gridRow, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test, treeItem } from '../helpers/e2e'

const PHOTOS_NS = ['demo', 'images', '2024']

test('opens a 3-level catalog, expands to a table and shows its rows by type', async ({ app }) => {
  await expect(treeItem(app, 'demo-catalog')).toHaveAttribute('aria-expanded', 'true')
  await expect(treeItem(app, 'demo')).toHaveAttribute('aria-level', '2')
  await expandPath(app, PHOTOS_NS)
  await expect(treeItem(app, '2024')).toHaveAttribute('aria-level', '4')
  await expect(treeItem(app, 'photos')).toHaveAttribute('aria-level', '5')
  await expect(treeItem(app, 'photos')).not.toHaveAttribute('aria-expanded', /.*/)

  const grid = await openTable(app, PHOTOS_NS, 'photos')
  await expect(treeItem(app, 'photos')).toHaveAttribute('aria-selected', 'true')
  // ARIA counts the header row: aria-rowcount = table rows + 1.
  await expect(grid).toHaveAttribute('aria-rowcount', String(PHOTO_ROWS + 1))
  await expect(app.getByTestId('row-count')).toHaveText('100,000')
  await expect(app.getByRole('heading', { name: 'photos' })).toBeVisible()
  const headers = grid.getByRole('columnheader')
  await expect(headers).toHaveText(['#', /^id/, /^title/, /^score/, /^caption/, /^taken_at/, /^embedding/])
  await expect(grid.getByRole('columnheader', { name: 'embedding', exact: true })).toBeVisible()

  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await expect(gridCell(grid, 1, 0)).toHaveText('1')
  await expect(gridRow(grid, 0).getByRole('rowheader')).toHaveText('1')
  // Timestamps readable (ISO, every digit of their unit, Z for a zoned one), vectors compact with their dimension.
  await expect(gridCell(grid, 0, 4)).toHaveText('2024-01-01T00:00:00.000000Z')
  await expect(gridCell(grid, 0, 5)).toHaveText(/^\[-?\d\.\d\d, -?\d\.\d\d, -?\d\.\d\d, … \] 128-d$/)
  // Strings keep their full value on hover.
  const title = gridCell(grid, 0, 1).locator('span').first()
  await expect(title).toHaveAttribute('title', /#0$/)
  // Some caption is null and shown distinctly.
  await expect(grid.locator('.cell-null').first()).toHaveText('NULL')
  await screenshot(app, 'table-photos')
})

test('dragging the scrollbar to the end of a 100k-row table shows the last id without fetching the rows before', async ({ app }) => {
  const grid = await openTable(app, PHOTOS_NS, 'photos')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  const pages: { offset: number; limit: number }[] = []
  app.on('request', (request) => {
    if (request.url().endsWith('/api/tables/page')) pages.push(request.postDataJSON() as { offset: number; limit: number })
  })
  // A thumb drag: a few scroll positions on the way, then the very end.
  for (const fraction of [0.3, 0.6, 0.9, 1]) {
    await grid.evaluate(
      (element, f) =>
        new Promise<void>((resolve) => {
          element.scrollTop = f * (element.scrollHeight - element.clientHeight)
          requestAnimationFrame(() => resolve())
        }),
      fraction,
    )
  }
  await expect(gridCell(grid, PHOTO_ROWS - 1, 0)).toHaveText(String(PHOTO_ROWS - 1))
  await expect(gridRow(grid, PHOTO_ROWS - 1).getByRole('rowheader')).toHaveText('100,000')
  await expect(grid).not.toHaveAttribute('aria-busy', 'true')
  // The last page was asked for directly…
  expect(pages.some((p) => p.offset + p.limit === PHOTO_ROWS)).toBe(true)
  // …and only pages near the positions passed through: a few, nowhere near the whole table.
  expect(pages.length).toBeLessThanOrEqual(16)
  expect(pages.reduce((sum, p) => sum + p.limit, 0)).toBeLessThan(PHOTO_ROWS / 20)
  await screenshot(app, 'grid-end')
})

test('the schema panel lists column, readable type, nullable and vector dimension', async ({ app }) => {
  await openTable(app, PHOTOS_NS, 'photos')
  const toggle = app.getByRole('button', { name: 'Schema', exact: true })
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-pressed', 'true')
  const panel = app.getByRole('complementary', { name: 'Schema' })
  await expect(panel).toBeVisible()
  const embedding = panel.getByRole('row', { name: /^embedding/ })
  await expect(embedding.getByRole('cell')).toHaveText(['FixedSizeList<Float32>[128]', 'no', '128'])
  await expect(panel.getByRole('row', { name: /^id/ }).getByRole('cell')).toHaveText(['Int64', 'no', ''])
  await expect(panel.getByRole('row', { name: /^caption/ }).getByRole('cell').nth(1)).toHaveText('yes')
  await screenshot(app, 'schema-panel')
  await toggle.click()
  await expect(panel).toBeHidden()
})

test('opening a missing directory shows the message in place and the rest keeps working', async ({ app }) => {
  await app.getByRole('button', { name: 'Open directory' }).click()
  const missing = '/definitely/not/here/catalog'
  await app.getByLabel('Directory path').fill(missing)
  await app.getByRole('button', { name: 'Open', exact: true }).click()
  const alert = app.getByRole('alert')
  await expect(alert).toContainText(`${missing} does not exist`)
  await expect(alert).toHaveAttribute('data-error-code', 'not_found')
  await expect(alert.getByRole('button', { name: 'Edit the path' })).toBeVisible()
  await screenshot(app, 'missing-directory')
  // The tree still works.
  await openTable(app, ['samples'], 'kinds')
  await expect(app.getByRole('alert')).toHaveCount(0)
})

test('a directory opened by path becomes a second root, and recent directories are offered', async ({ app }) => {
  const dir = await makeTempDir('lcb-e2e-second-')
  try {
    const second = await buildNestedCatalog(join(dir, 'second'))
    await app.getByRole('button', { name: 'Open directory' }).click()
    await app.getByLabel('Directory path').fill(second)
    await app.getByRole('button', { name: 'Open', exact: true }).click()
    await expect(treeItem(app, 'second')).toHaveAttribute('aria-level', '1')
    await expect(treeItem(app, 'demo-catalog')).toHaveAttribute('aria-level', '1')
    // Nested to any depth under the new root.
    await expandPath(app, ['a', 'b', 'c'])
    const grid = await openTable(app, ['a', 'b', 'c'], 'gamma')
    // int64 above 2^53 stays exact.
    await expect(gridCell(grid, 0, 0)).toHaveText('9007199254740990')
    await expect(gridCell(grid, 3, 0)).toHaveText('9007199254740993')
    await app.getByRole('button', { name: 'Open directory' }).click()
    await expect(app.getByRole('button', { name: new RegExp(second.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) })).toBeVisible()
    await screenshot(app, 'start-screen-recents')
  } finally {
    await removeDir(dir)
  }
})

test('a harness started on a missing directory shows why on the start screen', async ({ page }) => {
  const dir = await makeTempDir('lcb-e2e-missing-')
  const harness = await startHarness({ root: join(dir, 'nope') })
  try {
    await openApp(page, harness)
    await expect(page.getByRole('alert')).toContainText('does not exist')
    await expect(page.getByRole('alert')).toContainText('The start catalog could not be opened')
    await expect(page.getByLabel('Directory path')).toBeVisible()
    await screenshot(page, 'start-screen-error')
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})

test('dark theme follows the system', async ({ app }) => {
  await app.emulateMedia({ colorScheme: 'dark' })
  const grid = await openTable(app, PHOTOS_NS, 'photos')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  const background = await app.evaluate(() => getComputedStyle(document.body).backgroundColor)
  expect(background).toBe('rgb(27, 30, 36)')
  await screenshot(app, 'table-photos-dark')
})

test('the page runs under a strict Content Security Policy', async ({ page: app, harness }) => {
  // Not the `app` fixture: it fails a test on CSP reports, and this test provokes one on purpose.
  await openApp(app, harness)
  const csp = await app.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
  expect(csp).toContain("default-src 'none'")
  expect(csp).toContain("script-src 'self'")
  expect(csp).not.toContain('unsafe')
  // Inline script is refused.
  const ran = await app.evaluate(() => {
    const script = document.createElement('script')
    script.textContent = 'window.__inlineRan = true'
    document.body.append(script)
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true
  })
  expect(ran).toBe(false)
})

test('refreshing the tree keeps what was expanded', async ({ app }) => {
  await expandPath(app, ['demo', 'images'])
  await expect(treeItem(app, '2024')).toBeVisible()
  await app.getByRole('button', { name: 'Refresh tree' }).click()
  await expect(app.getByRole('tree').locator('.tree-status-loading')).toHaveCount(0)
  await expect(treeItem(app, 'images')).toHaveAttribute('aria-expanded', 'true')
  await expect(treeItem(app, '2024')).toBeVisible()
  await expect(treeItem(app, 'albums')).toBeVisible()
})
