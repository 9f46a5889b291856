/**
 * Table lifecycle in the browser: the Versions panel (open an old version read-only, restore it),
 * the Indexes panel (create an index as a cancellable job, see it listed, drop it) and the Stats panel.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { test as base } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-lifecycle-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['shop']], tables: [{ namespace: ['shop'], name: 'orders', rows: 5 }] })
    // Three versions: 5 rows, then 8, then 12.
    const client = await DirNamespaceClient.open(root)
    await client.appendRows({ namespace: ['shop'], name: 'orders' }, sampleTable(3, { start: 5n }))
    await client.appendRows({ namespace: ['shop'], name: 'orders' }, sampleTable(4, { start: 8n }))
    await client.close()
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

async function latestVersion(root: string): Promise<{ version: number; rows: number }> {
  const client = await DirNamespaceClient.open(root)
  try {
    const d = await client.describeTable({ namespace: ['shop'], name: 'orders' })
    return { version: d.version, rows: d.rowCount }
  } finally {
    await client.close()
  }
}

test('opens version 1 of 3 read-only, then restores it as a new version', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const grid = await openTable(page, ['shop'], 'orders')
  await expect(grid).toHaveAttribute('aria-rowcount', '13')
  await page.getByRole('button', { name: 'Versions' }).click()
  const panel = page.getByRole('complementary', { name: 'Versions' })
  const items = panel.getByRole('listitem', { name: /^Version \d+/ })
  await expect(items).toHaveCount(3)
  await expect(items.first()).toHaveAccessibleName(/^Version 3 \(latest\), append, 12 rows/)
  const v1 = panel.getByRole('listitem', { name: /^Version 1,/ })
  await expect(v1).toHaveAccessibleName(/created, 5 rows/)

  await v1.getByRole('button', { name: 'Open read-only' }).click()
  const header = page.locator('.table-header')
  await expect(header).toContainText('version 1 of 3 — read-only')
  await expect(page.getByTestId('row-count')).toHaveText('5')
  await expect(grid).toHaveAttribute('aria-rowcount', '6')
  await expect(grid.getByRole('gridcell', { name: 'row-4', exact: true })).toBeVisible()
  await expect(grid.getByRole('gridcell', { name: 'row-5', exact: true })).toHaveCount(0)
  await screenshot(page, 'lifecycle-version-read-only')

  // Compare the open version with the latest: rows and schema.
  await panel.getByRole('button', { name: 'Compare' }).click()
  await expect(panel.getByRole('region', { name: 'Comparison' })).toContainText('v1 5 → v3 12 (+7)')

  await v1.getByRole('button', { name: 'Restore this version' }).click()
  const confirm = page.getByRole('dialog', { name: 'Restore version 1' })
  await expect(confirm).toContainText('new version 4')
  await screenshot(page, 'lifecycle-restore-confirm')
  await confirm.getByRole('button', { name: 'Restore' }).click()
  await expect(confirm).toBeHidden()
  await expect(header).not.toContainText('read-only')
  await expect(page.getByTestId('table-version')).toHaveText('4')
  await expect(page.getByTestId('row-count')).toHaveText('5')
  await expect(items).toHaveCount(4)
  expect(await latestVersion(catalog.root)).toEqual({ version: 4, rows: 5 })
})

test('creates an index as a job, lists it with its rows, and drops it after confirmation', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, ['shop'], 'orders')
  await page.getByRole('button', { name: 'Indexes' }).click()
  const panel = page.getByRole('complementary', { name: 'Indexes' })
  await expect(panel).toContainText('No indexes yet.')
  const form = panel.getByRole('form', { name: 'New index' })
  await form.getByLabel('Column').selectOption('id')
  await form.getByLabel('Type').selectOption('BTREE')
  await form.getByRole('button', { name: 'Create index' }).click()
  // The build is a job: the panel lists the index when the job ends, and the jobs panel shows the job as done.
  const item = panel.getByRole('listitem', { name: /^Index id_idx, BTree on id/ })
  await expect(item).toBeVisible()
  await expect(item).toContainText('12 indexed · 0 unindexed')
  const indicator = page.getByRole('button', { name: /^Jobs: .*1 other job ended/ })
  await expect(indicator).toHaveAttribute('aria-expanded', 'false')
  await indicator.click()
  const jobs = page.getByRole('region', { name: 'Jobs' })
  const job = jobs.getByRole('listitem', { name: 'Index id_idx on orders' })
  await expect(job).toContainText('Done')
  await expect(job).toContainText('BTREE index on id built')
  await screenshot(page, 'lifecycle-index-job')
  // A name that exists is refused before anything is sent.
  await expect(form.getByText('An index named “id_idx” exists')).toBeVisible()
  await form.getByLabel('Column').selectOption('label')
  await form.getByLabel('Type').selectOption('FTS')
  await form.getByRole('button', { name: 'Create index' }).click()
  await expect(panel.getByRole('listitem', { name: /^Index label_idx, (FTS|Inverted)/i })).toBeVisible()
  await screenshot(page, 'lifecycle-indexes')

  // Each build is a new version, and the table view's check for newer ones then shows its banner above the panel,
  // moving the panel's buttons down ~40 px: a click pressed before that move and released after it is no click
  // (fresh-clone run 34, under load: the Drop button focused, no dialog). Click once the banner names version 5.
  await expect(page.getByRole('status', { name: 'Newer version' })).toContainText('version 5')
  await item.getByRole('button', { name: 'Drop index id_idx' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Drop index id_idx' })
  await confirm.getByRole('button', { name: 'Drop index' }).click()
  await expect(item).toBeHidden()
  await expect(panel.getByRole('listitem', { name: /^Index / })).toHaveCount(1)
})

test('shows stats and optimizes with a preview', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, ['shop'], 'orders')
  await page.getByRole('button', { name: 'Stats' }).click()
  const panel = page.getByRole('complementary', { name: 'Stats' })
  const stats = panel.getByRole('definition')
  await expect(stats.first()).toHaveText('12')
  await expect(panel).toContainText('3 (3 small)')
  await panel.getByRole('button', { name: 'Optimize…' }).click()
  const confirm = page.getByRole('dialog', { name: 'Optimize table' })
  await expect(confirm).toContainText('Compact 3 small fragments')
  await expect(confirm).toContainText('Keep every version.')
  await screenshot(page, 'lifecycle-optimize-preview')
  await confirm.getByRole('button', { name: 'Optimize' }).click()
  await expect(confirm).toBeHidden()
  await expect(panel.getByRole('status')).toContainText('3 fragments → 1')
  await expect(panel).toContainText(/Fragments\s*1/)
  expect((await latestVersion(catalog.root)).rows).toBe(12)
})

test('Stats names rows removed by deletes and old copies of updated rows apart, not one "deleted rows" sum', async ({ page, catalog }) => {
  // Another writer deletes 3 rows and updates 4 (Lance writes each updated row anew and marks its old copy deleted).
  const db = await lancedb.connectNamespace('dir', { root: catalog.root })
  const table = await db.openTable('orders', ['shop'])
  await table.delete('id < 3')
  // (Rows of fragments it keeps: an update of a whole fragment drops that fragment and marks nothing.)
  await table.update({ where: 'id IN (5, 6, 9, 10)', valuesSql: { score: 'score + 1' } })
  table.close()
  db.close()

  await openApp(page, catalog.harness)
  await openTable(page, ['shop'], 'orders')
  await page.getByRole('button', { name: 'Stats' }).click()
  const panel = page.getByRole('complementary', { name: 'Stats' })
  await expect(panel.getByRole('definition').first()).toHaveText('9')
  await expect(panel).toContainText(/Rows removed by deletes\s*3/)
  await expect(panel).toContainText(/Old copies of updated rows\s*4/)
  await expect(panel.getByRole('note')).toHaveText('7 marked rows stay on disk until Optimize purges them.')
  await expect(panel).not.toContainText('Deleted rows')
  await screenshot(page, 'lifecycle-stats-deleted-rows')

  await panel.getByRole('button', { name: 'Optimize…' }).click()
  const confirm = page.getByRole('dialog', { name: 'Optimize table' })
  await confirm.getByRole('button', { name: 'Optimize' }).click()
  await expect(confirm).toBeHidden()
  await expect(panel).toContainText(/Rows removed by deletes\s*0/)
  await expect(panel).toContainText(/Old copies of updated rows\s*0/)
  await expect(panel.getByRole('note')).toHaveCount(0)
})

test('the Read-only switch disables every write with the reason; a drop offers to switch it off', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const toggle = page.getByRole('switch', { name: 'Read-only' })
  await expect(toggle).toHaveAttribute('aria-checked', 'false') // off by default for a local directory
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-checked', 'true')
  await screenshot(page, 'lifecycle-read-only-switch')

  await page.getByRole('treeitem', { name: 'shop', exact: true }).click({ button: 'right' })
  for (const name of ['New namespace…', 'New table…', 'Drop namespace…']) {
    const item = page.getByRole('menuitem', { name, exact: false }).first()
    await expect(item).toBeDisabled()
    await expect(item).toHaveAttribute('aria-description', /read-only/)
  }
  await page.keyboard.press('Escape')

  await openTable(page, ['shop'], 'orders')
  await page.getByRole('button', { name: 'Versions' }).click()
  const restore = page.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Restore this version' })
  await expect(restore).toBeDisabled()
  await expect(restore).toHaveAttribute('title', /read-only/)
  // Reading old versions stays possible.
  await page.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Open read-only' }).click()
  await expect(page.getByTestId('row-count')).toHaveText('5')
  await page.getByRole('button', { name: 'Indexes' }).click()
  await expect(page.getByRole('button', { name: 'Create index' })).toBeDisabled()

  // A file dropped on the read-only catalog: the app offers to switch Read-only off, then imports.
  const shop = page.getByRole('treeitem', { name: 'shop', exact: true })
  await dropFiles(page, shop, [{ name: 'one.jsonl', bytes: '{"a":1}\n' }])
  const offer = page.getByRole('dialog', { name: 'catalog is read-only' })
  await expect(offer).toBeVisible()
  await screenshot(page, 'lifecycle-read-only-drop')
  await offer.getByRole('button', { name: 'Switch off and import' }).click()
  await expect(page.getByRole('dialog', { name: /^Import / })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create index' })).toBeEnabled()
})
