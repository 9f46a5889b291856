/**
 * Links to a view in the browser (#42 item 5): **Copy link to this view** puts a `lance-catalog://open?…` link on
 * the clipboard; the harness opened with that link in its fragment (`#token=…&view=<link>`) opens the same view —
 * filter, sort, version and selected row — in a new tab. A link to a catalog that is not open asks first; a gone
 * version and a malformed link are said in words.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { test as base, type Page } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, expandPath, gridCell, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { encodeViewLink } from '../../src/contract/viewLink'

const test = base.extend<{ catalog: { root: string; other: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-links-')
    const root = join(dir, 'catalog')
    const other = join(dir, 'other')
    await buildCatalog(root, { namespaces: [['shop']], tables: [{ namespace: ['shop'], name: 'orders', rows: 200 }] })
    await buildCatalog(other, { tables: [{ namespace: [], name: 'elsewhere', rows: 7 }] })
    // orders v2: 10 rows added (210 rows); v1 has 200.
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('orders', ['shop'])
    await table.add(sampleTable(10, { start: 200n }))
    table.close()
    db.close()
    const harness = await startHarness({ root })
    await use({ root, other, harness })
    await harness.close()
    await removeDir(dir)
  },
})

const tabs = (page: Page) => page.getByRole('tablist', { name: 'Open tables' })
const shownPanel = (page: Page) => page.locator('[role="tabpanel"]:not([hidden])')
const openLink = (page: Page, harness: Harness, link: string) => page.goto(`${harness.url}&view=${encodeURIComponent(link)}`)

test('Copy link to this view, then open the link: a new tab with the same filter, sort, rows and selected row', async ({ page, catalog }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(catalog.harness.url).origin })
  await openApp(page, catalog.harness)
  await expandPath(page, ['shop'])
  await treeItem(page, 'orders').click()
  const grid = page.getByRole('grid', { name: 'orders' })
  await expect(grid).toBeVisible()
  const filter = page.getByRole('textbox', { name: 'Filter rows' })
  await filter.fill('id < 50')
  await filter.press('Enter')
  await expect(page.getByTestId('row-count')).toHaveText('50')
  const header = grid.getByRole('columnheader', { name: 'score' })
  await header.click()
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect(gridCell(grid, 0, 0)).toHaveText('49')
  // Row 3 of the view (id 46) selected.
  await gridCell(grid, 3, 1).click()
  await page.getByRole('button', { name: 'Copy link to this view' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible()
  const link = await page.evaluate(() => navigator.clipboard.readText())
  expect(link).toMatch(/^lance-catalog:\/\/open\?dir=/)
  expect(link).toContain('table=orders')
  expect(link).toContain('sort=-score')
  expect(link).toContain('row=3')
  expect(link).not.toContain('version=')

  // The grid's context menu copies the same view with the row it was opened on.
  await gridCell(grid, 5, 1).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Copy link to this view' }).click()
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('row=5')

  // A fresh window opened at the link: the same view, in a tab of its own.
  const fresh = await page.context().newPage()
  await openLink(fresh, catalog.harness, link)
  const opened = shownPanel(fresh).getByRole('grid', { name: 'orders' })
  await expect(opened).toBeVisible()
  await expect(shownPanel(fresh).getByRole('textbox', { name: 'Filter rows' })).toHaveValue('id < 50')
  await expect(shownPanel(fresh).getByTestId('row-count')).toHaveText('50')
  await expect(opened.getByRole('columnheader', { name: 'score' })).toHaveAttribute('aria-sort', 'descending')
  await expect(gridCell(opened, 0, 0)).toHaveText('49')
  await expect(opened.locator('[role="gridcell"][aria-selected="true"]').first().locator('xpath=..')).toHaveAttribute('aria-rowindex', String(3 + 2))
  // Taken once: the fragment keeps the harness's token but not the link, so a reload does not open it again.
  expect(new URL(fresh.url()).hash).toMatch(/^#token=[^&]+$/)
  await screenshot(fresh, 'links-opened')

  // In the window already open, a link opens in a new tab beside the one there.
  await page.evaluate((l) => (window.location.hash += `&view=${encodeURIComponent(l)}`), link)
  await expect(tabs(page).getByRole('tab')).toHaveCount(2)
})

test('a link pins its version; a gone version, a malformed link and an unknown catalog are said in words', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const base = { catalog: { kind: 'dir' as const, path: catalog.root }, namespace: ['shop'], table: 'orders' }
  // Version 1 (200 rows), not the latest (210).
  await openLink(page, catalog.harness, encodeViewLink({ ...base, version: 1 }))
  await expect(shownPanel(page).getByTestId('table-version')).toHaveText('1')
  await expect(shownPanel(page).getByTestId('row-count')).toHaveText('200')
  await expect(shownPanel(page)).toContainText('version 1 of 2')

  await openLink(page, catalog.harness, encodeViewLink({ ...base, version: 99 }))
  const gone = page.getByRole('alert', { name: 'Link not opened' })
  await expect(gone).toContainText('The linked table shop/orders at version 99 could not be opened')
  await gone.getByRole('button', { name: 'Dismiss' }).click()

  await openLink(page, catalog.harness, `${encodeViewLink(base)}&api_key=s3cret`)
  await expect(gone).toContainText('The link has an unknown parameter "api_key"')
  await gone.getByRole('button', { name: 'Dismiss' }).click()

  // A catalog that is not open: asked first; Cancel opens nothing, Connect opens it and then the view.
  const elsewhere = encodeViewLink({ catalog: { kind: 'dir', path: catalog.other }, namespace: [], table: 'elsewhere', row: 2 })
  await openLink(page, catalog.harness, elsewhere)
  const ask = page.getByRole('alertdialog', { name: 'Open link' })
  await expect(ask).toContainText(`Connect to ${catalog.other}?`)
  await screenshot(page, 'links-ask')
  await ask.getByRole('button', { name: 'Cancel' }).click()
  await expect(ask).toBeHidden()
  await expect(treeItem(page, 'other')).toHaveCount(0)
  await openLink(page, catalog.harness, elsewhere)
  await ask.getByRole('button', { name: 'Connect' }).click()
  const grid = shownPanel(page).getByRole('grid', { name: 'elsewhere' })
  await expect(grid).toBeVisible({ timeout: 60_000 })
  await expect(shownPanel(page).getByTestId('row-count')).toHaveText('7')

  // A REST catalog with no saved connection: the dialog opens at the link's endpoint, with no key (the link has none).
  await openLink(page, catalog.harness, encodeViewLink({ catalog: { kind: 'rest', endpoint: 'http://127.0.0.1:9/catalog' }, namespace: [], table: 't' }))
  await expect(ask).toContainText('Connect to http://127.0.0.1:9/catalog?')
  await expect(ask).toContainText('Links never carry keys')
  await ask.getByRole('button', { name: 'Connect' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to server' })
  await expect(dialog.getByLabel('Endpoint URL')).toHaveValue('http://127.0.0.1:9/catalog')
  for (const input of await dialog.locator('input[type="password"]').all()) await expect(input).toHaveValue('')
  await screenshot(page, 'links-rest-dialog')
})
