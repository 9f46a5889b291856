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

test('jobs beyond the budget wait as Queued with the reason and their place; a queued one cancels at once; they run when a slot frees', async ({ page, harness }) => {
  await page.setViewportSize({ width: 1200, height: 800 })
  await openApp(page, harness)
  await openTable(page, ['shop'], 'orders')
  // Every slot taken, as by three long jobs (held by the test until it says so): whatever starts now waits.
  const budget = harness.service.jobs.budget
  const held = (['index', 'diff', 'import'] as const).map((kind) => budget.enter(kind))
  expect(held.every((t) => t.granted) && budget.counts().total === budget.limits.total).toBe(true)
  const exportCsv = async () => {
    await page.getByRole('button', { name: 'Export…' }).click()
    const sheet = page.getByRole('dialog', { name: 'Export orders' })
    await sheet.getByRole('radio', { name: /^CSV/ }).check()
    await sheet.getByRole('button', { name: 'Export', exact: true }).click()
    await expect(sheet).toHaveCount(0)
  }
  try {
    // Two exports started quickly: each is answered at once, queued.
    await exportCsv()
    await exportCsv()
    const panel = page.getByRole('region', { name: 'Jobs' })
    const rows = panel.getByRole('listitem', { name: 'Export of orders' })
    await expect(rows).toHaveCount(2)
    const [second, first] = [rows.nth(0), rows.nth(1)]
    await expect(first.locator('.job-state')).toHaveText('Queued')
    await expect(first).toContainText('Waiting for a free slot: at most 3 jobs run at once · next in line')
    await expect(second.locator('.job-state')).toHaveText('Queued')
    await expect(second).toContainText('1 queued before it')
    await expect(panel.locator('.jobs-summary')).toHaveText('2 queued')

    // A Summary waits too, and says so in its own panel.
    await page.getByRole('button', { name: 'Summary', exact: true }).click()
    const summary = page.getByRole('region', { name: 'Summary' })
    await expect(summary.getByRole('status', { name: 'Summary progress' })).toContainText('Queued: Waiting for a free slot: at most 3 jobs run at once')
    await screenshot(page, 'jobs-queued')

    // Cancel the second export while it waits: it ends at once (nothing of it ran), the first keeps its place.
    await second.getByRole('button', { name: 'Cancel export of orders' }).click()
    await expect(second.locator('.job-state')).toHaveText('Cancelled')
    await expect(second).toContainText('Cancelled; no file was written')
    await expect(first.locator('.job-state')).toHaveText('Queued')
    expect(budget.counts()).toMatchObject({ total: budget.limits.total, waiting: 2 })

    // The slots free: the first export runs and ends (its download comes), and the Summary shows its rows.
    const download = page.waitForEvent('download')
    for (const ticket of held) ticket.leave()
    await download
    await expect(summary.getByTestId('summary-meta')).toContainText('50 rows')
    const indicator = page.getByRole('button', { name: /^Jobs: 2 other jobs ended/ })
    if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
    await expect(first.locator('.job-state')).toHaveText('Done')
    await expect(second.locator('.job-state')).toHaveText('Cancelled')
  } finally {
    for (const ticket of held) ticket.leave()
  }
})
