/**
 * A file whose reading aborts its process (polars on a Parquet timestamp zone it cannot parse) dropped on a namespace
 * in the browser: the reader process ends alone. The sheet says what happened in words, the app keeps answering (a
 * table opens at once), and the next file dropped imports. The harness runs in this test's own process: had the
 * reader run in it, the abort would have ended the test.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { writeZonedParquet } from '../fixtures/import/zoned'
import { ABORTING_READER_ENV, setEnv } from '../fixtures/import/hostile'
import { dropFiles } from './drop'

interface Fixture {
  dir: string
  harness: Harness
}

const test = base.extend<{ catalog: Fixture }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-isolation-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }] })
    // The zoned Parquet file imports now; with polars' zone check back on it aborts its reader (hostile.ts).
    const restoreEnv = setEnv(ABORTING_READER_ENV)
    const harness = await startHarness({ root })
    await use({ dir, harness })
    await harness.close()
    restoreEnv()
    await removeDir(dir)
  },
})

function sheet(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Import / })
}

test('a file that aborts its reader is refused in words; the app keeps answering and the next file imports', async ({ page, catalog }) => {
  const zoned = join(catalog.dir, 'zoned.parquet')
  await writeZonedParquet(zoned, '+05:30')
  await openApp(page, catalog.harness)
  await treeItem(page, 'lab').click()
  await expect(treeItem(page, 'existing')).toBeVisible()

  await dropFiles(page, treeItem(page, 'lab'), [{ name: 'zoned.parquet', bytes: await readFile(zoned) }], { expectDropTarget: true })
  const dialog = sheet(page)
  const alert = dialog.getByRole('alert').filter({ hasText: 'This file cannot be imported' })
  await expect(alert).toBeVisible()
  await expect(alert).toContainText('The Parquet reader stopped on the timestamp zone +05:30 in column `ts` of zoned.parquet')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
  await screenshot(page, 'import-sheet-reader-stopped')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // The app answers at once: a table opens with its rows within a second.
  await treeItem(page, 'existing').click()
  await expect(page.getByRole('grid', { name: 'existing' })).toHaveAttribute('aria-rowcount', '6', { timeout: 1_000 })

  // The next file imports.
  const csv = ['id,city', ...Array.from({ length: 40 }, (_, i) => `${i},${['Oslo', 'Pune'][i % 2]}`)].join('\n')
  await dropFiles(page, treeItem(page, 'lab'), [{ name: 'cities.csv', bytes: csv }], { expectDropTarget: true })
  await expect(dialog.getByLabel('Table name')).toHaveValue('cities')
  await expect(dialog.getByRole('table', { name: 'First rows' }).locator('tbody tr')).toHaveCount(20)
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('grid', { name: 'cities' })).toHaveAttribute('aria-rowcount', '41')
})
