/**
 * The workbench's tabs in the browser (#38 items 1 and 2): tables opened in tabs from the tree (Ctrl+click,
 * middle-click, the context menu's Open in new tab), each keeping its view when the user switches away and back;
 * the keys (Ctrl+Tab, Ctrl+Shift+Tab, Ctrl+W, Ctrl+1…9, Ctrl+Shift+T, Ctrl+Shift+PageUp/PageDown, Alt+Shift+arrows
 * in the strip), drag to reorder, the tab's marks (pinned version, filter dot, namespace tooltip), What changed as
 * a tab, and Split right: one table at two versions side by side.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import AxeBuilder from '@axe-core/playwright'
import { test as base, type Locator, type Page } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, expandPath, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-tabs-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, {
      namespaces: [['shop']],
      tables: [
        { namespace: ['shop'], name: 'orders', rows: 200 },
        { namespace: ['shop'], name: 'customers', rows: 50 },
        { namespace: ['shop'], name: 'items', rows: 30 },
      ],
    })
    // orders v2: 10 rows added (210 rows); v1 has 200.
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('orders', ['shop'])
    await table.add(sampleTable(10, { start: 200n }))
    table.close()
    db.close()
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

const tabs = (page: Page) => page.getByRole('tablist', { name: 'Open tables' })
const tab = (page: Page, name: string) => tabs(page).getByRole('tab', { name, exact: true })
const tabNames = (page: Page) => tabs(page).getByRole('tab').allInnerTexts()
/** The panel of the tab shown (in a split: of the focused pane's tab when `name` is given). */
const panel = (page: Page, name: string): Locator => page.getByRole('tabpanel', { name, exact: true })

async function open(page: Page, harness: Harness) {
  await openApp(page, harness)
  await expandPath(page, ['shop'])
}

test('tables open in tabs from the tree; each keeps its filter when the user switches away and back', async ({ page, catalog }) => {
  await open(page, catalog.harness)
  // A click opens the table in the (first) tab; another click replaces that tab's table.
  await treeItem(page, 'customers').click()
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  expect(await tabNames(page)).toEqual(['orders'])

  // Filter the first tab.
  const orders = panel(page, 'orders')
  const filter = orders.getByRole('textbox', { name: 'Filter rows' })
  await filter.fill('id < 20')
  await filter.press('Enter')
  await expect(orders.getByTestId('row-count')).toHaveText('20')
  await expect(tab(page, 'orders').getByTestId('tab-filter-dot')).toBeVisible()

  // Ctrl+click, middle-click and the context menu's Open in new tab each open a new tab.
  await treeItem(page, 'customers').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  await treeItem(page, 'items').click({ button: 'middle' })
  await expect(page.getByRole('grid', { name: 'items' })).toBeVisible()
  await treeItem(page, 'orders').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Open in new tab' }).click()
  expect(await tabNames(page)).toEqual(['orders', 'customers', 'items', 'orders'])
  // From the keyboard: Ctrl+Enter on a tree item.
  await treeItem(page, 'customers').focus()
  await page.keyboard.press('Control+Enter')
  expect(await tabNames(page)).toEqual(['orders', 'customers', 'items', 'orders', 'customers'])
  await page.keyboard.press('Control+w')
  await expect(tabs(page).getByRole('tab', { selected: true })).toHaveCount(1)
  await expect(tabs(page).getByRole('tab').nth(3)).toHaveAttribute('aria-selected', 'true')
  // The new tab of orders starts afresh: the whole table.
  await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('210')
  // The tooltip names where the table lives; the tree follows the tab shown.
  await expect(tab(page, 'customers')).toHaveAttribute('title', /shop/)

  // Back to the first tab: its filter is still applied, and its box still says it.
  await tabs(page).getByRole('tab').first().click()
  await expect(treeItem(page, 'orders')).toHaveAttribute('aria-selected', 'true')
  const first = page.getByRole('tabpanel')
  await expect(first.getByTestId('row-count')).toHaveText('20')
  await expect(first.getByRole('textbox', { name: 'Filter rows' })).toHaveValue('id < 20')
  await screenshot(page, 'tabs')
  // The strip is a clean tablist (its tabs only; the close marks are for the mouse).
  const axe = await new AxeBuilder({ page }).include('.tab-strip').analyze()
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  // The strip follows the theme (its colours are the theme's variables).
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'tabs-dark')
})

test('the tab keys: next, previous, by number, close, reopen, move; and the strip’s own keys and drag', async ({ page, catalog }) => {
  await open(page, catalog.harness)
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await treeItem(page, 'customers').click({ modifiers: ['Control'] })
  await treeItem(page, 'items').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'items' })).toBeVisible()
  const selected = () => tabs(page).getByRole('tab', { selected: true })

  await page.keyboard.press('Control+Tab')
  await expect(selected()).toHaveText('orders')
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await page.keyboard.press('Control+Shift+Tab')
  await expect(selected()).toHaveText('items')
  await page.keyboard.press('Control+2')
  await expect(selected()).toHaveText('customers')
  await page.keyboard.press('Control+9')
  await expect(selected()).toHaveText('items')
  await page.keyboard.press('Control+1')
  await expect(selected()).toHaveText('orders')

  // Move the active tab right, then back (Ctrl+Shift+PageDown / PageUp).
  await page.keyboard.press('Control+Shift+PageDown')
  expect(await tabNames(page)).toEqual(['customers', 'orders', 'items'])
  await page.keyboard.press('Control+Shift+PageUp')
  expect(await tabNames(page)).toEqual(['orders', 'customers', 'items'])

  // Close the active tab: its neighbour shows. Reopen it: back where the user left it.
  await page.keyboard.press('Control+w')
  expect(await tabNames(page)).toEqual(['customers', 'items'])
  await expect(selected()).toHaveText('customers')
  await expect(page.getByRole('grid', { name: 'customers' })).toBeVisible()
  await page.keyboard.press('Control+Shift+T')
  await expect(selected()).toHaveText('orders')
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  expect(await tabNames(page)).toEqual(['orders', 'customers', 'items'])

  // In the strip: arrows move the focus and the selection (roving tabindex); Alt+Shift+arrows move the tab.
  await selected().focus()
  await expect(tabs(page).locator('[role="tab"][tabindex="0"]')).toHaveCount(1)
  await page.keyboard.press('ArrowRight')
  await expect(selected()).toHaveText('customers')
  await expect(selected()).toBeFocused()
  await page.keyboard.press('Alt+Shift+ArrowRight')
  expect(await tabNames(page)).toEqual(['orders', 'items', 'customers'])
  await expect(tab(page, 'customers')).toBeFocused()
  // Delete closes the focused tab; the context menu closes one too.
  await page.keyboard.press('Delete')
  expect(await tabNames(page)).toEqual(['orders', 'items'])
  await tab(page, 'items').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Close tab' }).click()
  expect(await tabNames(page)).toEqual(['orders'])

  // Drag a tab onto another to reorder.
  await treeItem(page, 'items').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'items' })).toBeVisible()
  // The keys work wherever the focus is (here: a grid cell); Ctrl+\\ splits right.
  await page.getByRole('grid', { name: 'items' }).getByRole('gridcell').first().click()
  await page.keyboard.press('Control+Tab')
  await expect(selected()).toHaveText('orders')
  await page.keyboard.press('Control+Backslash')
  await expect(page.getByRole('tabpanel')).toHaveCount(2)
  expect(await tabNames(page)).toEqual(['orders', 'orders', 'items'])
  await page.getByRole('button', { name: 'Close split' }).click()
  await expect(page.getByRole('tabpanel')).toHaveCount(1)
  await page.keyboard.press('Control+w')
  expect(await tabNames(page)).toEqual(['orders', 'items'])
  await tab(page, 'items').dragTo(tab(page, 'orders'))
  expect(await tabNames(page)).toEqual(['items', 'orders'])
  // Middle-click on a tab closes it.
  await tab(page, 'orders').click({ button: 'middle' })
  expect(await tabNames(page)).toEqual(['items'])
})

test('What changed opens as a tab; Split right shows one table at two versions side by side', async ({ page, catalog }) => {
  await open(page, catalog.harness)
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()

  // What changed between v1 and v2 opens in a tab of its own; the table's tab stays as it was.
  await page.getByRole('button', { name: 'Versions', exact: true }).click()
  const versions = page.getByRole('complementary', { name: 'Versions' })
  const form = versions.getByRole('form', { name: 'Compare versions' })
  await form.getByRole('combobox', { name: 'From version' }).selectOption('1')
  await form.getByRole('combobox', { name: 'To version' }).selectOption('2')
  await form.getByRole('button', { name: 'Compare…' }).click()
  await form.getByRole('button', { name: 'Show changes' }).click()
  await expect(tab(page, 'orders: what changed')).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('region', { name: /^Changes from version 1 to version 2: 10 added/ })).toBeVisible()
  await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('10')
  // Closing the changes closes their tab.
  await page.getByRole('region', { name: /^Changes from version 1/ }).getByRole('button', { name: 'Close changes' }).click()
  expect(await tabNames(page)).toEqual(['orders'])

  // Pin version 1 in the tab: its label says so, with the pin mark.
  await page.getByRole('button', { name: 'Versions', exact: true }).click()
  await versions.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Open read-only' }).click()
  await expect(tab(page, 'orders @ v1')).toBeVisible()
  await expect(tab(page, 'orders @ v1').getByTestId('tab-pin')).toBeVisible()
  await page.getByRole('button', { name: 'Versions', exact: true }).click()

  // Split right: the same view beside it; then the right one back to the latest version.
  await page.getByRole('button', { name: 'Split right' }).click()
  const panels = page.getByRole('tabpanel')
  await expect(panels).toHaveCount(2)
  await expect(page.getByRole('grid', { name: 'orders' })).toHaveCount(2)
  const right = panels.nth(1)
  await expect(right.getByTestId('table-version')).toHaveText('1')
  await right.getByRole('note').getByRole('button', { name: 'Back to latest' }).click()
  await expect(right.getByTestId('table-version')).toHaveText('2')
  await expect(right.getByTestId('row-count')).toHaveText('210')
  await expect(panels.nth(0).getByTestId('row-count')).toHaveText('200')
  expect(await tabNames(page)).toEqual(['orders @ v1', 'orders'])
  // The pinned pane never offers the newer version: its version bar already says "version 1 of 2" with Back to latest.
  await page.waitForResponse((r) => r.url().endsWith('/api/tables/latestVersion') && r.ok())
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))))
  await expect(panels.nth(0).getByRole('note')).toContainText('version 1 of 2')
  await expect(page.getByRole('status', { name: 'Newer version' })).toHaveCount(0)

  // Each pane is at least a fifth of the width; the separator resizes with the keyboard.
  const separator = page.getByRole('separator', { name: 'Resize split' })
  await expect(separator).toHaveAttribute('aria-valuenow', '50')
  await separator.focus()
  await page.keyboard.press('ArrowLeft')
  await expect(separator).toHaveAttribute('aria-valuenow', '45')
  await page.keyboard.press('Home')
  await expect(separator).toHaveAttribute('aria-valuenow', '20')
  await page.keyboard.press('End')
  await expect(separator).toHaveAttribute('aria-valuenow', '80')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  await screenshot(page, 'tabs-split')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'tabs-split-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // Focus follows the pane the user works in; Close split leaves the focused one.
  await panels.nth(0).getByRole('grid').click()
  await expect(tab(page, 'orders @ v1')).toHaveAttribute('aria-selected', 'true')
  await page.getByRole('button', { name: 'Close split' }).click()
  await expect(page.getByRole('tabpanel')).toHaveCount(1)
  await expect(page.getByRole('tabpanel').getByTestId('table-version')).toHaveText('1')
})

test('a tab whose table was dropped elsewhere says so and offers to close', async ({ page, catalog }) => {
  await open(page, catalog.harness)
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await treeItem(page, 'items').click({ modifiers: ['Control'] })
  await expect(page.getByRole('grid', { name: 'items' })).toBeVisible()
  // Another process drops items; the tab is opened again (reopened) and cannot read it.
  const db = await lancedb.connectNamespace('dir', { root: catalog.root })
  await db.dropTable('items', ['shop'])
  db.close()
  await page.keyboard.press('Control+w')
  await page.keyboard.press('Control+Shift+T')
  const alert = page.getByRole('tabpanel').getByRole('alert')
  await expect(alert).toContainText('Could not open items')
  await alert.getByRole('button', { name: 'Close tab' }).click()
  expect(await tabNames(page)).toEqual(['orders'])
  // A tab left open notices too: its check for a newer version finds the table gone and the view says so.
  const again = await lancedb.connectNamespace('dir', { root: catalog.root })
  await again.dropTable('orders', ['shop'])
  again.close()
  await expect(page.getByRole('tabpanel').getByRole('alert')).toContainText('Could not open orders', { timeout: 15_000 })
  await expect(page.getByRole('grid', { name: 'orders' })).toHaveCount(0)
})

test('New query opens a query tab beside the tables; its text is kept when the user switches away and back', async ({ page, catalog }) => {
  await open(page, catalog.harness)
  await treeItem(page, 'orders').click()
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await page.getByRole('button', { name: 'New query' }).click()
  await expect(tab(page, 'Query 1')).toHaveAttribute('aria-selected', 'true')
  const editor = page.getByRole('textbox', { name: 'SQL' })
  await editor.click()
  await page.keyboard.insertText('SELECT 42')
  expect(await tabNames(page)).toEqual(['orders', 'Query 1'])
  await page.keyboard.press('Control+1')
  await expect(page.getByRole('grid', { name: 'orders' })).toBeVisible()
  await expect(editor).toBeHidden()
  await page.keyboard.press('Control+2')
  await expect(editor).toContainText('SELECT 42')
  // A second New query is a tab of its own.
  await page.getByRole('button', { name: 'New query' }).click()
  expect(await tabNames(page)).toEqual(['orders', 'Query 1', 'Query 2'])
})
