/**
 * Start from nothing (issue 19): an empty directory offers **Create a catalog here** (a `__manifest`, after a
 * confirmation), and the first table can then be dropped on it. A folder that holds anything is never offered it.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tableToIPC } from 'apache-arrow'
import { test } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import { dropFiles } from './drop'

test('an empty directory: Create a catalog here writes __manifest after a confirmation, and the first table is dropped on it', async ({ page }) => {
  const dir = await makeTempDir('lcb-e2e-new-catalog-')
  const root = join(dir, 'fresh')
  await mkdir(root)
  const harness = await startHarness({ root })
  try {
    await openApp(page, harness)
    const alert = page.getByRole('alert').filter({ hasText: 'The start catalog could not be opened' })
    await expect(alert).toContainText(`${root} is empty`)
    await alert.getByRole('button', { name: 'Create a catalog here…' }).click()
    const confirm = page.getByRole('dialog', { name: 'Create a catalog here' })
    await expect(confirm).toContainText(root)
    await expect(confirm).toContainText('__manifest')
    await screenshot(page, 'create-catalog-confirm')
    // Cancel writes nothing.
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    await expect(confirm).toBeHidden()
    expect(await readdir(root)).toEqual([])

    await alert.getByRole('button', { name: 'Create a catalog here…' }).click()
    await page.getByRole('dialog', { name: 'Create a catalog here' }).getByRole('button', { name: 'Create catalog' }).click()
    const catalog = treeItem(page, 'fresh')
    await expect(catalog).toBeVisible()
    expect(await readdir(root)).toEqual(['__manifest'])

    // The first table: a file dropped on the new catalog.
    await dropFiles(page, catalog, [{ name: 'first.arrows', bytes: tableToIPC(sampleTable(25, { dimension: 4 }), 'stream') }], { expectDropTarget: true })
    const sheet = page.getByRole('dialog', { name: /^Import / })
    await expect(sheet.getByLabel('Table name')).toHaveValue('first')
    await sheet.getByRole('button', { name: 'Import' }).click()
    const grid = page.getByRole('grid', { name: 'first' })
    await expect(grid).toHaveAttribute('aria-rowcount', '26')
    await screenshot(page, 'create-catalog-first-table')
    const client = await DirNamespaceClient.open(root)
    try {
      expect((await client.listTables([])).items).toEqual(['first'])
    } finally {
      await client.close()
    }
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})

test('a folder that holds other files is not offered a catalog; a typed empty path is', async ({ page }) => {
  const dir = await makeTempDir('lcb-e2e-new-catalog-')
  const busy = join(dir, 'busy')
  const empty = join(dir, 'empty')
  await mkdir(busy)
  await mkdir(empty)
  await writeFile(join(busy, 'notes.txt'), 'not a catalog')
  const harness = await startHarness({ root: busy })
  try {
    await openApp(page, harness)
    const initial = page.getByRole('alert').filter({ hasText: 'The start catalog could not be opened' })
    await expect(initial).toContainText('does not hold a Lance catalog')
    await expect(page.getByRole('button', { name: 'Create a catalog here…' })).toHaveCount(0)

    await page.getByLabel('Directory path').fill(empty)
    await page.getByLabel('Directory path').press('Enter')
    const failed = page.getByRole('alert').filter({ hasText: 'Could not open the directory' })
    await expect(failed).toContainText(`${empty} is empty`)
    await failed.getByRole('button', { name: 'Create a catalog here…' }).click()
    await page.getByRole('dialog', { name: 'Create a catalog here' }).getByRole('button', { name: 'Create catalog' }).click()
    await expect(treeItem(page, 'empty')).toBeVisible()
    expect(await readdir(empty)).toEqual(['__manifest'])
    expect(await readdir(busy)).toEqual(['notes.txt'])
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})
