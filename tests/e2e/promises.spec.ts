/**
 * Promises kept: a restore says which indexes the restored version keeps and which are gone, and
 * rebuilds the lost ones as index jobs; Find similar rows says "approximate (index)" or "exact" and offers an
 * exact search and a refine factor. In Chromium against the real core over the harness.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { test as base } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, gridCell, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-promises-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { tables: [{ namespace: [], name: 'docs', data: sampleTable(3000, { dimension: 8 }) }] }) // v1: no indexes
    const db = await lancedb.connectNamespace('dir', { root })
    const docs = await db.openTable('docs')
    await docs.createIndex('label', { config: lancedb.Index.fts() }) // v2
    await docs.createIndex('vector', { config: lancedb.Index.ivfPq({ numPartitions: 4, numSubVectors: 2 }) }) // v3
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

test('restore says which indexes will be gone, rebuilds them as jobs, and full-text search comes back', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, [], 'docs')
  await expect(page.getByRole('searchbox', { name: 'Full-text search' })).toBeVisible()
  await page.getByRole('button', { name: 'Versions' }).click()
  const panel = page.getByRole('complementary', { name: 'Versions' })
  await panel.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Restore this version' }).click()
  const confirm = page.getByRole('dialog', { name: 'Restore version 1' })
  const indexes = confirm.getByRole('group', { name: 'Indexes after the restore' })
  await expect(indexes).toContainText('Gone after the restore: “label_idx”, “vector_idx”')
  await expect(indexes).toContainText('without its full-text index the table has no full-text search')
  const rebuildFts = confirm.getByRole('checkbox', { name: 'Rebuild label_idx (FTS on label) on the restored version' })
  const rebuildVector = confirm.getByRole('checkbox', { name: 'Rebuild vector_idx (IvfPq on vector) on the restored version' })
  await expect(rebuildFts).toBeChecked()
  await expect(rebuildVector).toBeChecked()
  await expect(confirm).not.toContainText('nothing is lost')
  // (resources/screenshots/restore-prompt.png, in the user guide, is this screenshot.)
  await screenshot(page, 'restore-prompt')

  // Rebuild only the full-text index.
  await rebuildVector.uncheck()
  await confirm.getByRole('button', { name: 'Restore' }).click()
  await expect(confirm).toBeHidden()
  // The restore commits version 4 and the rebuild job version 5 — the job may end before the view has described
  // the restored table, so the header shows 4 (then offers the newer version) or already 5.
  await expect(page.getByTestId('table-version')).toHaveText(/^[45]$/)
  // The rebuild is an index job in the jobs panel (which folds itself away when its last job ends: open it again
  // from the status bar's indicator if it did).
  await expect(async () => {
    const indicator = page.getByRole('button', { name: /^Jobs: / })
    if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
    await expect(page.getByRole('region', { name: 'Jobs' }).getByRole('listitem', { name: 'Index label_idx on docs' })).toContainText('Done', { timeout: 2_000 })
  }).toPass()
  const version = page.getByTestId('table-version')
  const newer = page.getByRole('status', { name: 'Newer version' })
  await expect(newer.or(version.filter({ hasText: /^5$/ }))).toBeVisible()
  if (await newer.isVisible()) await newer.getByRole('button', { name: 'Reload' }).click()
  await expect(version).toHaveText('5')
  // Version 5 has the rebuilt full-text index and not the vector index the user chose not to rebuild.
  await page.getByRole('button', { name: 'Indexes' }).click()
  const indexesPanel = page.getByRole('complementary', { name: 'Indexes' })
  await expect(indexesPanel.getByRole('listitem', { name: /^Index label_idx, (FTS|Inverted)/i })).toBeVisible()
  await expect(indexesPanel.getByRole('listitem', { name: /^Index vector_idx/ })).toHaveCount(0)
  const search = page.getByRole('searchbox', { name: 'Full-text search' })
  await expect(search).toBeVisible()
  await search.fill('row-42')
  await search.press('Enter')
  await expect(page.getByTestId('row-count')).not.toHaveText('3,000')
})

test('find similar rows says approximate (index) or exact, and offers exact search and a refine factor', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const grid = await openTable(page, [], 'docs')
  await gridCell(grid, 5, 1).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
  const bar = page.getByRole('region', { name: 'Similar rows' })
  await expect(bar.getByTestId('search-mode')).toHaveText('approximate (index)')
  await expect(bar.getByTestId('index-note')).toHaveText('uses the vector index on vector: distances are approximate')
  await screenshot(page, 'similar-approximate')

  // A refine factor re-ranks refine × k candidates by their exact distance.
  await bar.getByRole('spinbutton', { name: 'Refine factor' }).fill('10')
  await bar.getByRole('spinbutton', { name: 'Refine factor' }).press('Enter')
  await expect(bar.getByTestId('index-note')).toHaveText('uses the vector index on vector: distances are approximate, the best 10× k re-ranked exactly')

  // Exact search bypasses the index: every row compared, the source row first at distance 0.
  await bar.getByRole('checkbox', { name: 'Exact search' }).check()
  await expect(bar.getByTestId('search-mode')).toHaveText('exact')
  await expect(bar.getByTestId('index-note')).toHaveText('every row compared (the vector index is bypassed)')
  await expect(bar.getByRole('spinbutton', { name: 'Refine factor' })).toHaveCount(0)
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await expect(gridCell(grid, 0, 1)).toHaveText('5')
  await screenshot(page, 'similar-exact')
  await bar.getByRole('checkbox', { name: 'Exact search' }).uncheck()
  await expect(bar.getByTestId('search-mode')).toHaveText('approximate (index)')
})

test('writes to one table run one at a time: an Optimize while an index build runs or waits is refused with the reason', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, [], 'docs')
  // Another write to the table is under way (held by the test until it says so): the build queues behind it.
  const service = catalog.harness.service
  const list = await service.dispatch('connections/list', {})
  if (!list.ok) throw new Error('no connections')
  const connectionId = (list.value as { id: string }[])[0]!.id
  let release!: () => void
  const held = service.lifecycle.writes.write({ connectionId, namespace: [], name: 'docs' }, 'an earlier write', () => new Promise<void>((resolve) => (release = resolve)))

  await page.getByRole('button', { name: 'Indexes' }).click()
  const form = page.getByRole('complementary', { name: 'Indexes' }).getByRole('form', { name: 'New index' })
  await form.getByLabel('Column').selectOption('score')
  await form.getByLabel('Type').selectOption('BTREE')
  await form.getByRole('button', { name: 'Create index' }).click()
  // A running job keeps the jobs panel open.
  const job = page.getByRole('region', { name: 'Jobs' }).getByRole('listitem', { name: 'Index score_idx on docs' })
  await expect(job).toContainText('Waiting for an earlier write to finish on this table')
  await expect(job.locator('.job-state')).toHaveText('Waiting')

  await page.getByRole('button', { name: 'Stats' }).click()
  await page.getByRole('complementary', { name: 'Stats' }).getByRole('button', { name: 'Optimize…' }).click()
  const confirm = page.getByRole('dialog', { name: 'Optimize table' })
  await expect(confirm.getByRole('alert')).toContainText('Index “score_idx” is being built on this table: Optimize can run when the build has ended')
  await expect(confirm).not.toContainText('Indexes are up to date')
  await expect(confirm.getByRole('button', { name: 'Optimize' })).toBeDisabled()
  await screenshot(page, 'optimize-during-build')
  // The core refuses it too (not only the button): in words, with the reason.
  const refused = await service.dispatch('tables/optimize', { connectionId, namespace: [], name: 'docs' })
  expect(refused.ok ? null : refused.error.message).toBe('Optimize cannot run now: index “score_idx” is being built on this table')
  await confirm.getByRole('button', { name: 'Cancel' }).click()

  release()
  await held
  // The jobs panel closes when nothing runs; its indicator opens it again.
  const indicator = page.getByRole('button', { name: /^Jobs: .*1 other job ended/ })
  await expect(indicator).toHaveAttribute('aria-expanded', 'false')
  await indicator.click()
  await expect(job).toContainText('Done')
  await page.getByRole('complementary', { name: 'Stats' }).getByRole('button', { name: 'Optimize…' }).click()
  await expect(confirm.getByRole('button', { name: 'Optimize' })).toBeEnabled()
  await expect(confirm.getByRole('alert')).toHaveCount(0)
  await confirm.getByRole('button', { name: 'Optimize' }).click()
  await expect(confirm).toBeHidden()
})
