/**
 * A first day without friction (everyday friction), each item as a person meets it in the
 * real renderer on the harness: the sidebar resizes and hides (remembered), the table header fits a
 * 900×600 window, the columns menu shows whole names and finds columns, hidden columns are remembered
 * per table, the Imports panel collapses to the status bar and never covers the grid, a failed dialog
 * action keeps the keyboard in the dialog, Drop namespace… says why it cannot run on a non-empty
 * namespace, the start screen says what a catalog directory is, and Test connection counts the
 * tables inside namespaces. Every state is photographed at 1400×900 and 900×600, light and dark.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { Field, Float64, Int64, Struct, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { startServer } from '../../src/server'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, expandPath, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const SIZES = [
  { width: 1400, height: 900 },
  { width: 900, height: 600 },
] as const
const NAMESPACE = ['analytics', 'quarterly_reports_2024']
const WIDE = 'customer_feature_vectors'
const ROWS = 50

/** One screenshot per size and colour scheme: `<name>-1400x900-light.png`, …; ends at 900×600 light. */
async function shots(page: Page, name: string, settle?: (page: Page) => Promise<void>): Promise<void> {
  for (const scheme of ['dark', 'light'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const size of SIZES) {
      await page.setViewportSize(size)
      if (settle) await settle(page)
      await screenshot(page, `${name}-${size.width}x${size.height}-${scheme}`)
    }
  }
}

/** Rows with the column shapes that hid names in the columns menu: a 768-d vector and a struct with a long type. */
function wideTable() {
  const ids = BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i))
  const values = new Float32Array(ROWS * 768).map((_, i) => (i % 97) / 97)
  const metaType = new Struct([
    new Field('source_system', new Utf8(), true),
    new Field('ingested_at_epoch_ms', new Int64(), true),
    new Field('confidence_score', new Float64(), true),
  ])
  return tableOf([
    batchOf({
      id: makeVector(ids),
      meta: vectorFromArray(
        Array.from({ length: ROWS }, (_, i) => ({ source_system: `crm-${i % 3}`, ingested_at_epoch_ms: BigInt(1_700_000_000_000 + i), confidence_score: i / ROWS })),
        metaType,
      ),
      embedding: float32Vectors(values, 768),
      customer_lifetime_value_estimate_usd: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i * 12.5), new Float64()),
      label: vectorFromArray(Array.from({ length: ROWS }, (_, i) => `customer ${i}`), new Utf8()),
    }),
  ])
}

const test = base.extend<{ catalog: { dir: string; root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-firstday-')
    const root = join(dir, 'ux-cat')
    await buildCatalog(root, {
      namespaces: [['analytics'], NAMESPACE, ['full']],
      tables: [
        { namespace: NAMESPACE, name: WIDE, data: wideTable() },
        { namespace: [], name: 'welcome', rows: 5 },
        { namespace: ['full'], name: 'inside', rows: 3 },
      ],
    })
    const harness = await startHarness({ root })
    await use({ dir, root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

async function openWide(page: Page): Promise<Locator> {
  await expandPath(page, NAMESPACE)
  await treeItem(page, WIDE).click()
  const grid = page.getByRole('grid', { name: WIDE })
  await expect(grid).toBeVisible()
  return grid
}

/** Whether an element's text is cut (ellipsis or clipped): its content is wider or taller than its box. */
function isClipped(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1)
}

test('the sidebar resizes with the mouse and the keyboard, hides, and both are remembered', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[0])
  await openApp(page, catalog.harness)
  const handle = page.getByRole('separator', { name: 'Resize sidebar' })
  const sidebar = page.getByRole('navigation', { name: 'Catalogs' })
  await expect(handle).toHaveAttribute('aria-valuenow', '260')
  await expect(handle).toHaveAttribute('aria-orientation', 'vertical')

  // Keyboard: arrows move by 16 px, Home goes to the minimum.
  await handle.focus()
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await expect(handle).toHaveAttribute('aria-valuenow', '292')
  expect(Math.round((await sidebar.boundingBox())!.width)).toBe(292)
  await page.keyboard.press('Home')
  await expect(handle).toHaveAttribute('aria-valuenow', '220')

  // Mouse: drag the handle 120 px to the right.
  const box = (await handle.boundingBox())!
  await page.mouse.move(box.x + box.width / 2, box.y + 200)
  await page.mouse.down()
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + 200, { steps: 6 })
  await page.mouse.up()
  await expect(handle).toHaveAttribute('aria-valuenow', '340')
  await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(340)
  // Every header button still fits at the narrowest width.
  await page.keyboard.press('Home')
  await expect(handle).toHaveAttribute('aria-valuenow', '220')
  const hide = await page.getByRole('button', { name: 'Hide sidebar' }).boundingBox()
  expect(hide!.x + hide!.width).toBeLessThanOrEqual(220)
  await page.keyboard.press('End')
  await expect(handle).toHaveAttribute('aria-valuenow', '560')
  await handle.dblclick()
  await expect(handle).toHaveAttribute('aria-valuenow', '260')
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight')
  await expect(handle).toHaveAttribute('aria-valuenow', '340')

  // Remembered across a reload.
  await page.reload()
  await expect(page.getByRole('separator', { name: 'Resize sidebar' })).toHaveAttribute('aria-valuenow', '340')
  await openWide(page)
  await shots(page, 'sidebar-resized')

  // Hidden: the content takes the room; the keyboard lands on the button that brings it back.
  await page.getByRole('button', { name: 'Hide sidebar' }).click()
  await expect(page.getByRole('tree')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeFocused()
  await expect(page.getByRole('separator', { name: 'Resize sidebar' })).toHaveCount(0)
  await shots(page, 'sidebar-hidden')
  await page.reload()
  await expect(page.getByRole('button', { name: 'Show sidebar' })).toBeVisible()
  await expect(page.getByRole('tree')).toBeHidden()
  await page.getByRole('button', { name: 'Show sidebar' }).click()
  await expect(page.getByRole('tree')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Hide sidebar' })).toBeFocused()
  await expect(page.getByRole('separator', { name: 'Resize sidebar' })).toHaveAttribute('aria-valuenow', '340')
})

test('at 900×600 the table header shows the whole namespace path and name', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[1])
  await openApp(page, catalog.harness)
  await openWide(page)
  const header = page.getByRole('region', { name: `Table ${WIDE}` }).locator('header').first()
  const path = header.getByLabel('Namespace')
  await expect(path).toHaveText(['ux-cat', ...NAMESPACE].join(''))
  await expect(header.getByRole('heading', { name: WIDE })).toBeVisible()
  for (const size of SIZES) {
    await page.setViewportSize(size)
    expect(await isClipped(path), `namespace path clipped at ${size.width}×${size.height}`).toBe(false)
    expect(await isClipped(header.getByRole('heading', { name: WIDE })), `table name clipped at ${size.width}×${size.height}`).toBe(false)
    // The row count and the toolbar stay in view.
    await expect(header.getByTestId('row-count')).toHaveText(String(ROWS))
    await expect(header.getByRole('button', { name: /^Columns/ })).toBeInViewport()
  }
  await shots(page, 'table-header')
})

test('the columns menu shows whole names before types, finds columns, and remembers hidden ones per table', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[1])
  await openApp(page, catalog.harness)
  const grid = await openWide(page)
  await page.getByRole('button', { name: /^Columns/ }).click()
  const menu = page.getByRole('group', { name: 'Visible columns' })
  const search = menu.getByRole('searchbox', { name: 'Find a column' })
  await expect(search).toBeFocused()
  // Names whole, each before its type.
  for (const name of ['id', 'meta', 'embedding', 'customer_lifetime_value_estimate_usd', 'label']) {
    const row = menu.locator('.column-row', { hasText: name }).first()
    const text = row.locator('.column-row-name')
    await expect(text).toHaveText(name)
    expect(await isClipped(text), `${name} clipped`).toBe(false)
  }
  await expect(menu.getByRole('checkbox', { name: /^embedding FixedSizeList<Float32>\[768\]/ })).toBeChecked()
  await expect(menu.getByRole('checkbox', { name: /^meta Struct</ })).toBeChecked()
  await shots(page, 'columns-menu', async (p) => {
    if (!(await menu.isVisible())) await p.getByRole('button', { name: /^Columns/ }).click()
  })

  // Search narrows the list (by name or type).
  await search.fill('custom')
  await expect(menu.getByRole('checkbox')).toHaveCount(1)
  await menu.getByRole('checkbox', { name: /^customer_lifetime_value_estimate_usd/ }).uncheck()
  await search.fill('fixedsize')
  await expect(menu.getByRole('checkbox')).toHaveCount(1)
  await menu.getByRole('checkbox', { name: /^embedding/ }).uncheck()
  await search.fill('nothing like it')
  await expect(menu.getByText('No column matches “nothing like it”')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
  await expect(page.getByRole('button', { name: 'Columns (2 hidden)' })).toBeFocused()
  await expect(grid.getByRole('columnheader', { name: 'embedding', exact: true })).toHaveCount(0)

  // Another table is not affected; back on this one (and after a reload) the two stay hidden.
  await treeItem(page, 'welcome').click()
  await expect(page.getByRole('button', { name: 'Columns' })).toBeVisible()
  await page.reload()
  const again = await openWide(page)
  await expect(page.getByRole('button', { name: 'Columns (2 hidden)' })).toBeVisible()
  await expect(again.getByRole('columnheader', { name: 'embedding', exact: true })).toHaveCount(0)
  await expect(again.getByRole('columnheader', { name: 'customer_lifetime_value_estimate_usd', exact: true })).toHaveCount(0)
  await expect(again.getByRole('columnheader', { name: 'meta', exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Columns (2 hidden)' }).click()
  await page.getByRole('group', { name: 'Visible columns' }).getByRole('button', { name: 'Show all' }).click()
  await page.reload()
  await openWide(page)
  await expect(page.getByRole('button', { name: 'Columns' })).toBeVisible()
})

test('the Imports panel collapses to the status bar when idle and never covers the grid', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[1])
  const csv = join(catalog.dir, 'towns.csv')
  await writeFile(csv, ['id,town', ...Array.from({ length: 40 }, (_, i) => `${i},town ${i}`)].join('\n') + '\n')
  await openApp(page, catalog.harness)
  await expect(page.locator('.app-status')).toHaveCount(0)
  await treeItem(page, 'analytics').click()
  await page.getByRole('button', { name: 'Import files' }).click()
  await page.getByTestId('import-file-input').setInputFiles(csv)
  const sheet = page.getByRole('dialog', { name: /^Import / })
  await expect(sheet.getByRole('button', { name: 'Import' })).toBeEnabled()
  await sheet.getByRole('button', { name: 'Import' }).click()

  // Done: the new table is open, the panel has collapsed to one line in the status bar.
  const grid = page.getByRole('grid', { name: 'towns' })
  await expect(grid).toHaveAttribute('aria-rowcount', '41')
  const indicator = page.getByRole('button', { name: 'Imports: 1 done' })
  await expect(indicator).toBeVisible()
  await expect(indicator).toHaveAttribute('aria-expanded', 'false')
  await expect(page.getByRole('region', { name: 'Import jobs' })).toHaveCount(0)
  await shots(page, 'imports-collapsed')

  // Shown on click: docked under the grid, which shrinks instead of being covered.
  await indicator.click()
  const panel = page.getByRole('region', { name: 'Import jobs' })
  await expect(panel.getByRole('listitem', { name: 'Import of towns.csv' })).toContainText('Done')
  for (const size of SIZES) {
    await page.setViewportSize(size)
    const gridBox = (await grid.boundingBox())!
    const panelBox = (await panel.boundingBox())!
    expect(gridBox.y + gridBox.height, `grid overlaps the panel at ${size.width}×${size.height}`).toBeLessThanOrEqual(panelBox.y + 1)
    expect(panelBox.height).toBeLessThan(size.height * 0.45)
  }
  await shots(page, 'imports-open')
  // Hidden again from the panel, or from the status bar.
  await panel.getByRole('button', { name: 'Hide the imports' }).click()
  await expect(panel).toHaveCount(0)
  await expect(indicator).toHaveAttribute('aria-expanded', 'false')
})

test('a failed dialog action keeps the focus in the dialog, on the error; Tab and Escape keep working', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[0])
  await openApp(page, catalog.harness)
  // "stale" is empty when the dialog opens; a table appears behind the app's back, so the drop fails.
  const client = await DirNamespaceClient.open(catalog.root)
  await client.createNamespace(['stale'])
  await page.getByRole('button', { name: 'Refresh tree' }).click()
  await treeItem(page, 'stale').click()
  await expect(treeItem(page, 'stale')).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByRole('tree').getByText('No namespaces or tables')).toBeVisible()

  await treeItem(page, 'stale').focus()
  await page.keyboard.press('Shift+F10')
  await expect(page.getByRole('menuitem', { name: 'Drop namespace…' })).not.toHaveAttribute('aria-disabled', 'true')
  await expect(page.getByRole('menuitem', { name: 'New namespace…' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: 'New table…' })).toBeFocused()
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: 'Drop namespace…' })).toBeFocused()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('alertdialog', { name: 'Drop namespace' })
  await expect(dialog.getByRole('button', { name: 'Drop namespace' })).toBeFocused()
  // The table arrives once the dialog is open (the menu checks what the namespace holds), so the drop fails.
  await client.createTable({ namespace: ['stale'], name: 'arrived' }, sampleTable(2))
  await client.close()
  await page.keyboard.press('Enter')
  const error = dialog.getByRole('alert')
  await expect(error).toContainText(/not empty|contains|holds/i)
  // The focus is on the error, inside the dialog (not on the page body).
  await expect(dialog.locator('.dialog-error')).toBeFocused()
  await shots(page, 'dialog-error-focus')
  await page.keyboard.press('Tab')
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Shift+Tab')
  await page.keyboard.press('Shift+Tab')
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'stale')).toBeVisible()
  // The failure reloaded the namespace: the tree shows what it holds now.
  await expect(treeItem(page, 'arrived')).toBeVisible()

  // The same with a name field: the focus returns to the field to correct.
  await treeItem(page, 'ux-cat').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'New namespace…' }).click()
  const create = page.getByRole('dialog', { name: 'New namespace' })
  await create.getByLabel('Name').fill('analytics')
  await page.keyboard.press('Enter')
  await expect(create.getByRole('alert')).toContainText(/exists/i)
  await expect(create.getByLabel('Name')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(create).toBeHidden()
})

test('Drop namespace… is disabled with the reason on a namespace that is not empty', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[0])
  await openApp(page, catalog.harness)
  const open = async () => {
    await treeItem(page, 'full').click({ button: 'right' })
    return page.getByRole('menuitem', { name: /Drop namespace…/ })
  }
  const item = await open()
  await expect(item).toHaveAttribute('aria-disabled', 'true')
  await expect(item).toContainText('Not empty: it holds 1 table; only an empty namespace can be dropped')
  await shots(page, 'drop-namespace-disabled', async (p) => {
    if (!(await p.getByRole('menu').isVisible())) await open()
  })
})

test('the start screen says what a catalog directory is', async ({ page, catalog }) => {
  await page.setViewportSize(SIZES[0])
  await openApp(page, catalog.harness)
  await page.getByRole('button', { name: 'Open directory' }).click()
  const start = page.getByRole('region', { name: 'Open a catalog' })
  await expect(start).toContainText('A catalog directory is a Lance directory namespace: a __manifest table lists its namespaces and tables')
  await expect(start).toContainText('Namespaces are rows of __manifest, not subdirectories.')
  await expect(start).not.toContainText('its subdirectories are namespaces')
  await shots(page, 'start-screen')
})

test('Test connection counts the tables inside namespaces, not only the root', async ({ page, catalog }) => {
  const served = join(catalog.dir, 'served')
  await buildCatalog(served, {
    namespaces: [['sales'], ['sales', 'emea'], ['ml']],
    tables: [
      { namespace: ['sales'], name: 'orders', rows: 3 },
      { namespace: ['sales', 'emea'], name: 'orders', rows: 3 },
      { namespace: ['ml'], name: 'features', rows: 3 },
    ],
  })
  const key = 'sk-first-day-0123456789'
  const server = await startServer({ root: served, apiKeys: [key] })
  try {
    await page.setViewportSize(SIZES[0])
    await openApp(page, catalog.harness)
    await page.getByRole('button', { name: 'Catalog servers' }).click()
    await page.getByRole('menuitem', { name: 'Connect to server…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Connect to server' })
    await dialog.getByLabel('Name', { exact: true }).fill('Sales server')
    await dialog.getByLabel('Endpoint URL').fill(server.url)
    await dialog.getByRole('textbox', { name: 'API key' }).fill(key)
    await dialog.getByRole('button', { name: 'Test connection' }).click()
    const report = dialog.getByRole('region', { name: 'Test result' })
    await expect(report).toContainText('The server has 3 tables: 0 at the root and 3 in 3 namespaces (2 at the top level).')
    await expect(report).not.toContainText('0 tables found')
    await shots(page, 'test-connection-report', async () => {
      await report.scrollIntoViewIfNeeded()
    })

    // A wrong key: Save & connect saves nothing, says so, and keeps the focus in the dialog.
    await dialog.getByRole('textbox', { name: 'API key' }).fill('sk-wrong-000000000000')
    await dialog.getByRole('button', { name: 'Save & connect' }).click()
    await expect(dialog.getByRole('alert')).toContainText('The server refused the credentials — nothing was saved')
    await expect(dialog.locator('.dialog-error')).toBeFocused()
    await shots(page, 'save-and-connect-refused', async () => {
      await dialog.getByRole('alert').scrollIntoViewIfNeeded()
    })
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    await page.getByRole('button', { name: 'Catalog servers' }).click()
    await expect(page.getByRole('menu', { name: 'Catalog servers' }).getByRole('menuitem')).toHaveText(['Connect to server…', 'Connect to object storage…'])
  } finally {
    await server.close()
  }
})
