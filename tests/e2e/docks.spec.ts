import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { Float32, Int32, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, gridCell, makeTempDir, openApp, openTable, rememberedTabs, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { expectToolOn, toolbarButton } from './toolbar'

/**
 * Docked panels (#38 item 3): Summary, Map and Versions open at once never hide the grid. In a wide view they are
 * tabs of the right dock beside a grid at least 480 px wide; in a narrow one (a 900×600 window) they lie in one
 * drawer over the grid that Escape closes. The dock's separator resizes it by keyboard and is remembered. The cell
 * inspector joins the right dock as a tab; Similar rows opens in the bottom dock, under the grid.
 */
const ROWS = 3000
const DIM = 8
let dir: string
let root: string

function embeddings() {
  const random = seededRandom(7)
  const values = new Float32Array(ROWS * DIM).map(() => random())
  return tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i), new Int32()),
      label: vectorFromArray(Array.from({ length: ROWS }, (_, i) => `item ${i % 13}`), new Utf8()),
      weight: vectorFromArray(Array.from({ length: ROWS }, () => random() * 100), new Float32()),
      vec: { vector: float32Vectors(values, DIM), nullable: false },
    }),
  ])
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await makeTempDir('lcb-e2e-docks-')
  root = await buildCatalog(join(dir, 'catalog'), { tables: [{ namespace: [], name: 'embeddings', data: embeddings() }] })
})
test.afterAll(async () => {
  await removeDir(dir)
})

let harness: Harness
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

async function openThree(page: Page): Promise<Locator> {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'embeddings')
  for (const name of ['Summary', 'Map', 'Versions']) await toolbarButton(page, name)
  return grid
}

async function widthOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())?.width ?? 0
}

for (const [width, height] of [
  [1280, 800],
  [1920, 1080],
] as const) {
  test(`at ${width}×${height}, Summary + Map + Versions are tabs of the right dock and the grid keeps ≥ 480 px`, async ({ page }) => {
    await page.setViewportSize({ width, height })
    const grid = await openThree(page)
    const tabs = page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')
    await expect(tabs).toHaveText(['Summary', 'Map', 'Versions'])
    // The panel opened last is the one shown; the others keep their place as tabs.
    await expect(tabs.nth(2)).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('complementary', { name: 'Versions' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'Summary' })).toBeHidden()
    // The grid beside the dock: wide, and showing rows.
    await expect(grid.getByRole('gridcell', { name: 'item 0', exact: true }).first()).toBeVisible()
    expect(await widthOf(grid)).toBeGreaterThanOrEqual(480)
    // Arrow keys move between the dock's tabs; the tab shown is its panel.
    await tabs.nth(2).focus()
    await page.keyboard.press('ArrowLeft')
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true')
    await expect(tabs.nth(1)).toBeFocused()
    await expect(page.getByRole('region', { name: 'Embedding map' })).toBeVisible()
    await page.keyboard.press('Home')
    await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
    await screenshot(page, `docks-${width}x${height}`)

    // The separator resizes the dock by keyboard; the grid never gets narrower than 480 px.
    const separator = page.getByRole('separator', { name: 'Resize dock' })
    await expect(separator).toHaveAttribute('aria-valuenow', /\d/)
    const before = Number(await separator.getAttribute('aria-valuenow'))
    await separator.focus()
    for (let i = 0; i < 40; i++) await page.keyboard.press('ArrowLeft')
    await expect.poll(async () => Number(await separator.getAttribute('aria-valuenow'))).not.toBe(before)
    expect(await widthOf(grid)).toBeGreaterThanOrEqual(479)
    await expect(grid.getByRole('gridcell', { name: 'item 0', exact: true }).first()).toBeVisible()
  })
}

test('the dock keeps the size it was given after a reload', async ({ page }) => {
  const grid = await openThree(page)
  const separator = page.getByRole('separator', { name: 'Resize dock' })
  await separator.focus()
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
  const dockWidth = await widthOf(page.locator('[data-dock="right"]'))
  // The tab is remembered with its panels (tabs-restore.spec.ts): after the reload it comes back with them open.
  await expect.poll(async () => (await rememberedTabs(harness)).tabs[0]?.panels).toEqual(['summary', 'map', 'versions'])
  await page.reload()
  await expect(page.getByRole('main')).toBeVisible()
  await expect(grid).toBeVisible()
  await expect(page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')).toHaveText(['Summary', 'Map', 'Versions'])
  await expect.poll(() => widthOf(page.locator('[data-dock="right"]'))).toBeCloseTo(dockWidth, -1)
})

test('at 900×600 the panels lie in one drawer over the grid; Escape closes it', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  const grid = await openThree(page)
  const drawer = page.locator('[data-dock="drawer"]')
  await expect(drawer.getByRole('tab')).toHaveText(['Summary', 'Map', 'Versions'])
  await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveCount(0)
  expect(await widthOf(grid)).toBeGreaterThanOrEqual(480)
  await expect(grid.getByRole('gridcell', { name: 'item 0', exact: true }).first()).toBeVisible()
  await screenshot(page, 'docks-900x600')
  // One Escape closes the whole drawer (in a wide view it closes the panel opened last).
  await drawer.getByRole('tab', { name: 'Map' }).click()
  await expect(page.getByRole('region', { name: 'Embedding map' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
  await expectToolOn(page, 'Summary', false)
  await expect(grid).toBeVisible()
})

test('at 1280×800 the toolbar holds every control on one line, and Histograms moves none of them', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'embeddings')
  const toolbar = page.locator('.table-header .toolbar')
  // The middle of each control's line: one line, one value.
  const tops = async () => new Set(await toolbar.locator(':scope > *').evaluateAll((els) => els.map((e) => Math.round((e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2))))
  await expect.poll(async () => (await tops()).size).toBe(1)
  const before = await toolbar.boundingBox()
  const histograms = page.getByRole('button', { name: 'Histograms', exact: true })
  await histograms.click()
  await expect(histograms).toHaveAttribute('aria-pressed', 'true')
  // On a small table the reading status may come and go before it can be seen: the strips are the end of it.
  await expect(page.getByRole('group', { name: 'Histogram of id' })).toBeVisible()
  expect(await toolbar.boundingBox()).toEqual(before)
  // Off and on again: the kept profile answers, and its status stays (under the button, over the filter bar).
  await histograms.click()
  await expect(histograms).toHaveAttribute('aria-pressed', 'false')
  await histograms.click()
  await expect(page.getByRole('status', { name: 'Histograms progress' })).toContainText('kept')
  expect(await toolbar.boundingBox()).toEqual(before)
  expect((await tops()).size).toBe(1)
})

test('a remembered dock size that no longer parses is ignored: the dock opens at its default size', async ({ page }) => {
  // An older version's value, or a hand edit, under the key the right dock reads (react-resizable-panels' own form).
  await page.addInitScript(() => {
    localStorage.setItem('react-resizable-panels:lcb.dock.right:main:right', '{"main": "wide", oops')
    localStorage.setItem('react-resizable-panels:lcb.dock.right:main', 'not json')
  })
  const grid = await openThree(page)
  await expect(page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')).toHaveCount(3)
  await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveAttribute('aria-valuenow', /\d/)
  await expect(grid.getByRole('gridcell', { name: 'item 0', exact: true }).first()).toBeVisible()
})

async function heightOf(locator: Locator): Promise<number> {
  return (await locator.boundingBox())?.height ?? 0
}

async function findSimilar(page: Page, grid: Locator): Promise<Locator> {
  await gridCell(grid, 3, 1).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
  const similar = page.getByRole('region', { name: 'Similar rows' })
  await expect(similar).toContainText('Nearest 20 to row 4')
  return similar
}

test('Similar rows opens in the bottom dock under the grid, which still shows rows; Resize dock by keyboard resizes it and is remembered', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'embeddings')
  const similar = await findSimilar(page, grid)
  const bottom = page.locator('[data-dock="bottom"]')
  await expect(bottom.getByRole('region', { name: 'Similar rows' })).toBeVisible()
  // Under the grid, across its width; the grid shows the nearest rows, the source row first.
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
  await expect(gridCell(grid, 0, 1)).toHaveText('3')
  const gridBox = (await grid.boundingBox())!
  const dockBox = (await bottom.boundingBox())!
  expect(dockBox.y).toBeGreaterThanOrEqual(gridBox.y + gridBox.height - 1)
  expect(gridBox.height).toBeGreaterThanOrEqual(200)
  await expect(page.getByRole('tablist', { name: 'Right dock' })).toHaveCount(0)
  await screenshot(page, 'docks-bottom-similar')

  // Its separator (the only one: no right dock is open) grows the dock by keyboard.
  const separator = page.getByRole('separator', { name: 'Resize dock' })
  await expect(separator).toHaveAttribute('aria-orientation', 'horizontal')
  const before = Number(await separator.getAttribute('aria-valuenow'))
  const tall = await heightOf(bottom)
  await separator.focus()
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowUp')
  await expect.poll(async () => Number(await separator.getAttribute('aria-valuenow'))).not.toBe(before)
  await expect.poll(() => heightOf(bottom)).toBeGreaterThan(tall + 10)
  const grown = await heightOf(bottom)
  await expect(grid.getByRole('gridcell').first()).toBeVisible()

  // Clear search closes it; the next search opens it at the size it was given, after a reload too.
  await similar.getByRole('button', { name: 'Clear search' }).click()
  await expect(similar).toHaveCount(0)
  await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('main')).toBeVisible()
  await page.getByRole('treeitem', { name: 'embeddings', exact: true }).click()
  await expect(grid).toBeVisible()
  await findSimilar(page, grid)
  await expect.poll(() => heightOf(bottom)).toBeCloseTo(grown, -1)
  // Its close button clears the search too: every row again.
  await page.getByRole('button', { name: 'Close similar rows' }).click()
  await expect(bottom).toHaveCount(0)
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toHaveCount(0)
})

test('the cell inspector is a tab of the right dock beside Summary; Similar rows below at the same time', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'embeddings')
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  await gridCell(grid, 2, 2).dblclick()
  const inspector = page.getByRole('complementary', { name: 'Cell inspector' })
  const tabs = page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')
  // It opens as the shown tab, after the panels the user opened; it has no toolbar button.
  await expect(tabs).toHaveText(['Summary', 'Inspector'])
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true')
  await expect(inspector).toContainText('Row 3')
  await expect(page.locator('[data-dock="right"]').getByRole('complementary', { name: 'Cell inspector' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Inspector', exact: true })).toHaveCount(0)
  expect(await widthOf(grid)).toBeGreaterThanOrEqual(480)
  // It follows the active cell.
  await grid.focus()
  await page.keyboard.press('ArrowDown')
  await expect(inspector).toContainText('Row 4')
  // Summary's tab shows Summary; the inspector stays open behind its tab.
  await tabs.nth(0).click()
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  await expect(inspector).toBeHidden()
  await tabs.nth(1).click()
  await expect(inspector).toBeVisible()

  // Similar rows under the grid at the same time: two docks, two separators; a new view closes the inspector.
  const similar = await findSimilar(page, grid)
  await expect(inspector).toHaveCount(0)
  await expect(page.locator('[data-dock="bottom"]').getByRole('region', { name: 'Similar rows' })).toBeVisible()
  await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveCount(2)
  await gridCell(grid, 0, 2).dblclick()
  await expect(inspector).toContainText('Row 1')
  await screenshot(page, 'docks-inspector-similar')
  await page.emulateMedia({ colorScheme: 'dark' })
  await screenshot(page, 'docks-inspector-similar-dark')
  await page.emulateMedia({ colorScheme: 'light' })

  // The inspector's close button ends the inspection: Summary is the right dock's one panel again.
  await inspector.getByRole('button', { name: 'Close inspector' }).click()
  await expect(inspector).toHaveCount(0)
  await expect(page.getByRole('tablist', { name: 'Right dock' })).toHaveCount(0)
  await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible()
  await expect(grid).toBeFocused()
  await expect(similar).toBeVisible()
})

test('at 900×600 the inspector joins the drawer while Similar rows stays under the grid; Escape closes the drawer, not the search', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'embeddings')
  const similar = await findSimilar(page, grid)
  await expect(page.locator('[data-dock="bottom"]').getByRole('region', { name: 'Similar rows' })).toBeVisible()
  await toolbarButton(page, 'Versions')
  await gridCell(grid, 1, 0).dblclick()
  const drawer = page.locator('[data-dock="drawer"]')
  await expect(drawer.getByRole('tab')).toHaveText(['Versions', 'Inspector'])
  await expect(drawer.getByRole('complementary', { name: 'Cell inspector' })).toContainText('Row 2')
  // The grid keeps its width and shows the nearest rows above the bottom dock.
  expect(await widthOf(grid)).toBeGreaterThanOrEqual(480)
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
  await screenshot(page, 'docks-900x600-similar')
  // Escape closes the inspector (opened last), then the drawer; the search and its panel stay.
  await grid.focus()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('complementary', { name: 'Cell inspector' })).toHaveCount(0)
  await expect(drawer.getByRole('complementary', { name: 'Versions' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
  await expect(similar).toBeVisible()
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
})
