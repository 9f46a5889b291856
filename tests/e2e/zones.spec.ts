/**
 * Parquet and Arrow files whose timestamps carry an offset zone (`+05:30`) dropped on a namespace import: the sheet
 * says the zone is normalised to UTC and kept in the column's metadata, and the grid shows the same instants in UTC.
 * (Before: polars aborted the Parquet reader; Lance panicked on the Arrow file, "Panic in async function".)
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { buildCatalog } from '../helpers/catalog'
import { expect, gridCell, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { writeZonedArrow, writeZonedParquet } from '../fixtures/import/zoned'
import { dropFiles } from './drop'

interface Fixture {
  dir: string
  harness: Harness
}

const test = base.extend<{ catalog: Fixture }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-zones-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }] })
    const harness = await startHarness({ root })
    await use({ dir, harness })
    await harness.close()
    await removeDir(dir)
  },
})

function sheet(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Import / })
}

for (const { ext, write } of [
  { ext: 'parquet', write: writeZonedParquet },
  { ext: 'arrow', write: writeZonedArrow },
]) {
  test(`a ${ext} file with timestamps in zone +05:30 imports: the sheet says the zone is normalised, the grid shows the times`, async ({ page, catalog }) => {
    const path = join(catalog.dir, `zoned.${ext}`)
    await write(path, '+05:30')
    await openApp(page, catalog.harness)
    await treeItem(page, 'lab').click()
    await expect(treeItem(page, 'existing')).toBeVisible()

    await dropFiles(page, treeItem(page, 'lab'), [{ name: `zoned.${ext}`, bytes: await readFile(path) }], { expectDropTarget: true })
    const dialog = sheet(page)
    const conversions = dialog.getByRole('region', { name: 'Conversions' })
    await expect(conversions).toContainText('Timestamp[ms, +05:30] → Timestamp[ms, UTC]')
    await expect(conversions).toContainText("the same instants, stored in UTC; the file's zone +05:30 is kept in the column's metadata")
    await expect(dialog.getByRole('table', { name: 'First rows' }).locator('tbody tr')).toHaveCount(3)
    await expect(dialog.getByRole('alert')).toHaveCount(0)
    if (ext === 'parquet') await screenshot(page, 'import-sheet-zone-normalised')
    await dialog.getByRole('button', { name: 'Import' }).click()
    await expect(dialog).toBeHidden()

    const grid = page.getByRole('grid', { name: 'zoned' })
    await expect(grid).toHaveAttribute('aria-rowcount', '4', { timeout: 30_000 })
    await expect(gridCell(grid, 0, 1)).toHaveText('2023-11-14T22:13:20.000Z')
    await expect(gridCell(grid, 2, 1)).toHaveText('2023-11-14T22:13:22.000Z')
  })
}
