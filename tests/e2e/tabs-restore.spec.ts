/**
 * The workbench's tabs over a restart (#38 item 1): each tab comes back where the user left it — its first visible
 * row, active cell, open dock panels with the dock's tab, and the gallery — after a reload of the page (the harness
 * keeps the remembered tabs in its service, as the desktop app keeps them in its settings file). And a hidden tab
 * does not ask for a newer version: only the tab on screen does.
 */
import { join } from 'node:path'
import { test as base, type Page, type Request } from '@playwright/test'
import { imagesTable } from '../../src/core/demo'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, rememberedTabs, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { toolbarButton } from './toolbar'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-tabs-restore-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, {
      tables: [
        { namespace: [], name: 'orders', rows: 2000 },
        { namespace: [], name: 'customers', rows: 50 },
        { namespace: [], name: 'pictures', data: imagesTable(200) },
      ],
    })
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

const tabs = (page: Page) => page.getByRole('tablist', { name: 'Open tables' })

test('a reload brings each tab back where it was: first row, active cell, open panels and their dock tab, the gallery', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'orders').click()
  const shown = page.getByRole('tabpanel')
  const grid = shown.getByRole('grid', { name: 'orders' })
  await expect(grid).toBeVisible()
  const filter = shown.getByRole('textbox', { name: 'Filter rows' })
  await filter.fill('id >= 100')
  await filter.press('Enter')
  await expect(shown.getByTestId('row-count')).toHaveText('1,900')

  // Scroll down to row 301 of the view, and make a cell of row 305 active.
  const status = shown.getByRole('status', { name: 'Table status' })
  await grid.evaluate((element) => (element.scrollTop = 300 * 24))
  await expect(status).toContainText('Rows 301–')
  await grid.locator('[aria-rowindex="306"] [role="gridcell"]').nth(1).click()
  await expect(status).toContainText('Row 305, label')

  // Versions and Summary open in the right dock; its Versions tab shown.
  await shown.getByRole('button', { name: 'Versions', exact: true }).click()
  await shown.getByRole('button', { name: 'Summary', exact: true }).click()
  const dock = shown.getByRole('tablist', { name: 'Right dock' })
  await expect(dock.getByRole('tab')).toHaveText(['Versions', 'Summary'])
  await dock.getByRole('tab', { name: 'Versions' }).click()
  await expect(dock.getByRole('tab', { name: 'Versions' })).toHaveAttribute('aria-selected', 'true')

  // A second tab shows its images as a gallery; a third is left as it opened.
  await treeItem(page, 'pictures').click({ modifiers: ['Control'] })
  await page.getByRole('tabpanel').getByRole('button', { name: 'Gallery', exact: true }).click()
  await expect(page.getByRole('tabpanel').getByRole('grid', { name: 'Gallery of image' })).toBeVisible()
  await treeItem(page, 'customers').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  await tabs(page).getByRole('tab', { name: 'orders' }).click()

  // Written once the tabs rest (never on every scrolled frame).
  await expect
    .poll(() => rememberedTabs(catalog.harness), { timeout: 15_000 })
    .toEqual({
      tabs: [
        { kind: 'table', namespace: [], name: 'orders', filter: 'id >= 100', first: 300, cell: { row: 304, column: 'label' }, panels: ['versions', 'summary'], dockTabs: { right: 'versions' } },
        { kind: 'table', namespace: [], name: 'pictures', gallery: true },
        { kind: 'table', namespace: [], name: 'customers' },
      ],
      active: 0,
      skipped: 0,
    })

  await page.reload()
  await expect(tabs(page).getByRole('tab')).toHaveText(['orders', 'pictures', 'customers'])
  await expect(tabs(page).getByRole('tab', { selected: true })).toHaveText('orders')
  const back = page.getByRole('tabpanel')
  await expect(back.getByTestId('row-count')).toHaveText('1,900')
  const backStatus = back.getByRole('status', { name: 'Table status' })
  await expect(backStatus).toContainText('Rows 301–')
  await expect(backStatus).toContainText('Row 305, label')
  const activeCell = back.locator('[role="gridcell"].active')
  await expect(activeCell).toBeInViewport()
  await expect(activeCell.locator('xpath=..')).toHaveAttribute('aria-rowindex', '306')
  const backDock = back.getByRole('tablist', { name: 'Right dock' })
  await expect(backDock.getByRole('tab')).toHaveText(['Versions', 'Summary'])
  await expect(backDock.getByRole('tab', { name: 'Versions' })).toHaveAttribute('aria-selected', 'true')
  await expect(back.getByRole('complementary', { name: 'Versions' })).toBeVisible()
  await screenshot(page, 'tabs-restored')

  // The gallery's tab, shown for the first time since the reload, opens as a gallery.
  await tabs(page).getByRole('tab', { name: 'pictures' }).click()
  await expect(page.getByRole('tabpanel').getByRole('grid', { name: 'Gallery of image' })).toBeVisible()
  await expect(page.getByRole('tabpanel').getByRole('button', { name: 'Gallery', exact: true })).toHaveAttribute('aria-pressed', 'true')
  // Nothing was lost by restoring: the remembered tabs are as they were.
  await tabs(page).getByRole('tab', { name: 'customers' }).click()
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  expect((await rememberedTabs(catalog.harness)).tabs[0]).toMatchObject({ first: 300, cell: { row: 304, column: 'label' } })
})

test('only the tab on screen asks for a newer version; a hidden one asks again once it is shown', async ({ page, catalog }) => {
  const asked: string[] = []
  const onRequest = (request: Request) => {
    if (request.url().endsWith('/api/tables/latestVersion')) asked.push((JSON.parse(request.postData() ?? '{}') as { name?: string }).name ?? '?')
  }
  page.on('request', onRequest)
  await openApp(page, catalog.harness)
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await treeItem(page, 'customers').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  // From here on, orders is hidden: customers asks (every 4 s), orders does not.
  asked.length = 0
  await expect.poll(() => asked.filter((name) => name === 'customers').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
  expect(asked.filter((name) => name === 'orders')).toEqual([])
  await tabs(page).getByRole('tab', { name: 'orders' }).click()
  await expect.poll(() => asked.filter((name) => name === 'orders').length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1)
})

/** Two tabs, orders then customers (shown), each with its Summary open and done, remembered; then the page reloaded. The names of the tables each `profile/start` after the reload asked for. */
async function reloadTwoSummaries(page: Page, harness: Harness): Promise<string[]> {
  const profiled: string[] = []
  page.on('request', (request: Request) => {
    if (request.url().endsWith('/api/profile/start')) profiled.push((JSON.parse(request.postData() ?? '{}') as { name?: string }).name ?? '?')
  })
  await openApp(page, harness)
  for (const [name, modifiers] of [['orders', []], ['customers', ['Control']]] as const) {
    await treeItem(page, name).click({ modifiers: [...modifiers] })
    const shown = page.getByRole('tabpanel')
    await expect(shown.getByRole('grid', { name })).toBeVisible()
    // On the bar, or in More tools in a narrow window.
    await toolbarButton(shown, 'Summary')
    await expect(shown.getByTestId('summary-meta')).toContainText('rows')
  }
  await expect
    .poll(async () => (await rememberedTabs(harness)).tabs.map((t) => t.kind === 'table' && [t.name, t.panels]), { timeout: 15_000 })
    .toEqual([
      ['orders', ['summary']],
      ['customers', ['summary']],
    ])
  profiled.length = 0
  await page.reload()
  await expect(tabs(page).getByRole('tab', { selected: true })).toHaveText('customers')
  return profiled
}

test('a tab restored hidden computes its Summary only once it is shown; then the Summary is there', async ({ page, catalog }) => {
  const profiled = await reloadTwoSummaries(page, catalog.harness)
  // The shown tab's Summary is back and done; the hidden tab has asked for nothing.
  await expect(page.getByRole('tabpanel').getByTestId('summary-meta')).toContainText('50 rows')
  await expect(page.locator('[role="tabpanel"][hidden]').getByRole('grid', { name: 'orders', includeHidden: true })).toHaveCount(1)
  expect(profiled).toEqual(['customers'])
  // Shown, it computes (or is answered from the kept profile) and shows its Summary; the tab now hidden keeps its
  // own mounted (it is not asked again).
  await tabs(page).getByRole('tab', { name: 'orders' }).click()
  await expect(page.getByRole('tabpanel').getByTestId('summary-meta')).toContainText('2,000 rows')
  expect(profiled).toEqual(['customers', 'orders'])
  await screenshot(page, 'tabs-restored-hidden-summary')
  await tabs(page).getByRole('tab', { name: 'customers' }).click()
  await expect(page.getByRole('tabpanel').getByTestId('summary-meta')).toContainText('50 rows')
  expect(profiled).toEqual(['customers', 'orders'])
})

test('in a 900×600 window a tab restored hidden opens its Summary once shown, straight in the drawer (asked once)', async ({ page, catalog }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  const profiled = await reloadTwoSummaries(page, catalog.harness)
  await expect(page.getByRole('tabpanel').getByTestId('summary-meta')).toContainText('50 rows')
  await tabs(page).getByRole('tab', { name: 'orders' }).click()
  const drawer = page.getByRole('tabpanel').locator('.dock-drawer')
  await expect(drawer.getByTestId('summary-meta')).toContainText('2,000 rows')
  expect(profiled).toEqual(['customers', 'orders'])
  await screenshot(page, 'tabs-restored-hidden-summary-drawer')
})
