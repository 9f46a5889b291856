import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { moreTools, moreToolsItem, moreToolsMenu } from './toolbar'

/**
 * The table header with every control the merged table view has (filter, full-text search on a table with an
 * FTS index, go to row, vector search, Versions, Indexes, Stats, Columns, Export…, Schema, Reload) at a wide
 * and a small window, light and dark: every control on the bar or (a small window) in More tools; those on the bar
 * inside the window, none overlapping another.
 */
let dir: string
let root: string

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-toolbar-')
  root = await buildCatalog(join(dir, 'catalog'), {
    namespaces: [['analytics'], ['analytics', 'emea']],
    tables: [{ namespace: ['analytics', 'emea'], name: 'customer_events_enriched', data: sampleTable(2000, { dimension: 8 }) }],
  })
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable('customer_events_enriched', ['analytics', 'emea'])
  await table.createIndex('label', { config: lancedb.Index.fts() })
})
test.afterAll(async () => removeDir(dir))

let harness: Harness
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => harness.close())

const SIZES = [
  { width: 1400, height: 900 },
  { width: 900, height: 600 },
]

/** The toolbar's buttons (each on the bar, or — in a narrow window — an item of More tools). */
const BUTTONS: (string | RegExp)[] = ['Go to row…', 'Search by vector…', 'Versions', 'Indexes', 'Stats', /^Columns/, 'Export…', 'Summary', 'Map', 'Schema', 'Reload table']

test('the table toolbar: every control on the bar or in More tools, those shown inside the window and apart, at 1400×900 and 900×600, light and dark', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, ['analytics', 'emea'], 'customer_events_enriched')
  const view = page.getByRole('region', { name: 'Table customer_events_enriched' })
  for (const size of SIZES) {
    await page.setViewportSize(size)
    await expect(view.locator('.overflow-toolbar')).toHaveAttribute('data-measured', 'true')
    // The bars over the grid are never moved; the toolbar's buttons are on the bar or in the menu.
    const shown = [view.getByRole('textbox', { name: 'Filter rows' }), view.getByRole('searchbox', { name: 'Full-text search' })]
    const moved: (string | RegExp)[] = []
    for (const name of BUTTONS) {
      const button = view.getByRole('button', typeof name === 'string' ? { name, exact: true } : { name })
      if (await button.isVisible()) shown.push(button)
      else moved.push(name)
    }
    // At 1400 px every button is on the bar; at 900 px the trailing ones are in More tools, the query controls stay.
    if (size.width === 1400) expect(moved).toEqual([])
    else expect(moved).toContain('Reload table')
    expect(moved).not.toContain('Go to row…')
    const boxes = []
    for (const control of shown) {
      await expect(control).toBeVisible()
      const box = (await control.boundingBox())!
      expect(box.x, `${await control.getAttribute('aria-label') ?? await control.textContent()} inside the window at ${size.width}`).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(size.width)
      boxes.push(box)
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!]
        const overlap = a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1
        expect(overlap, `controls ${i} and ${j} overlap at ${size.width}×${size.height}`).toBe(false)
      }
    }
    if (moved.length > 0) {
      await moreTools(view).click()
      for (const name of moved) await expect(moreToolsItem(view, name)).toBeVisible()
    }
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screenshot(page, `table-toolbar-${size.width}x${size.height}-${scheme}`)
    }
    await page.emulateMedia({ colorScheme: 'light' })
    if (moved.length > 0) {
      await page.keyboard.press('Escape')
      await expect(moreToolsMenu(view)).toHaveCount(0)
    }
  }
})
