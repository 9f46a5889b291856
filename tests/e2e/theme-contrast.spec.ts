import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { Locator, Page } from '@playwright/test'
import { Float32, Int32, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../src/core/arrow'
import { imagesTable } from '../../src/core/demo'
import { buildCatalog, makeTempDir as makeDir, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { startAzurite } from '../helpers/azurite'
import { DIALOG, problems } from './axe'
import { dropFiles } from './drop'

/**
 * One theme for every panel (#38 item 4): in light and in dark mode, axe finds no text below WCAG AA contrast, and
 * no other serious or critical problem, over every panel (Summary with its histograms, the Map with its legend,
 * Versions with a comparison, Indexes, Stats, Schema, the cell inspector), the Gallery, the query view and every
 * dialog the app has: the start screen's (a directory that is no catalog, Create a catalog here, Connect to
 * server and its write test's confirmation, Connect to object storage), "Cannot import into …" of a catalog in
 * object storage (Azurite), the tree's (New namespace, New table, Drop namespace, Drop namespace and contents,
 * Properties, Rename table, Drop table, the read-only catalog's offer before an import), the table's (Export, Go to
 * row, Search by vector, Restore, Delete tag, Drop index, Optimize, Add column, Build an index on a legacy-format
 * table), the import sheet, Save as table, the large-copy question and Connect an assistant (its no-catalog notice
 * is checked on the rig: tests/desktop/assistant.spec.ts). Every dialog is opened and cancelled: the catalogs are
 * written only here, before the tests (and the Read-only switch, a setting, is switched back).
 */
const ROWS = 600
const DIM = 4
let dir: string
let root: string
let csv: string

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
  root = await buildCatalog(join(dir, 'catalog'), {
    namespaces: [['zoo']],
    tables: [
      { namespace: [], name: 'animals', data },
      { namespace: [], name: 'pictures', data: imagesTable(60) },
      { namespace: ['zoo'], name: 'keepers', rows: 5, sample: { dimension: 0 } },
    ],
  })
  // animals: v2 (rows deleted), a tag on v1 and an index, so that Restore, Delete tag and Drop index have something.
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable('animals', [])
  await table.delete('id >= 590')
  await (await table.tags()).create('first', 1)
  await table.createIndex('id')
  table.close()
  // ledger: in the legacy data format, so that a new index asks first.
  ;(await db.createTable('ledger', sampleTable(5), [], { storageOptions: { new_table_data_storage_version: 'legacy' } })).close()
  db.close()
  csv = join(dir, 'visits.csv')
  await writeFile(csv, 'day,count\n2026-01-01,3\n2026-01-02,5\n')
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

const dialogNamed = (page: Page, name: string): Locator => page.getByRole('dialog', { name, exact: true }).or(page.getByRole('alertdialog', { name, exact: true }))

/**
 * Open a dialog with `open`, check it, and close it with Escape (every dialog here closes so, nothing written);
 * `what` names the check when it is a part of the dialog (a question inside it).
 */
async function checkDialog(page: Page, name: string, open: () => Promise<void>, what = name): Promise<void> {
  await open()
  const dialog = dialogNamed(page, name)
  await expect(dialog).toBeVisible()
  expect.soft(await problems(page, DIALOG), what).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
}

/** A context-menu item of a tree item. */
async function treeMenu(page: Page, item: string, action: string): Promise<void> {
  await treeItem(page, item).click({ button: 'right' })
  await page.getByRole('menu').getByRole('menuitem', { name: action, exact: true }).click()
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the ${scheme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme })
    })

    test('the start screen and its dialogs meet WCAG AA contrast', async ({ page }) => {
      test.setTimeout(240_000)
      const empty = await makeDir('lcb-e2e-theme-empty-')
      const bare = await startHarness({})
      try {
        await openApp(page, bare)
        const start = page.getByRole('region', { name: 'Open a catalog' })
        await expect(start).toBeVisible()
        // A directory that is no catalog: the error in place, with Create a catalog here.
        await start.getByRole('textbox', { name: 'Directory path' }).fill(empty)
        await start.getByRole('button', { name: 'Open', exact: true }).click()
        await expect(start.getByRole('alert')).toContainText('Could not open the directory')
        expect.soft(await problems(page), 'the start screen').toEqual([])
        await screenshot(page, `theme-${scheme}-start`)
        await checkDialog(page, 'Create a catalog here', () => start.getByRole('button', { name: 'Create a catalog here…' }).click())
        await checkDialog(page, 'Connect to server', () => start.getByRole('button', { name: 'Connect to server…' }).click())
        await checkDialog(
          page,
          'Connect to server',
          async () => {
            await start.getByRole('button', { name: 'Connect to server…' }).click()
            await page.getByRole('button', { name: 'Test with a write round trip…' }).click()
            await expect(page.getByRole('alertdialog', { name: 'Confirm the write test' })).toBeVisible()
          },
          'the write test’s confirmation',
        )
        await checkDialog(page, 'Connect to object storage', () => start.getByRole('button', { name: 'Connect to object storage…' }).click())
      } finally {
        await bare.close()
        await removeDir(empty)
      }

      // A catalog in object storage (Azurite on loopback) refuses imports: a file dropped on it is refused in a notice.
      const azurite = await startAzurite()
      try {
        const azRoot = await azurite.freshRoot('catalog')
        const writer = await DirNamespaceClient.open(azRoot, { create: true, storageOptions: azurite.storageOptions })
        await writer.createNamespace(['lab'])
        await writer.close()
        const remote = await startHarness({ root: azRoot, storageOptions: azurite.storageOptions })
        try {
          await openApp(page, remote)
          await checkDialog(page, 'Cannot import into catalog', () => dropFiles(page, treeItem(page, 'lab'), [{ name: 'more.csv', bytes: 'a\n1\n' }]))
        } finally {
          await remote.close()
        }
      } finally {
        await azurite.stop()
      }
    })

    test('every panel of a table meets WCAG AA contrast', async ({ page }) => {
      test.setTimeout(480_000)
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

      // Versions with a comparison of two versions.
      await page.getByRole('tab', { name: 'Versions' }).click()
      const versions = page.getByRole('complementary', { name: 'Versions' })
      const compare = versions.getByRole('form', { name: 'Compare versions' })
      await compare.getByRole('combobox', { name: 'From version' }).selectOption('1')
      await compare.getByRole('combobox', { name: 'To version' }).selectOption('2')
      await compare.getByRole('button', { name: 'Compare…' }).click()
      await expect(versions.getByRole('region', { name: 'Comparison' })).toBeVisible()
      expect.soft(await problems(page, '[data-dock]'), 'a comparison of versions').toEqual([])
    })

    test('the dialogs of a table’s toolbar and panels meet WCAG AA contrast', async ({ page }) => {
      test.setTimeout(480_000)
      await openApp(page, harness)
      await openTable(page, [], 'animals')
      // The toolbar's dialogs.
      await checkDialog(page, 'Export animals', () => page.getByRole('button', { name: 'Export…', exact: true }).click())
      await checkDialog(page, 'Go to row', () => page.getByRole('button', { name: 'Go to row…', exact: true }).click())
      await checkDialog(page, 'Search by vector', () => page.getByRole('button', { name: 'Search by vector…', exact: true }).click())

      // The panels' dialogs.
      await page.getByRole('button', { name: 'Versions', exact: true }).click()
      const versions = page.getByRole('complementary', { name: 'Versions' })
      await checkDialog(page, 'Restore version 1', async () => {
        await versions.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Restore this version' }).click()
        await expect(page.getByRole('group', { name: 'Indexes after the restore' }).getByRole('checkbox', { name: /^Rebuild id_idx/ })).toBeChecked()
      })
      await checkDialog(page, 'Delete tag first', () => versions.getByRole('button', { name: 'Delete tag first' }).click())
      await page.getByRole('button', { name: 'Indexes', exact: true }).click()
      const indexes = page.getByRole('complementary', { name: 'Indexes' })
      await checkDialog(page, 'Drop index id_idx', () => indexes.getByRole('button', { name: 'Drop index id_idx' }).click())
      await page.getByRole('button', { name: 'Stats', exact: true }).click()
      const stats = page.getByRole('complementary', { name: 'Stats' })
      await checkDialog(page, 'Optimize table', () => stats.getByRole('button', { name: 'Optimize…' }).click())
      const schema = stats.getByRole('group', { name: 'Change schema' })
      await schema.getByRole('textbox', { name: 'New column name' }).fill('double_weight')
      await schema.getByRole('textbox', { name: 'SQL expression' }).fill('weight * 2')
      await checkDialog(page, 'Add column double_weight', () => schema.getByRole('button', { name: 'Add column…' }).click())

      // A new index on a legacy-format table asks first.
      await openTable(page, [], 'ledger')
      await page.getByRole('button', { name: 'Indexes', exact: true }).click()
      const newIndex = page.getByRole('complementary', { name: 'Indexes' }).getByRole('form', { name: 'New index' })
      await checkDialog(page, 'Build an index on a legacy-format table', () => newIndex.getByRole('button', { name: 'Create index' }).click())
    })

    test('the tree’s dialogs, the import sheet, the query view, Save as table, Connect an assistant and the Gallery meet WCAG AA contrast', async ({ page }) => {
      test.setTimeout(480_000)
      await openApp(page, harness)
      await checkDialog(page, 'New namespace', () => treeMenu(page, 'catalog', 'New namespace…'))
      await checkDialog(page, 'New table', () => treeMenu(page, 'zoo', 'New table…'))
      await checkDialog(page, 'Drop namespace and contents', () => treeMenu(page, 'zoo', 'Drop namespace and contents…'))
      await checkDialog(page, 'Properties of zoo', () => treeMenu(page, 'zoo', 'Properties…'))
      await checkDialog(page, 'Rename table', () => treeMenu(page, 'animals', 'Rename table…'))
      await checkDialog(page, 'Drop table', () => treeMenu(page, 'animals', 'Drop table…'))
      await checkDialog(page, 'Connect an assistant to catalog', () => page.getByRole('button', { name: 'Connect an assistant…' }).click())

      // A file dropped on a read-only catalog: the offer to switch Read-only off first (cancelled; switched back).
      const readOnly = page.getByRole('switch', { name: 'Read-only' })
      await readOnly.click()
      await expect(readOnly).toHaveAttribute('aria-checked', 'true')
      await checkDialog(page, 'catalog is read-only', () => dropFiles(page, treeItem(page, 'zoo'), [{ name: 'more.csv', bytes: 'a\n1\n' }]))
      await readOnly.click()
      await expect(readOnly).toHaveAttribute('aria-checked', 'false')

      // The import sheet of a CSV file, previewed.
      await page.getByRole('button', { name: 'Import files' }).click()
      await page.getByTestId('import-file-input').setInputFiles(csv)
      const sheet = page.locator(DIALOG)
      await expect(sheet.getByRole('button', { name: 'Import', exact: true })).toBeEnabled({ timeout: 60_000 })
      expect.soft(await problems(page, DIALOG), 'the import sheet').toEqual([])
      await sheet.getByRole('button', { name: 'Cancel' }).click()
      await expect(sheet).toHaveCount(0)

      // The query view with a result, and Save as table.
      await page.getByRole('button', { name: 'New query' }).click()
      const editor = page.getByRole('textbox', { name: 'SQL' })
      await editor.click()
      await page.keyboard.insertText('SELECT kind, count(*) AS n FROM animals GROUP BY kind ORDER BY kind')
      await editor.press('ControlOrMeta+Enter')
      await expect(page.getByRole('grid', { name: 'Result' })).toHaveAttribute('aria-rowcount', '4', { timeout: 60_000 })
      expect.soft(await problems(page, '[role="tabpanel"]'), 'the query view').toEqual([])
      await screenshot(page, `theme-${scheme}-query`)
      await checkDialog(page, 'Save as table', () => page.getByRole('button', { name: 'Save as table…' }).click())
      // The large-copy question: a whole column of 20,000 rows.
      await editor.press('ControlOrMeta+a')
      await page.keyboard.insertText('SELECT range AS n FROM range(20000)')
      await editor.press('ControlOrMeta+Enter')
      const result = page.getByRole('grid', { name: 'Result' })
      await expect(result).toHaveAttribute('aria-rowcount', '20001', { timeout: 60_000 })
      await result.getByRole('columnheader', { name: 'n', exact: true }).hover()
      await checkDialog(page, 'Copy 20,000 rows?', async () => {
        await page.getByRole('button', { name: 'Column menu for n' }).click()
        await page.getByRole('menuitem', { name: 'Copy column' }).click()
      })

      // The Gallery, and a thumbnail opened in the inspector.
      await openTable(page, [], 'pictures')
      await page.getByRole('button', { name: 'Gallery', exact: true }).click()
      const gallery = page.getByRole('grid', { name: /^Gallery of / })
      await expect(gallery.getByRole('img', { name: 'Row 1', exact: true })).toHaveAttribute('data-state', 'ready')
      await expect(gallery.getByRole('img', { name: 'Row 10: null', exact: true })).toBeVisible()
      expect.soft(await problems(page, '[role="tabpanel"]'), 'the gallery').toEqual([])
      await gallery.getByRole('img', { name: 'Row 1', exact: true }).click()
      await expect(page.getByRole('complementary', { name: 'Cell inspector' })).toBeVisible()
      expect.soft(await problems(page, '[role="tabpanel"]'), 'the gallery with the inspector').toEqual([])
      await screenshot(page, `theme-${scheme}-gallery`)
    })
  })
}
