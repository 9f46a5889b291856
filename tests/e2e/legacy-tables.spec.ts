/**
 * A table in Lance's legacy (v1) file format — written by vectordb 0.4.20 (tests/fixtures/writers, made by
 * scripts/make-writer-fixtures.mjs) — in the browser: sort by a header, go to a row of the sorted view, and What
 * changed between two versions. lancedb's takes fail on these files; the app reads them another way.
 *
 * The fixture's `items`: v1 = rows 0–299, v2 = rows 300–319 added, v3 = ids ending in 7 deleted, v4 = the score of
 * ids 0–4 set to 99.5; `name` = "item-" + (id × 37 mod 1000), three digits (unique).
 */
import { cp } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { test as base } from '@playwright/test'
import { expect, gridCell, gridRow, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const FIXTURE = resolve(__dirname, '../fixtures/writers/vectordb-0.4.20')

/** The names at version 4, sorted ascending. */
const NAMES = Array.from({ length: 320 }, (_, id) => id)
  .filter((id) => id % 10 !== 7)
  .map((id) => `item-${String((id * 37) % 1000).padStart(3, '0')}`)
  .sort()

const test = base.extend<{ catalog: { harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-legacy-')
    const root = join(dir, 'catalog')
    // A copy: the committed fixture is never opened in place.
    await cp(FIXTURE, root, { recursive: true })
    const harness = await startHarness({ root })
    await use({ harness })
    await harness.close()
    await removeDir(dir)
  },
})

test('a vectordb 0.4 table (legacy files): sort by a header, go to a row of the sorted view, What changed', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const grid = await openTable(page, [], 'items')
  await expect(grid).toHaveAttribute('aria-rowcount', '289')

  const header = grid.getByRole('columnheader', { name: 'name' })
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'ascending')
  await expect(gridCell(grid, 0, 1)).toHaveText(NAMES[0]!)
  await expect(gridCell(grid, 1, 1)).toHaveText(NAMES[1]!)
  await header.click()
  await expect(header).toHaveAttribute('aria-sort', 'descending')
  await expect(gridCell(grid, 0, 1)).toHaveText(NAMES.at(-1)!)
  await expect(gridCell(grid, 1, 1)).toHaveText(NAMES.at(-2)!)
  await expect(page.getByRole('alert')).toHaveCount(0)

  // Go to row 201 of the sorted view.
  await grid.focus()
  await page.keyboard.press('Control+g')
  const dialog = page.getByRole('dialog', { name: 'Go to row' })
  await dialog.getByRole('textbox').fill('201')
  await dialog.getByRole('textbox').press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(gridCell(grid, 200, 1)).toHaveText(NAMES[NAMES.length - 201]!)
  await expect(gridCell(grid, 200, 0)).toHaveAttribute('aria-selected', 'true')
  await expect(gridRow(grid, 200).getByRole('rowheader')).toHaveText('201')
  await screenshot(page, 'legacy-sorted-go-to-row')

  // What changed from version 1 to 4, rows matched by name (the ids are floats, not a key).
  await page.getByRole('button', { name: 'Versions' }).click()
  const panel = page.getByRole('complementary', { name: 'Versions' })
  const form = panel.getByRole('form', { name: 'Compare versions' })
  await form.getByRole('combobox', { name: 'From version' }).selectOption('1')
  await form.getByRole('combobox', { name: 'To version' }).selectOption('4')
  await form.getByRole('button', { name: 'Compare…' }).click()
  await expect(panel.getByRole('region', { name: 'Comparison' })).toContainText('v1 300 → v4 288')
  await form.getByRole('combobox', { name: 'Key column' }).selectOption('name')
  await form.getByRole('button', { name: 'Show changes' }).click()
  // What changed opens in a tab of its own (features/workbench): read the tab shown.
  const shown = page.getByRole('tabpanel')
  const banner = page.getByRole('region', { name: 'Changes from version 1 to version 4: 18 added, 30 deleted, 5 changed' })
  await expect(banner).toBeVisible()
  await expect(shown.getByTestId('row-count')).toHaveText('5')
  await expect(grid.getByRole('gridcell', { name: '99.5', exact: true })).toHaveCount(5)
  await banner.getByRole('button', { name: /^Deleted/ }).click()
  await expect(shown.getByTestId('table-version')).toHaveText('1')
  await expect(shown.getByTestId('row-count')).toHaveText('30')
  // The view keeps its sort (name, descending): the deleted row with the greatest name (id 27) first.
  await expect(gridCell(grid, 0, 1)).toHaveText('item-999')
  await expect(gridCell(grid, 0, 0)).toHaveText('27')
  await screenshot(page, 'legacy-what-changed')
})
