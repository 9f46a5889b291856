/**
 * Start from nothing: an empty directory offers **Create a catalog here** (a `__manifest`, after a
 * confirmation), and the first table can then be dropped on it. A folder that holds anything is never offered it.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tableToIPC } from 'apache-arrow'
import { test } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { AZURITE_ACCOUNT, AZURITE_KEY, NO_CLOUD_ENV, startAzurite } from '../helpers/azurite'
import { blobsUnder } from '../helpers/azurite-blobs'
import { sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import { dropFiles } from './drop'

// The harness runs in this process: no path may reach a real cloud.
Object.assign(process.env, NO_CLOUD_ENV)

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

test('an empty prefix on object storage (Azurite): Save & connect says it is empty and offers Create a catalog here', async ({ page }) => {
  const azurite = await startAzurite()
  const harness = await startHarness({})
  try {
    const root = await azurite.freshRoot('team')
    await openApp(page, harness)
    await page.getByRole('button', { name: 'Connect to object storage…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Connect to object storage' })
    await dialog.getByLabel('Name', { exact: true }).fill('New lake')
    await dialog.getByLabel('Catalog URI').fill(root)
    await dialog.getByLabel('Account name').fill(AZURITE_ACCOUNT)
    await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(azurite.endpoint)
    await dialog.getByLabel('Account key', { exact: true }).fill(AZURITE_KEY)
    await dialog.getByRole('checkbox', { name: 'Allow http:// endpoints' }).check()
    await dialog.getByRole('button', { name: 'Save & connect' }).click()
    await expect(dialog.getByRole('alert')).toContainText(`${root} is empty`)
    expect(await blobsUnder(azurite, root)).toEqual([])
    await dialog.getByRole('button', { name: 'Create a catalog here…' }).click()
    const confirm = page.getByRole('dialog', { name: 'Create a catalog here' })
    await expect(confirm).toContainText(root)
    await screenshot(page, 'create-catalog-objstore')
    await confirm.getByRole('button', { name: 'Create catalog' }).click()
    await expect(dialog).toBeHidden()
    await expect(treeItem(page, 'New lake')).toBeVisible()
    expect((await blobsUnder(azurite, root)).some((name) => name.includes('__manifest/'))).toBe(true)
  } finally {
    await harness.close()
    await azurite.stop()
  }
})
