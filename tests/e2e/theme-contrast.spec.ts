import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { Float32, Int32, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * One theme for every panel (#38 item 4): in light and in dark mode, axe finds no text below WCAG AA contrast, and
 * no other serious or critical problem, with each panel open in turn (Summary with its histograms, the Map with its
 * legend, Versions, Indexes, Stats, Schema, the cell inspector) and in the dialogs the toolbar opens.
 */
const ROWS = 600
const DIM = 4
let dir: string
let root: string

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await makeTempDir('lcb-e2e-theme-')
  const random = seededRandom(5)
  const data = tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i), new Int32()),
      kind: vectorFromArray(Array.from({ length: ROWS }, (_, i) => ['cat', 'dog', 'bird'][i % 3]!), new Utf8()),
      weight: vectorFromArray(Array.from({ length: ROWS }, () => random() * 10), new Float32()),
      vec: { vector: float32Vectors(new Float32Array(ROWS * DIM).map(() => random()), DIM), nullable: false },
    }),
  ])
  root = await buildCatalog(join(dir, 'catalog'), { tables: [{ namespace: [], name: 'animals', data }] })
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

/** What axe reports against WCAG 2 A/AA that a user would meet: every contrast failure and every serious or critical rule. */
async function problems(page: Page, within?: string): Promise<string[]> {
  // The whole window once; then only what changed (a dock, a dialog): axe over every grid cell again is slow.
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
  const result = await (within ? builder.include(within) : builder).analyze()
  return result.violations
    .filter((v) => v.id === 'color-contrast' || v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`))
}

for (const scheme of ['light', 'dark'] as const) {
  test(`every panel and dialog meets WCAG AA contrast in the ${scheme} theme`, async ({ page }) => {
    test.setTimeout(480_000)
    await page.emulateMedia({ colorScheme: scheme })
    await openApp(page, harness)
    const grid = await openTable(page, [], 'animals')
    expect.soft(await problems(page), 'the table view').toEqual([])

    const panels: [string, () => Promise<void>][] = [
      ['Summary', () => expect(page.getByRole('region', { name: 'Summary' }).getByRole('row', { name: /weight/ })).toBeVisible()],
      ['Map', () => expect(page.getByRole('region', { name: 'Embedding map' }).getByTestId('map-points')).toBeVisible()],
      ['Versions', () => expect(page.getByRole('complementary', { name: 'Versions' }).getByText('latest')).toBeVisible()],
      ['Indexes', () => expect(page.getByRole('complementary', { name: 'Indexes' })).toBeVisible()],
      ['Stats', () => expect(page.getByRole('complementary', { name: 'Stats' }).getByText(/Fragments/)).toBeVisible()],
      ['Schema', () => expect(page.getByRole('complementary', { name: 'Schema' })).toBeVisible()],
    ]
    for (const [name, shown] of panels) {
      await page.getByRole('button', { name, exact: true }).click()
      await shown()
      expect.soft(await problems(page, '[data-dock]'), name).toEqual([])
    }
    // The map's colour legend, on its own tab.
    await page.getByRole('tab', { name: 'Map' }).click()
    await page.getByRole('combobox', { name: 'Colour by' }).selectOption('kind')
    await expect(page.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveCount(3)
    expect.soft(await problems(page, '[data-dock]'), 'the map legend').toEqual([])
    await screenshot(page, `theme-${scheme}-map`)
    // Header histograms.
    await page.getByRole('button', { name: 'Histograms', exact: true }).click()
    await expect(grid.locator('.header-bar').first()).toBeVisible()
    expect.soft(await problems(page, '[role="grid"] [role="row"]:first-child'), 'header histograms').toEqual([])
    await page.getByRole('tab', { name: 'Summary' }).click()
    await screenshot(page, `theme-${scheme}-summary`)

    // The cell inspector.
    await grid.getByRole('gridcell', { name: 'dog', exact: true }).first().dblclick()
    await expect(page.getByRole('complementary', { name: 'Cell inspector' })).toBeVisible()
    expect.soft(await problems(page, '.inspector-panel'), 'the cell inspector').toEqual([])
    await page.keyboard.press('Escape')

    // Dialogs: Export, Go to row, Search by vector.
    for (const name of ['Export…', 'Go to row…', 'Search by vector…']) {
      await page.getByRole('button', { name, exact: true }).click()
      const dialog = page.getByRole('dialog')
      await expect(dialog).toBeVisible()
      expect.soft(await problems(page, '[role="dialog"]'), name).toEqual([])
      await page.keyboard.press('Escape')
      await expect(dialog).toHaveCount(0)
    }
  })
}
