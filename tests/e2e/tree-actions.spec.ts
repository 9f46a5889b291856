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

  // A namespace that still holds a table: "Drop namespace…" is disabled with the reason (never offered, then
  // failing); "Drop namespace and contents…" lists what it deletes and wants the name typed.
  await treeItem(page, 'full').click({ button: 'right' })
  const restrict = page.getByRole('menuitem', { name: 'Drop namespace…' })
  await expect(restrict).toBeDisabled()
  await expect(restrict).toHaveAttribute('aria-description', /Not empty: holds 1 table/)
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
