import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { Binary, Int32, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../src/core/arrow'
import { demoPng } from '../../src/core/demo/images'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { moreTools, moreToolsItem, moreToolsMenu } from './toolbar'

/**
 * The toolbar never wraps (#38 item 5): what does not fit on its line moves into **More tools**, a menu button
 * (Enter/Space/ArrowDown opens, arrows move, Escape closes and gives focus back, Tab leaves) whose items do what
 * the buttons do — a panel opens its dock and shows checked, Export… opens its sheet, Gallery switches the view.
 * At 1280 px full width every button is on the bar and there is no More tools.
 */
const ROWS = 200
const DIM = 8
let dir: string
let root: string
let harness: Harness

/** `things` has a vector column (Map) and an image column (Gallery); `plain` only the vector. */
function things(images: boolean) {
  const random = seededRandom(11)
  const png = demoPng(40, 1, 8)
  return tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i), new Int32()),
      label: vectorFromArray(Array.from({ length: ROWS }, (_, i) => `thing ${i % 7}`), new Utf8()),
      ...(images ? { image: vectorFromArray(Array.from({ length: ROWS }, () => png), new Binary()) } : {}),
      vec: { vector: float32Vectors(new Float32Array(ROWS * DIM).map(() => random()), DIM), nullable: false },
    }),
  ])
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await makeTempDir('lcb-e2e-overflow-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'things', data: things(true) },
      { namespace: [], name: 'plain', data: things(false) },
    ],
  })
})
test.afterAll(async () => removeDir(dir))
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => harness.close())

const toolbarOf = (scope: Page | Locator) => scope.locator('.table-header .overflow-toolbar')

/** The middle of each shown item's line: one value when the toolbar holds one line. */
async function lines(toolbar: Locator): Promise<number> {
  const middles = await toolbar.locator(':scope > *:not([hidden])').evaluateAll((els) => els.map((e) => Math.round((e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2)))
  return new Set(middles).size
}

/** What lies outside the toolbar (an item cut at either end), or the toolbar outside the view: '' when nothing. */
async function cut(toolbar: Locator): Promise<string> {
  return toolbar.evaluate((bar) => {
    const box = bar.getBoundingClientRect()
    const view = bar.closest('.table-view')!.getBoundingClientRect()
    if (box.left < view.left - 0.5 || box.right > view.right + 0.5) return `toolbar ${box.left}–${box.right} outside the view ${view.left}–${view.right}`
    const outside = [...bar.children]
      .filter((e) => !(e as HTMLElement).hidden)
      .map((e) => ({ name: (e as HTMLElement).dataset.tool ?? 'more', r: e.getBoundingClientRect() }))
      .filter(({ r }) => r.left < box.left - 0.5 || r.right > box.right + 0.5)
    return outside.map(({ name, r }) => `${name} ${r.left}–${r.right} outside ${box.left}–${box.right} at ${window.innerWidth}`).join('; ')
  })
}

/** One line, nothing cut, and More tools shown exactly when something moved into it. */
async function expectOneLine(scope: Page | Locator): Promise<void> {
  const toolbar = toolbarOf(scope)
  await expect(toolbar).toHaveAttribute('data-measured', 'true')
  await expect.poll(() => lines(toolbar)).toBe(1)
  await expect.poll(() => cut(toolbar)).toBe('')
  const moved = await toolbar.locator(':scope > [hidden]').count()
  await expect(moreTools(scope)).toHaveCount(moved > 0 ? 1 : 0)
}

/** Opens More tools by keyboard (focus, ArrowDown) and moves to `name` with the arrows; returns that item. */
async function keyboardTo(page: Page, scope: Page | Locator, name: string): Promise<Locator> {
  await moreTools(scope).focus()
  await page.keyboard.press('ArrowDown')
  const menu = moreToolsMenu(scope)
  await expect(menu).toBeVisible()
  const names = await menu.locator('[role^="menuitem"]').evaluateAll((els) => els.map((e) => e.textContent ?? ''))
  const index = names.indexOf(name)
  expect(index, `${name} in More tools (${names.join(', ')})`).toBeGreaterThanOrEqual(0)
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown')
  const item = moreToolsItem(scope, name)
  await expect(item).toBeFocused()
  return item
}

test('at 1280×800 full width every button is on one line and there is no More tools', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, harness)
  // A table without an image column (no Gallery button): with one, Reload moves into More tools at 1280 px.
  await openTable(page, [], 'plain')
  await expectOneLine(page)
  await expect(moreTools(page)).toHaveCount(0)
  for (const name of ['Go to row…', 'Versions', 'Export…', 'Histograms', 'Summary', 'Map', 'Schema', 'Reload table']) await expect(page.getByRole('button', { name, exact: true })).toBeVisible()
})

test('at 900×600 the toolbar is one line; Summary, Map, Versions, Export… and Gallery work through More tools by mouse and keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  await openApp(page, harness)
  await openTable(page, [], 'things')
  await expectOneLine(page)
  await expect(moreTools(page)).toBeVisible()
  await expect(moreTools(page)).toHaveAttribute('aria-expanded', 'false')
  // The query controls keep their place at the start of the bar.
  await expect(page.getByRole('button', { name: 'Go to row…' })).toBeVisible()

  // Mouse: Summary opens its panel (in the drawer of a narrow view) and shows checked in the menu.
  await moreTools(page).click()
  await expect(moreTools(page)).toHaveAttribute('aria-expanded', 'true')
  await screenshot(page, 'toolbar-overflow-menu-900x600')
  await moreToolsItem(page, 'Summary').click()
  await expect(moreToolsMenu(page)).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  await moreTools(page).click()
  await expect(moreToolsItem(page, 'Summary')).toHaveAttribute('aria-checked', 'true')
  await expect(moreToolsItem(page, 'Map')).toHaveAttribute('aria-checked', 'false')
  // Escape closes the menu and gives the focus back to More tools.
  await page.keyboard.press('Escape')
  await expect(moreToolsMenu(page)).toHaveCount(0)
  await expect(moreTools(page)).toBeFocused()

  // Keyboard: ArrowDown opens, arrows move, Enter chooses. Map joins the drawer as its shown tab.
  await (await keyboardTo(page, page, 'Map')).press('Enter')
  await expect(page.getByRole('region', { name: 'Embedding map' })).toBeVisible()
  await expect(page.locator('[data-dock="drawer"]').getByRole('tab')).toHaveText(['Summary', 'Map'])
  // Escape closes the drawer (the dock's own Escape). Versions is still on the bar here (the split pane below
  // reaches it through More tools).
  await page.keyboard.press('Escape')
  await expect(page.locator('[data-dock="drawer"]')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Versions', exact: true })).toBeVisible()

  // Export… opens its sheet (mouse), and again by keyboard.
  await moreTools(page).click()
  await moreToolsItem(page, 'Export…').click()
  const sheet = page.getByRole('dialog', { name: 'Export things' })
  await expect(sheet).toBeVisible()
  await sheet.getByRole('button', { name: 'Cancel' }).click()
  await expect(sheet).toHaveCount(0)
  await (await keyboardTo(page, page, 'Export…')).press('Enter')
  await expect(sheet).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(sheet).toHaveCount(0)

  // Gallery: on by mouse (the thumbnails replace the grid), off by keyboard.
  await moreTools(page).click()
  await moreToolsItem(page, 'Gallery').click()
  const gallery = page.getByRole('grid', { name: /^Gallery of / })
  await expect(gallery).toBeVisible()
  await moreTools(page).click()
  await expect(moreToolsItem(page, 'Gallery')).toHaveAttribute('aria-checked', 'true')
  await page.keyboard.press('Escape')
  await (await keyboardTo(page, page, 'Gallery')).press('Enter')
  await expect(gallery).toHaveCount(0)
  await expect(page.getByRole('grid', { name: 'things' })).toBeVisible()

  // Tab leaves the menu: it closes and the focus moves on past More tools.
  await moreTools(page).focus()
  await page.keyboard.press('ArrowDown')
  await expect(moreToolsMenu(page)).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(moreToolsMenu(page)).toHaveCount(0)
  await expect(moreTools(page)).not.toBeFocused()
  await expect(page.getByRole('textbox', { name: 'Filter rows' })).toBeFocused()
})

test('in a split pane at 900×600 Versions and Columns move too: Versions opens by Space, Columns opens its popover under More tools', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  await openApp(page, harness)
  await openTable(page, [], 'things')
  await page.getByRole('button', { name: 'Split right' }).click()
  const pane = page.getByRole('tabpanel').nth(1)
  const grid = pane.getByRole('grid', { name: 'things' })
  await expect(grid).toBeVisible()
  await expectOneLine(pane)
  await (await keyboardTo(page, pane, 'Versions')).press(' ')
  await expect(pane.getByRole('complementary', { name: 'Versions' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(pane.getByRole('complementary', { name: 'Versions' })).toHaveCount(0)
  await moreTools(pane).click()
  await moreToolsItem(pane, 'Columns').click()
  const popover = pane.getByRole('group', { name: 'Visible columns' })
  await expect(popover).toBeVisible()
  await popover.getByRole('checkbox').nth(1).uncheck()
  await expect(grid.getByRole('columnheader', { name: /^label/ })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expect(popover).toHaveCount(0)
  await expect(moreTools(pane)).toBeFocused()
  await moreTools(pane).click()
  await expect(moreToolsItem(pane, 'Columns (1 hidden)')).toBeVisible()
})

test('in a split pane the toolbar is one line and Summary opens through More tools', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, harness)
  await openTable(page, [], 'things')
  await page.getByRole('button', { name: 'Split right' }).click()
  const panes = page.getByRole('tabpanel')
  await expect(panes).toHaveCount(2)
  for (const pane of [panes.nth(0), panes.nth(1)]) await expectOneLine(pane)
  const right = panes.nth(1)
  await expect(moreTools(right)).toBeVisible()
  await moreTools(right).click()
  await moreToolsItem(right, 'Summary').click()
  await expect(right.getByRole('region', { name: 'Summary' })).toBeVisible()
  await expect(panes.nth(0).getByRole('region', { name: 'Summary' })).toHaveCount(0)
  await moreTools(right).click()
  await expect(moreToolsItem(right, 'Summary')).toHaveAttribute('aria-checked', 'true')
  await page.keyboard.press('Escape')
  await screenshot(page, 'toolbar-overflow-split')
})

test('the toolbar never wraps while the window narrows from 1280 to 700 px and widens again', async ({ page }) => {
  // Nineteen window sizes, each checked once it has laid out: slow on a loaded machine.
  test.setTimeout(120_000)
  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, harness)
  await openTable(page, [], 'plain')
  const widths = [1280, 1200, 1100, 1000, 950, 900, 850, 800, 750, 700]
  for (const width of [...widths, ...widths.slice(0, -1).reverse()]) {
    await page.setViewportSize({ width, height: 800 })
    await expectOneLine(page)
  }
  await expect(moreTools(page)).toHaveCount(0)
})
