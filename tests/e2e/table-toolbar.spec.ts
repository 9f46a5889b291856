import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { Page } from '@playwright/test'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * The table header with every control the merged table view has (filter, full-text search on a table with an
 * FTS index, go to row, vector search, Versions, Indexes, Stats, Columns, Export…, Schema, Reload) at a wide
 * and a small window, light and dark: every control visible, inside the window, none overlapping another.
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

function controls(page: Page) {
  const view = page.getByRole('region', { name: 'Table customer_events_enriched' })
  return [
    view.getByRole('textbox', { name: 'Filter rows' }),
    view.getByRole('searchbox', { name: 'Full-text search' }),
    view.getByRole('button', { name: 'Go to row…' }),
    view.getByRole('button', { name: 'Search by vector…' }),
    view.getByRole('button', { name: 'Versions' }),
    view.getByRole('button', { name: 'Indexes' }),
    view.getByRole('button', { name: 'Stats' }),
    view.getByRole('button', { name: /^Columns/ }),
    view.getByRole('button', { name: 'Export…' }),
    view.getByRole('button', { name: 'Summary', exact: true }),
    view.getByRole('button', { name: 'Map', exact: true }),
    view.getByRole('button', { name: 'Schema' }),
    view.getByRole('button', { name: 'Reload table' }),
  ]
}

test('the table toolbar: every control visible, inside the window and apart, at 1400×900 and 900×600, light and dark', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, ['analytics', 'emea'], 'customer_events_enriched')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const boxes = []
    for (const control of controls(page)) {
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
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await screenshot(page, `table-toolbar-${size.width}x${size.height}-${scheme}`)
    }
    await page.emulateMedia({ colorScheme: 'light' })
  }
})
