import type { Locator, Page } from '@playwright/test'
import { expect } from '../helpers/e2e'

/**
 * The toolbar never wraps: a button that does not fit on its line is an item of the **More tools** menu
 * (components/toolbar/OverflowToolbar.tsx). These helpers reach a toolbar button by its name either way, so a
 * spec reads the same in a wide window, a narrow one or a split pane. `scope` holds one toolbar: the page with one
 * view, or one pane.
 */
export const moreTools = (scope: Page | Locator) => scope.getByRole('button', { name: 'More tools' })
export const moreToolsMenu = (scope: Page | Locator) => scope.getByRole('menu', { name: 'More tools' })

/** The More tools menu's item of that name (a `menuitem`, or a `menuitemcheckbox` for a toggle). */
export function moreToolsItem(scope: Page | Locator, name: string | RegExp): Locator {
  const options = typeof name === 'string' ? { name, exact: true } : { name }
  const menu = moreToolsMenu(scope)
  return menu.getByRole('menuitem', options).or(menu.getByRole('menuitemcheckbox', options))
}

/** Where the button is once the toolbar has laid out its items: on the bar (true) or in More tools (false). */
async function onTheBar(scope: Page | Locator, name: string | RegExp): Promise<boolean> {
  await expect(scope.locator('.overflow-toolbar:visible')).toHaveAttribute('data-measured', 'true')
  const button = scope.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name })
  await expect(button.or(moreTools(scope)).first()).toBeVisible()
  return button.isVisible()
}

/** Clicks the toolbar button `name`: on the bar if it is there, else its item through More tools. */
export async function toolbarButton(scope: Page | Locator, name: string | RegExp): Promise<void> {
  if (await onTheBar(scope, name)) return scope.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name }).click()
  await moreTools(scope).click()
  await moreToolsItem(scope, name).click()
}

/** Whether the toggle `name` (a panel, Gallery, Histograms) is on: its button pressed, or its menu item checked. */
export async function expectToolOn(scope: Page | Locator, name: string, on: boolean): Promise<void> {
  if (await onTheBar(scope, name)) return expect(scope.getByRole('button', { name, exact: true })).toHaveAttribute('aria-pressed', String(on))
  await moreTools(scope).click()
  await expect(moreToolsItem(scope, name)).toHaveAttribute('aria-checked', String(on))
  await moreToolsMenu(scope).press('Escape')
  await expect(moreToolsMenu(scope)).toHaveCount(0)
}
