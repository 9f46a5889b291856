import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { buildNestedCatalog, corruptTable } from '../helpers/catalog'
import { expect, expandPath, makeTempDir, openApp, removeDir, screenshot, startHarness, test, treeItem } from '../helpers/e2e'

test('a corrupted table shows its error in place; the rest of the catalog keeps working', async ({ page }) => {
  const dir = await makeTempDir('lcb-e2e-corrupt-')
  const root = await buildNestedCatalog(join(dir, 'damaged'))
  await corruptTable(root, { namespace: ['a', 'b', 'c'], name: 'gamma' }, 'delete-data')
  const harness = await startHarness({ root })
  try {
    await openApp(page, harness)
    await expandPath(page, ['a', 'b', 'c'])
    await treeItem(page, 'gamma').click()
    const alert = page.getByRole('alert')
    await expect(alert).toBeVisible()
    await expect(alert.getByRole('button', { name: /Retry|Try again/ })).toBeVisible()
    await screenshot(page, 'corrupted-table')
    // Another table still opens.
    await treeItem(page, 'beta').click()
    await expect(page.getByRole('grid', { name: 'beta' }).getByRole('gridcell').first()).toHaveText('0')
    await expect(page.getByRole('alert')).toHaveCount(0)
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})

test('a directory that holds no catalog says so where the tree would be', async ({ app }) => {
  const dir = await makeTempDir('lcb-e2e-nocatalog-')
  try {
    const plain = join(dir, 'plain')
    await mkdir(join(plain, 'photos'), { recursive: true })
    await app.getByRole('button', { name: 'Open directory' }).click()
    await app.getByLabel('Directory path').fill(plain)
    await app.getByRole('button', { name: 'Open', exact: true }).click()
    const alert = app.getByRole('alert')
    await expect(alert).toContainText(/not hold a Lance catalog|no Lance catalog|not a catalog/i)
    await expect(alert).toHaveAttribute('data-error-code', 'not_a_catalog')
    await screenshot(app, 'not-a-catalog')
    await expect(treeItem(app, 'demo-catalog')).toBeVisible()
  } finally {
    await removeDir(dir)
  }
})

test('a folder dropped where its path cannot be known (the browser harness) asks for the path instead', async ({ app }) => {
  const dataTransfer = await app.evaluateHandle(() => {
    const transfer = new DataTransfer()
    transfer.items.add(new File(['x'], 'some-folder'))
    return transfer
  })
  const window_ = app.locator('.app')
  await window_.dispatchEvent('dragover', { dataTransfer })
  await expect(app.getByText('Drop a folder to open it as a catalog')).toBeVisible()
  await window_.dispatchEvent('drop', { dataTransfer })
  await expect(app.getByText('Drop a folder to open it as a catalog')).toBeHidden()
  const alert = app.getByRole('alert')
  await expect(alert).toContainText('cannot tell where a dropped folder is')
  await expect(alert).toContainText('Type or paste the directory path instead')
  await expect(app.getByLabel('Directory path')).toBeVisible()
})
