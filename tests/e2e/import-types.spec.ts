/**
 * Files from other producers in the import sheet: a polars Arrow file (Utf8View, LargeList, ZSTD
 * buffers) lists its conversions; a CSV's ISO dates are typed, with a choice to keep them as text.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { polarsFrame, writePolarsIpc } from '../fixtures/import/polars'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { dir: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-import-types-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [] })
    const harness = await startHarness({ root })
    await use({ dir, harness })
    await harness.close()
    await removeDir(dir)
  },
})

/** A real drop of one file on `target`. */
const dropFile = (page: Page, target: Locator, name: string, bytes: Uint8Array) => dropFiles(page, target, [{ name, bytes }])

const sheet = (page: Page) => page.getByRole('dialog', { name: /^Import / })

for (const { scheme, ...size } of [
  { width: 1400, height: 900, scheme: 'light' as const },
  { width: 900, height: 600, scheme: 'dark' as const },
]) {
  test(`a polars Arrow file (Utf8View, ZSTD) lists its conversions and imports (${size.width}×${size.height}, ${scheme})`, async ({ page, catalog }) => {
    await page.setViewportSize(size)
    await page.emulateMedia({ colorScheme: scheme })
    const path = join(catalog.dir, 'polars.arrow')
    writePolarsIpc(polarsFrame(300, 100, false), path, 'file', 'zstd')
    await openApp(page, catalog.harness)
    await dropFile(page, treeItem(page, 'lab'), 'polars frame.arrow', await readFile(path))

    const dialog = sheet(page)
    const conversions = dialog.getByRole('region', { name: 'Conversions' })
    await expect(conversions).toBeVisible()
    await expect(conversions.getByRole('listitem').filter({ hasText: /^s\s*Utf8View → Utf8$/ })).toBeVisible()
    await expect(conversions.getByRole('listitem').filter({ hasText: /^l\s*LargeList<Int64> → List<Int64>$/ })).toBeVisible()
    await expect(dialog.getByRole('region', { name: 'Schema to write' })).toContainText('Timestamp<NANOSECOND, Europe/Paris>')
    await expect(dialog.getByRole('table', { name: 'First rows' }).locator('tbody tr')).toHaveCount(20)
    await screenshot(page, `import-conversions-${size.width}`)

    await dialog.getByRole('button', { name: 'Import' }).click()
    const grid = page.getByRole('grid', { name: 'polars_frame' })
    await expect(grid).toHaveAttribute('aria-rowcount', '301')
    await expect(grid.getByRole('gridcell', { name: 'a longer string, row 1 — ünïcödé' }).first()).toBeVisible()
  })
}

test('CSV dates and timestamps are typed, or kept as text when asked', async ({ page, catalog }) => {
  const csv = ['id,day,at,note', '1,2024-02-29,2024-03-01T12:30:00.5Z,a', '2,2024-03-01,2024-03-02 08:00:00+02:00,b', ''].join('\n')
  await openApp(page, catalog.harness)
  await dropFile(page, treeItem(page, 'lab'), 'visits.csv', new TextEncoder().encode(csv))

  const dialog = sheet(page)
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Date32<DAY>$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^at\s*Timestamp<MICROSECOND, UTC>$/ })).toBeVisible()
  await screenshot(page, 'import-csv-dates')

  const keep = dialog.getByRole('checkbox', { name: 'Keep dates and times as text' })
  await keep.check()
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Utf8$/ })).toBeVisible()
  await expect(schema.getByRole('listitem').filter({ hasText: /^at\s*Utf8$/ })).toBeVisible()
  await keep.uncheck()
  await expect(schema.getByRole('listitem').filter({ hasText: /^day\s*Date32<DAY>$/ })).toBeVisible()

  await dialog.getByRole('button', { name: 'Import' }).click()
  const grid = page.getByRole('grid', { name: 'visits' })
  await expect(grid).toHaveAttribute('aria-rowcount', '3')
  await expect(grid.getByRole('columnheader', { name: 'at' })).toBeVisible()
})
