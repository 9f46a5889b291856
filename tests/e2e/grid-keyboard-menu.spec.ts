import type { Locator, Page } from '@playwright/test'
import { expect, gridCell, openTable, screenshot, test } from '../helpers/e2e'

/**
 * The grid's cell menu from the keyboard (issue #40 item 9): the Menu key and Shift+F10 open the same menu a
 * right-click does (one list: the quick filters, Find similar rows, the copy formats and Inspect cell), and
 * Escape — from the menu or the cell inspector — gives the focus back to the grid, on the cell it came from.
 */
const menuItems = async (page: Page) => page.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem').allTextContents()

async function expectFocusOnCell(grid: Locator, cell: Locator) {
  await expect(grid).toBeFocused()
  await expect(grid).toHaveAttribute('aria-activedescendant', (await cell.getAttribute('id')) ?? 'no id')
  await expect(cell).toHaveAttribute('aria-selected', 'true')
}

test('the keyboard’s cell menu has the mouse’s items; Escape gives the focus back to the cell', async ({ app }) => {
  const grid = await openTable(app, ['demo', 'images', '2024'], 'photos')
  const cell = gridCell(grid, 2, 1)
  await expect(cell).not.toHaveText('')

  // The mouse's menu, then Escape: back on the cell.
  await cell.click({ button: 'right' })
  const menu = app.getByRole('menu', { name: 'Cell actions' })
  await expect(menu).toBeVisible()
  const byMouse = await menuItems(app)
  expect(byMouse).toEqual(['Filter to this value', 'Exclude this value', 'Is null', 'Find similar rows', 'Copy link to this view', 'Copy', 'Copy as CSV', 'Copy as JSON', 'Copy as Markdown', 'Inspect cell'])
  await app.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expectFocusOnCell(grid, cell)

  // Shift+F10 on the same cell: the same items, the first one focused.
  await app.keyboard.press('Shift+F10')
  await expect(menu).toBeVisible()
  expect(await menuItems(app)).toEqual(byMouse)
  await expect(app.getByRole('menuitem', { name: 'Filter to this value' })).toBeFocused()
  await screenshot(app, 'grid-keyboard-menu')
  await app.keyboard.press('Escape')
  await expect(menu).toHaveCount(0)
  await expectFocusOnCell(grid, cell)

  // The Menu key too, after moving: the menu is about the new cell, and Escape comes back to it.
  await app.keyboard.press('ArrowDown')
  const below = gridCell(grid, 3, 1)
  await expect(below).toHaveAttribute('aria-selected', 'true')
  await app.keyboard.press('ContextMenu')
  await expect(menu).toBeVisible()
  expect(await menuItems(app)).toEqual(byMouse)
  await app.keyboard.press('Escape')
  await expectFocusOnCell(grid, below)

  // Inspect cell from the keyboard's menu, then Escape: the inspector closes and the focus is on the cell again.
  await app.keyboard.press('Shift+F10')
  await app.keyboard.press('ArrowUp') // wraps to the last item
  await expect(app.getByRole('menuitem', { name: 'Inspect cell' })).toBeFocused()
  await app.keyboard.press('Enter')
  const inspector = app.getByRole('complementary', { name: 'Cell inspector' })
  await expect(inspector).toBeVisible()
  await app.keyboard.press('Escape')
  await expect(inspector).toHaveCount(0)
  await expectFocusOnCell(grid, below)

  // An item chosen from the keyboard runs: Filter to this value.
  await app.keyboard.press('Shift+F10')
  await app.keyboard.press('Enter')
  await expect(app.getByRole('textbox', { name: 'Filter rows' })).toHaveValue(/^title = '/)
  await expect(app.getByTestId('row-count')).toHaveText('1')
})
