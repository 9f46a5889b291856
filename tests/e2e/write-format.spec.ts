/**
 * "Write what the catalog's readers can read" (issue #40 item 7), as a user meets it: the import sheet and the New
 * table dialog offer the data file format of the new table, each option naming the releases that read it, with
 * the catalog's own format chosen; Optimize and a new index on a legacy-format table say what they do to the old
 * writer's reads and ask first.
 */
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { test as base, type Page } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-write-format-')
    const root = join(dir, 'catalog')
    const client = await DirNamespaceClient.open(root, { create: true })
    await client.createNamespace(['lab'])
    await client.close()
    // Written by lancedb itself with the format asked for (as another pipeline would): two tables in 2.1 (what
    // this app and lancedb 0.22+ write) and one in the legacy format (as vectordb 0.4.x writes it), in two
    // fragments so that Optimize has something to compact.
    const db = await lancedb.connectNamespace('dir', { root })
    const as = (v: string) => ({ storageOptions: { new_table_data_storage_version: v } })
    await db.createTable('modern', sampleTable(5), ['lab'], as('2.1'))
    await db.createTable('modern2', sampleTable(5), ['lab'], as('2.1'))
    const old = await db.createTable('old', sampleTable(5), [], as('legacy'))
    await old.add(sampleTable(3, { start: 5n }))
    old.close()
    db.close()
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

async function formatOf(root: string, namespace: string[], name: string): Promise<string | null> {
  const client = await DirNamespaceClient.open(root)
  try {
    return await client.tableDataFormat({ namespace, name })
  } finally {
    await client.close()
  }
}

async function importDone(page: Page): Promise<void> {
  const indicator = page.getByRole('button', { name: 'Imports: 1 done' })
  await expect(indicator).toBeVisible()
}

test('the import sheet offers the file format with the releases that read it; "legacy" writes a legacy table', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await expect(treeItem(page, 'lab')).toBeVisible()
  await dropFiles(page, treeItem(page, 'lab'), [{ name: 'readings.csv', bytes: 'id,city\n1,Oslo\n2,Lima\n3,Pune\n' }], { expectDropTarget: true })
  const sheet = page.getByRole('dialog', { name: /^Import / })
  const format = sheet.getByLabel('File format')
  await expect(format).toBeVisible()
  // The options name who reads each format; the catalog's tables decide the one chosen.
  await expect(format.locator('option')).toHaveText([
    'Legacy (v1) — every release, vectordb 0.4.x too',
    '2.0 — vectordb 0.21.x, lancedb 0.22 and later',
    '2.1 — lancedb 0.22 and later (this catalog’s)',
  ])
  await expect(format).toHaveValue('2.1')
  await expect(sheet).toContainText('Read by lancedb 0.22, 0.31 (this app) and 0.39; not by vectordb 0.4.x and 0.21.x.')
  await format.selectOption('legacy')
  await expect(sheet).toContainText('Read by every release: vectordb 0.4.x and 0.21.x, lancedb 0.22, 0.31 (this app) and 0.39.')
  await screenshot(page, 'write-format-import-sheet')
  await sheet.getByRole('button', { name: 'Import' }).click()
  await expect(sheet).toBeHidden()
  await importDone(page)
  expect(await formatOf(catalog.root, ['lab'], 'readings')).toBe('legacy')
})

test('Optimize on a legacy table says what it does to vectordb 0.4 and asks first', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, [], 'old')
  await page.getByRole('button', { name: 'Stats' }).click()
  const panel = page.getByRole('complementary', { name: 'Stats' })
  await expect(panel).toContainText('2 (2 small)')
  await panel.getByRole('button', { name: 'Optimize…' }).click()
  const confirm = page.getByRole('dialog', { name: 'Optimize table' })
  await expect(confirm.getByRole('alert')).toContainText('This table is in the legacy (v1) data format')
  await expect(confirm.getByRole('alert')).toContainText('vectordb 0.4.x’s own filtered queries on this table fail')
  await expect(confirm.getByRole('button', { name: 'Optimize', exact: true })).toHaveCount(0)
  await screenshot(page, 'write-format-optimize-legacy')
  await confirm.getByRole('button', { name: 'Optimize anyway' }).click()
  await expect(confirm).toBeHidden()
  await expect(panel.getByRole('status')).toContainText('2 fragments → 1')
})

test('a new index on a legacy table is confirmed first, naming the consequence', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await openTable(page, [], 'old')
  await page.getByRole('button', { name: 'Indexes' }).click()
  const panel = page.getByRole('complementary', { name: 'Indexes' })
  const form = panel.getByRole('form', { name: 'New index' })
  await form.getByRole('button', { name: 'Create index' }).click()
  const confirm = page.getByRole('dialog', { name: 'Build an index on a legacy-format table' })
  await expect(confirm.getByRole('alert')).toContainText('vectordb 0.4.x’s own filtered queries on this table fail')
  await confirm.getByRole('button', { name: 'Build anyway' }).click()
  await expect(confirm).toBeHidden()
  await expect(panel.getByRole('listitem').first()).toContainText('_idx')
})

test('New table offers the file format too, the catalog’s majority chosen', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'lab').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'New table…' }).click()
  const dialog = page.getByRole('dialog', { name: 'New table' })
  const format = dialog.getByLabel('File format')
  await expect(format).toHaveValue('2.1')
  await expect(dialog).toContainText('The default follows this catalog: 2 of 3 tables are 2.1 (1 legacy).')
  await format.selectOption('2.0')
  await dialog.getByLabel('Table name').fill('fresh')
  await screenshot(page, 'write-format-new-table')
  await dialog.getByRole('button', { name: 'Create table' }).click()
  await expect(dialog).toBeHidden()
  expect(await formatOf(catalog.root, ['lab'], 'fresh')).toBe('2.0')
})
