/**
 * The tree's context menu on a directory catalog: create and drop namespaces, drop a table (typing
 * its name), names checked by the component rule; the files on disk follow.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const test = base.extend<{ catalog: { root: string; harness: Harness } }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-actions-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, {
      namespaces: [['full']],
      tables: [
        { namespace: [], name: 'keep_me', rows: 3 },
        { namespace: [], name: 'doomed', rows: 3 },
        { namespace: ['full'], name: 'inside', rows: 3 },
      ],
    })
    const harness = await startHarness({ root })
    await use({ root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

async function listed(root: string) {
  const client = await DirNamespaceClient.open(root)
  try {
    return { namespaces: (await client.listNamespaces([])).items, tables: (await client.listTables([])).items }
  } finally {
    await client.close()
  }
}

test('creates and drops a namespace from the context menu', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await expect(treeItem(page, 'keep_me')).toBeVisible()

  await treeItem(page, 'catalog').click({ button: 'right' })
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem')).toHaveText(['New namespace…', 'New table…', 'Refresh'])
  await screenshot(page, 'tree-context-menu')
  await menu.getByRole('menuitem', { name: 'New namespace…' }).click()
  const create = page.getByRole('dialog', { name: 'New namespace' })
  const name = create.getByLabel('Name')
  // The component rule, in words, before anything is sent.
  await name.fill('a/b')
  await expect(create.getByText(/The name .*(letters|allowed|may only)/i)).toBeVisible()
  await name.fill('fresh')
  await create.getByLabel('Properties (optional, one key=value per line)').fill('owner=ana\npurpose=e2e')
  await create.getByRole('button', { name: 'Create' }).click()
  await expect(create).toBeHidden()
  await expect(treeItem(page, 'fresh')).toBeVisible()
  expect((await listed(catalog.root)).namespaces).toContain('fresh')
  // Describe shows the properties it was created with.
  await treeItem(page, 'fresh').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Properties…' }).click()
  const props = page.getByRole('dialog', { name: 'Properties of fresh' })
  await expect(props.getByRole('definition')).toHaveText(['ana', 'e2e'])
  await props.getByRole('button', { name: 'Close' }).click()

  // Creating it again fails in words and keeps the dialog open.
  await treeItem(page, 'catalog').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'New namespace…' }).click()
  await page.getByRole('dialog', { name: 'New namespace' }).getByLabel('Name').fill('fresh')
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('dialog').getByRole('alert')).toContainText(/exists/i)
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()

  // Keyboard: the Menu key on the focused item.
  await treeItem(page, 'fresh').focus()
  await page.keyboard.press('ContextMenu')
  await expect(page.getByRole('menu')).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(page.getByRole('menuitem', { name: 'Drop namespace…' })).toBeFocused()
  await page.keyboard.press('Enter')
  const drop = page.getByRole('alertdialog', { name: 'Drop namespace' })
  await expect(drop).toContainText('Only an empty namespace can be dropped')
  await drop.getByRole('button', { name: 'Drop namespace' }).click()
  await expect(drop).toBeHidden()
  await expect(treeItem(page, 'fresh')).toHaveCount(0)
  expect((await listed(catalog.root)).namespaces).not.toContain('fresh')

  // A namespace that still holds a table: Drop namespace… is disabled with the reason. Not loaded in the
  // tree yet, so the menu asks (namespaces/contents) when it opens.
  await treeItem(page, 'full').click({ button: 'right' })
  let dropItem = page.getByRole('menuitem', { name: /Drop namespace…/ })
  await expect(dropItem).toHaveAttribute('aria-disabled', 'true')
  await expect(dropItem).toHaveAttribute('title', 'Not empty: it holds 1 table; only an empty namespace can be dropped')
  await page.keyboard.press('Escape')
  // Loaded (expanded): the tree's listing says how much it holds.
  await treeItem(page, 'full').click()
  await expect(treeItem(page, 'inside')).toBeVisible()
  await treeItem(page, 'full').click({ button: 'right' })
  dropItem = page.getByRole('menuitem', { name: /Drop namespace…/ })
  await expect(dropItem).toHaveAttribute('title', 'Not empty: it holds 1 table; only an empty namespace can be dropped')
  await dropItem.click({ force: true })
  await expect(page.getByRole('alertdialog')).toHaveCount(0)
  await page.keyboard.press('Escape')
  expect((await listed(catalog.root)).namespaces).toContain('full')
  // A namespace that still holds a table: "Drop namespace…" is disabled with the reason (never offered, then
  // failing); "Drop namespace and contents…" lists what it deletes and wants the name typed.
  await treeItem(page, 'full').click({ button: 'right' })
  const restrict = page.getByRole('menuitem', { name: 'Drop namespace…' })
  await expect(restrict).toBeDisabled()
  await expect(restrict).toHaveAttribute('aria-description', /Not empty: it holds 1 table/)
  await screenshot(page, 'tree-drop-namespace-not-empty')
  await page.getByRole('menuitem', { name: 'Drop namespace and contents…', exact: true }).click()
  const cascade = page.getByRole('alertdialog', { name: 'Drop namespace and contents' })
  await expect(cascade.getByRole('region', { name: 'Will be deleted' })).toContainText('table inside')
  const confirm = cascade.getByRole('button', { name: 'Drop namespace and contents' })
  await expect(confirm).toBeDisabled()
  await screenshot(page, 'tree-drop-namespace-cascade')
  await cascade.getByLabel('Type “full” to confirm').fill('full')
  await confirm.click()
  await expect(cascade).toBeHidden()
  await expect(treeItem(page, 'full')).toHaveCount(0)
  expect((await listed(catalog.root)).namespaces).not.toContain('full')
})

test('drops a table only after its name is typed, and the selection moves off it', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'doomed').click()
  await expect(page.getByRole('grid', { name: 'doomed' })).toBeVisible()
  await treeItem(page, 'doomed').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Drop table…' }).click()
  const dialog = page.getByRole('alertdialog', { name: 'Drop table' })
  const button = dialog.getByRole('button', { name: 'Drop table' })
  await expect(button).toBeDisabled()
  await dialog.getByLabel('Type “doomed” to confirm').fill('doome')
  await expect(button).toBeDisabled()
  await dialog.getByLabel('Type “doomed” to confirm').fill('doomed')
  await screenshot(page, 'tree-drop-table-confirm')
  await button.click()
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'doomed')).toHaveCount(0)
  await expect(treeItem(page, 'keep_me')).toBeVisible()
  await expect(page.getByRole('grid', { name: 'doomed' })).toHaveCount(0)
  const after = await listed(catalog.root)
  expect(after.tables).toContain('keep_me')
  expect(after.tables).not.toContain('doomed')
  expect(existsSync(catalog.root)).toBe(true)
})

test('renames a table on a directory catalog; a name taken by a namespace is refused in words; reopening shows the new name', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'keep_me').click({ button: 'right' })
  const rename = page.getByRole('menu').getByRole('menuitem', { name: 'Rename table…' })
  await expect(rename).not.toHaveAttribute('aria-disabled', 'true')
  await rename.click()
  const dialog = page.getByRole('dialog', { name: 'Rename table' })
  await dialog.getByLabel('New name').fill('full')
  await dialog.getByRole('button', { name: 'Rename' }).click()
  await expect(dialog.getByRole('alert')).toContainText(/taken by a namespace/)
  await dialog.getByLabel('New name').fill('kept')
  await screenshot(page, 'tree-rename-dialog')
  await dialog.getByRole('button', { name: 'Rename' }).click()
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'kept')).toBeVisible()
  await expect(treeItem(page, 'keep_me')).toHaveCount(0)
  expect(existsSync(join(catalog.root, 'keep_me.lance'))).toBe(false)
  expect((await listed(catalog.root)).tables.sort()).toEqual(['doomed', 'kept'])

  await page.reload()
  await expect(treeItem(page, 'kept')).toBeVisible()
  await treeItem(page, 'kept').click()
  await expect(page.getByRole('grid')).toHaveAttribute('aria-rowcount', '4')

  // Into another namespace: the table shows there, selected, and is gone from the root.
  await treeItem(page, 'kept').click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Rename table…' }).click()
  const move = page.getByRole('dialog', { name: 'Rename table' })
  await move.getByLabel('Namespace').fill('nope')
  await move.getByRole('button', { name: 'Rename' }).click()
  await expect(move.getByRole('alert')).toContainText(/does not exist/)
  await move.getByLabel('Namespace').fill('full')
  await screenshot(page, 'tree-rename-into-namespace')
  await move.getByRole('button', { name: 'Rename' }).click()
  await expect(move).toBeHidden()
  const moved = page.getByRole('treeitem', { name: 'kept' })
  await expect(moved).toHaveAttribute('aria-level', '3')
  await expect(moved).toHaveAttribute('aria-selected', 'true')
  const client = await DirNamespaceClient.open(catalog.root)
  try {
    expect((await client.listTables(['full'])).items.sort()).toEqual(['inside', 'kept'])
    expect((await client.listTables([])).items).toEqual(['doomed'])
    expect((await client.describeTable({ namespace: ['full'], name: 'kept' })).rowCount).toBe(3)
  } finally {
    await client.close()
  }
})
