import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * The **Recent filters** list under the filter box (features/table/RecentFilters.tsx): the filters applied to this
 * table, newest first; ArrowDown from the box opens it, arrows move, Enter or a click applies one, Escape closes it.
 */
let dir: string
let root: string
let harness: Harness

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-recent-')
  root = await buildCatalog(join(dir, 'catalog'), { tables: [{ namespace: [], name: 'small', rows: 1000 }] })
})
test.afterAll(async () => {
  await removeDir(dir)
})
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

const filterBox = (page: Page) => page.getByRole('textbox', { name: 'Filter rows' })
const rowCount = (page: Page) => page.getByTestId('row-count')

test('recent filters: newest first, chosen with the keyboard or a click, Escape closes the list', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'small')
  await expect(page.getByRole('button', { name: 'Recent filters' })).toHaveCount(0) // none yet
  for (const [predicate, rows] of [
    ['id < 10', '10'],
    ['id < 100', '100'],
  ] as const) {
    await filterBox(page).fill(predicate)
    await filterBox(page).press('Enter')
    await expect(rowCount(page)).toHaveText(rows)
  }

  // ArrowDown opens the list with the focus on the newest; down again, Enter applies the older one.
  await filterBox(page).press('ArrowDown')
  const list = page.getByRole('listbox', { name: 'Recent filters' })
  await expect(list.getByRole('option')).toHaveText(['id < 100', 'id < 10'])
  await expect(list.getByRole('option', { name: 'id < 100' })).toBeFocused()
  await expect(list.getByRole('option', { name: 'id < 100' })).toHaveAttribute('aria-selected', 'true')
  await screenshot(page, 'recent-filters')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Enter')
  await expect(list).toBeHidden()
  await expect(filterBox(page)).toHaveValue('id < 10')
  await expect(filterBox(page)).toBeFocused()
  await expect(rowCount(page)).toHaveText('10')

  // ArrowUp from the first option goes back to the box; Escape closes the list and leaves the filter as it was.
  await filterBox(page).press('ArrowDown')
  await expect(list).toBeVisible()
  await page.keyboard.press('ArrowUp')
  await expect(filterBox(page)).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(list.getByRole('option').first()).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(list).toBeHidden()
  await expect(filterBox(page)).toBeFocused()
  await expect(rowCount(page)).toHaveText('10')

  // A click applies one.
  await page.getByRole('button', { name: 'Recent filters' }).click()
  await list.getByRole('option', { name: 'id < 100' }).click()
  await expect(filterBox(page)).toHaveValue('id < 100')
  await expect(rowCount(page)).toHaveText('100')
})
