/**
 * The jobs panel: one list for every kind of job (index builds, exports, imports), newest first, one status-bar
 * indicator, Clear finished, and Summary scans kept out of it (they show in the Summary).
 */
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const test = base.extend<{ harness: Harness }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  harness: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-jobs-')
    const root = await buildCatalog(join(dir, 'catalog'), { namespaces: [['shop']], tables: [{ namespace: ['shop'], name: 'orders', rows: 50 }] })
    const harness = await startHarness({ root })
    await use(harness)
    await harness.close()
    await removeDir(dir)
  },
})

test('index builds and exports share one jobs panel, newest first; Clear finished empties it; a Summary scan is not listed', async ({ page, harness }) => {
  await page.setViewportSize({ width: 1200, height: 800 })
  await openApp(page, harness)
  await openTable(page, ['shop'], 'orders')

  // An index build, as a job.
  await page.getByRole('button', { name: 'Indexes' }).click()
  const indexes = page.getByRole('complementary', { name: 'Indexes' })
  const form = indexes.getByRole('form', { name: 'New index' })
  await form.getByLabel('Column').selectOption('id')
  await form.getByLabel('Type').selectOption('BTREE')
  await form.getByRole('button', { name: 'Create index' }).click()
  await expect(indexes.getByRole('listitem', { name: /^Index id_idx/ })).toBeVisible()

  // An export (a download in the harness), as a job.
  await page.getByRole('button', { name: 'Export…' }).click()
  const sheet = page.getByRole('dialog', { name: 'Export orders' })
  await sheet.getByRole('radio', { name: /^CSV/ }).check()
  const download = page.waitForEvent('download')
  await sheet.getByRole('button', { name: 'Export', exact: true }).click()
  await download

  // A Summary scan is a job too, but it shows in the Summary, not in the jobs panel.
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Summary' }).getByTestId('summary-meta')).toContainText('50 rows')

  const indicator = page.getByRole('button', { name: 'Jobs: 2 other jobs ended' })
  await expect(indicator).toBeVisible()
  if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
  const panel = page.getByRole('region', { name: 'Jobs' })
  const rows = panel.getByRole('listitem')
  await expect(rows).toHaveCount(2)
  await expect(rows.nth(0)).toHaveAccessibleName('Export of orders')
  await expect(rows.nth(0)).toContainText('Done')
  await expect(rows.nth(1)).toHaveAccessibleName('Index id_idx on orders')
  await expect(rows.nth(1)).toContainText('BTREE index on id built')
  await expect(panel).toContainText('2 finished')
  await screenshot(page, 'jobs-panel')

  await panel.getByRole('button', { name: 'Clear finished' }).click()
  await expect(panel).toHaveCount(0)
  await expect(page.getByRole('button', { name: /^Jobs: |^Imports: / })).toHaveCount(0)
})
