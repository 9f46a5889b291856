/**
 * What changed between two versions, in the browser: Compare… → Show changes runs the diff job and opens its rows
 * in the grid under a header naming both versions and the counts; each kind of row can be picked and filtered.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { test as base } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-diff-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['shop']], tables: [{ namespace: ['shop'], name: 'orders', rows: 200 }] })
    // v2: rows 0..4 deleted; v3: rows 50..59 changed; v4: rows 200..202 added.
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('orders', ['shop'])
    await table.delete('id < 5')
    await table.update({ where: 'id >= 50 AND id < 60', values: { note: 'edited' } })
    await table.add(sampleTable(3, { start: 200n }))
    table.close()
    db.close()
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

test('Compare… then Show changes opens the changed rows under a header with both versions and the counts', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const grid = await openTable(page, ['shop'], 'orders')
  await expect(grid).toHaveAttribute('aria-rowcount', '199')
  await page.getByRole('button', { name: 'Versions' }).click()
  const panel = page.getByRole('complementary', { name: 'Versions' })
  const form = panel.getByRole('form', { name: 'Compare versions' })
  await form.getByRole('combobox', { name: 'From version' }).selectOption('1')
  await form.getByRole('combobox', { name: 'To version' }).selectOption('4')
  await form.getByRole('button', { name: 'Compare…' }).click()
  await expect(panel.getByRole('region', { name: 'Comparison' })).toContainText('v1 200 → v4 198 (-2)')
  // The key column defaults to the unique-looking `id`.
  await expect(form.getByRole('combobox', { name: 'Key column' })).toHaveValue('id')
  await form.getByRole('button', { name: 'Show changes' }).click()
  // What changed opens in a tab of its own (features/workbench): the tab shown is the one read below.
  await expect(page.getByRole('tab', { name: 'orders: what changed', selected: true })).toBeVisible()
  const shown = page.getByRole('tabpanel')

  const banner = page.getByRole('region', { name: 'Changes from version 1 to version 4: 3 added, 5 deleted, 10 changed' })
  await expect(banner).toBeVisible()
  // Changed rows first, read from the newer version.
  await expect(banner.getByRole('button', { name: /^Changed/ })).toHaveAttribute('aria-pressed', 'true')
  await expect(shown.getByTestId('row-count')).toHaveText('10')
  await expect(shown.getByTestId('table-version')).toHaveText('4')
  await expect(grid).toHaveAttribute('aria-rowcount', '11')
  await expect(grid.getByRole('gridcell', { name: 'row-50', exact: true })).toBeVisible()
  await expect(grid.getByRole('gridcell', { name: 'edited', exact: true }).first()).toBeVisible()
  await expect(banner.getByTestId('diff-notes')).toContainText('read the key column of both versions, and whole only the rows Lance had rewritten')
  await screenshot(page, 'version-diff')

  // A filter narrows the changed rows like any view.
  const filter = page.getByRole('textbox', { name: 'Filter rows' })
  await filter.fill('id >= 55')
  await filter.press('Enter')
  await expect(shown.getByTestId('row-count')).toHaveText('5')
  await expect(grid.getByRole('gridcell', { name: 'row-50', exact: true })).toHaveCount(0)
  await filter.fill('')
  await filter.press('Enter')
  await expect(shown.getByTestId('row-count')).toHaveText('10')

  // Deleted rows come from the older version; added ones from the newer.
  await banner.getByRole('button', { name: /^Deleted/ }).click()
  await expect(shown.getByTestId('table-version')).toHaveText('1')
  await expect(shown.getByTestId('row-count')).toHaveText('5')
  await expect(grid.getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
  await banner.getByRole('button', { name: /^Added/ }).click()
  await expect(shown.getByTestId('table-version')).toHaveText('4')
  await expect(shown.getByTestId('row-count')).toHaveText('3')
  // sampleTable labels count from 0 whatever the first id: the added rows are ids 200–202.
  await expect(grid.getByRole('gridcell', { name: '202', exact: true }).first()).toBeVisible()

  // Closing the changes closes their tab: the table's own tab shows again, as it was.
  await banner.getByRole('button', { name: 'Close changes' }).click()
  await expect(banner).toBeHidden()
  await expect(page.getByRole('tab', { name: 'orders', selected: true })).toBeVisible()
  await expect(shown.getByTestId('row-count')).toHaveText('198')
})

test('a key column with duplicates is refused in words', async ({ page, catalog }) => {
  const db = await lancedb.connectNamespace('dir', { root: catalog.root })
  const table = await db.openTable('orders', ['shop'])
  await table.add(sampleTable(1, { start: 7n }))
  table.close()
  db.close()
  await openApp(page, catalog.harness)
  await openTable(page, ['shop'], 'orders')
  await page.getByRole('button', { name: 'Versions' }).click()
  const panel = page.getByRole('complementary', { name: 'Versions' })
  const form = panel.getByRole('form', { name: 'Compare versions' })
  await form.getByRole('combobox', { name: 'From version' }).selectOption('4')
  await form.getByRole('combobox', { name: 'To version' }).selectOption('5')
  await form.getByRole('button', { name: 'Compare…' }).click()
  await form.getByRole('button', { name: 'Show changes' }).click()
  await expect(form.getByRole('alert')).toContainText('The key column “id” has duplicate values in version 5 (7 appears more than once)')
  await expect(page.getByRole('region', { name: /^Changes from version/ })).toHaveCount(0)
})
