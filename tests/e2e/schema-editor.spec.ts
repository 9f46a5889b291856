/**
 * The schema editor: **New table…** in a namespace's context menu makes an empty table from a
 * schema (name checked live, a vector column), and a file dropped on it appends rows.
 */
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import * as arrow from 'apache-arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles } from './drop'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-schema-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [] })
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})


/** Rows in exactly the schema the editor makes: id int64 (nullable), vector FixedSizeList<Float32>[4] (not null). */
function rows(n: number): arrow.Table {
  const schema = new arrow.Schema([
    new arrow.Field('id', new arrow.Int64(), true),
    new arrow.Field('vector', new arrow.FixedSizeList(4, new arrow.Field('item', new arrow.Float32(), true)), false),
  ])
  const values = Float32Array.from({ length: n * 4 }, (_, i) => i / 10)
  const vectorData = arrow.makeData({ type: schema.fields[1]!.type, length: n, nullCount: 0, child: arrow.makeData({ type: new arrow.Float32(), length: n * 4, data: values }) })
  const idData = arrow.makeData({ type: new arrow.Int64(), length: n, data: BigInt64Array.from({ length: n }, (_, i) => BigInt(i)) })
  return new arrow.Table(new arrow.RecordBatch(schema, arrow.makeData({ type: new arrow.Struct(schema.fields), length: n, nullCount: 0, children: [idData, vectorData] })))
}

test('New table… makes an empty table with a vector column; a dropped file appends to it', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'lab').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'New table…' }).click()
  const editor = page.getByRole('dialog', { name: 'New table' })
  const name = editor.getByLabel('Table name')
  await name.fill('bad name')
  await expect(editor.getByText(/The name .*(letters|allowed|may only)/i)).toBeVisible()
  await name.fill('embeddings')
  const vector = editor.getByRole('group', { name: 'Column vector' })
  await expect(vector.getByLabel('Column type')).toHaveValue('vector')
  await vector.getByLabel('Dimension').fill('0')
  await expect(editor.getByText('Vector “vector” needs a dimension from 1 to 65,536')).toBeVisible()
  await expect(editor.getByRole('button', { name: 'Create table' })).toBeDisabled()
  await vector.getByLabel('Dimension').fill('4')
  await editor.getByRole('button', { name: 'Add column' }).click()
  const added = editor.getByRole('group', { name: 'Column new column' })
  await added.getByLabel('Column name').fill('at')
  await editor.getByRole('group', { name: 'Column at' }).getByLabel('Column type').selectOption('timestamp')
  await editor.getByRole('group', { name: 'Column at' }).getByLabel('Time zone').fill('UTC')
  await screenshot(page, 'schema-editor')
  await editor.getByRole('button', { name: 'Remove column at' }).click()
  await editor.getByRole('button', { name: 'Create table' }).click()
  await expect(editor).toBeHidden()
  await expect(treeItem(page, 'embeddings')).toBeVisible()

  const client = await DirNamespaceClient.open(catalog.root)
  const d = await client.describeTable({ namespace: ['lab'], name: 'embeddings' })
  await client.close()
  expect(d.rowCount).toBe(0)
  expect(d.fields.map((f) => [f.name, f.type, f.nullable])).toEqual([
    ['id', 'Int64', true],
    ['vector', 'FixedSizeList<Float32>[4]', false],
  ])

  await treeItem(page, 'embeddings').click()
  await expect(page.getByRole('grid', { name: 'embeddings' })).toHaveAttribute('aria-rowcount', '1')
  await dropFiles(page, treeItem(page, 'lab'), [{ name: 'embeddings.arrow', bytes: arrow.tableToIPC(rows(25), 'file') }])
  const sheet = page.getByRole('dialog', { name: /^Import / })
  await sheet.getByText('Append', { exact: true }).click()
  await sheet.getByRole('button', { name: 'Append' }).click()
  await expect(page.getByRole('grid', { name: 'embeddings' })).toHaveAttribute('aria-rowcount', '26')
})
