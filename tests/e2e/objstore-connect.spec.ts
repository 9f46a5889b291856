/**
 * "Connect to object storage" in the real renderer (harness + Chromium): a `file://` catalog, an `az://` catalog on
 * Azurite started here, a wrong account key (an error in words, focus kept in the dialog, nothing saved), the saved
 * connection after a reload ("••••• saved", the key nowhere in the page), and what object storage cannot do disabled
 * with its reason.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { test as base, type Page } from '@playwright/test'
import { AZURITE_ACCOUNT, AZURITE_KEY, NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { buildCatalog } from '../helpers/catalog'
import { expandPath, expect, gridCell, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import { buildObjectStoreCatalog } from '../helpers/objstoreCatalog'
import type { Harness } from '../../src/harness/server'

// The harness runs in this process: no path may reach a real cloud.
Object.assign(process.env, NO_CLOUD_ENV)

const test = base.extend<{ bare: Harness }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  bare: async ({}, use) => {
    const harness = await startHarness({})
    await use(harness)
    await harness.close()
  },
})

let azurite: Azurite
let dir: string
test.beforeAll(async () => {
  azurite = await startAzurite()
  dir = await makeTempDir('lcb-e2e-objstore-')
})
test.afterAll(async () => {
  await azurite?.stop()
  await removeDir(dir)
})

async function openStoreDialog(page: Page) {
  await page.getByRole('button', { name: 'Connect to object storage…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to object storage' })
  await expect(dialog).toBeVisible()
  return dialog
}

/** Every input's current value (a password field's value is not in page.content()). */
function inputValues(page: Page): Promise<string[]> {
  return page.locator('input, textarea, select').evaluateAll((elements) => elements.map((e) => (e as HTMLInputElement).value))
}

test('opens a file:// catalog from the dialog and browses it as a directory', async ({ page, bare }) => {
  const root = await buildCatalog(join(dir, 'local'), { namespaces: [['team']], tables: [{ namespace: ['team'], name: 'scores', rows: 12 }] })
  await openApp(page, bare)
  const dialog = await openStoreDialog(page)
  // Each store offers its own labelled options.
  await dialog.getByRole('radio', { name: 'Amazon S3' }).check()
  await expect(dialog.getByLabel('Secret access key')).toHaveAttribute('type', 'password')
  await expect(dialog.getByLabel('Region')).toBeVisible()
  await expect(dialog.getByRole('checkbox', { name: 'Virtual-hosted–style requests' })).toBeVisible()
  await screenshot(page, 'objstore-dialog-s3')
  await dialog.getByRole('radio', { name: 'Google Cloud Storage' }).check()
  await expect(dialog.getByLabel('Service-account JSON')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Choose file…' })).toBeVisible()
  await expect(dialog.getByRole('checkbox', { name: 'Anonymous access (public bucket, no credentials)' })).toBeVisible()
  await screenshot(page, 'objstore-dialog-gcs')

  // Live validation in words.
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog.getByText('Give the connection a name')).toBeVisible()
  await expect(dialog.getByText('Enter the catalog’s URI, e.g. gs://bucket/prefix')).toBeVisible()
  await dialog.getByLabel('Catalog URI').fill('http://example.com/x')
  await expect(dialog.getByText('The URI must start with s3://, gs://, az:// or file://')).toBeVisible()

  await dialog.getByLabel('Name', { exact: true }).fill('Local lake')
  await dialog.getByLabel('Catalog URI').fill(pathToFileURL(root).href)
  await expect(dialog.getByRole('radio', { name: 'Local (file://)' })).toBeChecked()
  await screenshot(page, 'objstore-dialog-file')
  // Enter submits ("Save & connect").
  await dialog.getByLabel('Catalog URI').press('Enter')
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'Local lake')).toHaveAttribute('aria-expanded', 'true')
  await treeItem(page, 'team').click()
  await treeItem(page, 'scores').click()
  const grid = page.getByRole('grid', { name: 'scores' })
  await expect(grid).toHaveAttribute('aria-rowcount', '13')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
})

test('connects to an az:// catalog on Azurite, browses it, and keeps the key secret across a reload', async ({ page, bare }) => {
  const root = await azurite.freshRoot('lake')
  await buildObjectStoreCatalog(root, azurite.storageOptions, {
    namespaces: [['team']],
    tables: [
      { namespace: [], name: 'events', rows: 40 },
      { namespace: ['team'], name: 'scores', rows: 9 },
    ],
  })
  const consoleLines: string[] = []
  page.on('console', (message) => consoleLines.push(message.text()))
  await openApp(page, bare)
  const dialog = await openStoreDialog(page)
  await dialog.getByLabel('Name', { exact: true }).fill('Blob lake')
  await dialog.getByLabel('Catalog URI').fill(root)
  await expect(dialog.getByRole('radio', { name: 'Azure Blob Storage' })).toBeChecked()
  await dialog.getByLabel('Account name').fill(AZURITE_ACCOUNT)
  await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(azurite.endpoint)
  await dialog.getByLabel('Account key', { exact: true }).fill(AZURITE_KEY)
  await dialog.getByRole('checkbox', { name: 'Allow http:// endpoints' }).check()
  await expect(dialog.getByLabel('Account key', { exact: true })).toHaveAttribute('type', 'password')
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(dialog.getByRole('region', { name: 'Test result' })).toContainText('The catalog opened: 1 namespace and 1 table at its root')
  await screenshot(page, 'objstore-dialog-azure')

  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'Blob lake')).toHaveAttribute('aria-expanded', 'true')
  await treeItem(page, 'team').click()
  await treeItem(page, 'scores').click()
  const grid = page.getByRole('grid', { name: 'scores' })
  await expect(grid).toHaveAttribute('aria-rowcount', '10')
  await expect(gridCell(grid, 8, 0)).toHaveText('8')
  await screenshot(page, 'objstore-connected')

  // A bucket is a remote catalog: it opens read-only, like a REST server. Switched off, what object storage cannot do
  // is still disabled, with the reason.
  await treeItem(page, 'scores').click({ button: 'right' })
  await expect(page.getByRole('menuitem', { name: /Drop table/ })).toHaveAccessibleDescription(/read-only/)
  await page.keyboard.press('Escape')
  await treeItem(page, 'Blob lake').click()
  const toggle = page.getByRole('switch', { name: 'Read-only' })
  await expect(toggle).toBeChecked()
  await toggle.click()
  await expect(toggle).not.toBeChecked()
  await expandPath(page, ['Blob lake', 'team'])
  await treeItem(page, 'scores').click({ button: 'right' })
  await expect(page.getByRole('menuitem', { name: /Drop table/ })).toBeEnabled()
  const rename = page.getByRole('menuitem', { name: /Rename table/ })
  await expect(rename).toBeDisabled()
  await expect(rename).toHaveAccessibleDescription(/^Renaming tables is not supported on object storage/)
  await page.keyboard.press('Escape')

  // After a reload the saved connection is listed; editing it shows the key as saved, never its value.
  await page.reload()
  await expect(treeItem(page, 'Blob lake')).toBeVisible()
  await page.getByRole('button', { name: 'Open directory' }).click()
  const saved = page.getByRole('list', { name: 'Saved connections' }).getByRole('listitem', { name: 'Blob lake' })
  await expect(saved).toContainText(`${root} · Azure Blob Storage · 1 secret saved`)
  await screenshot(page, 'objstore-saved-list')
  await saved.getByRole('button', { name: 'Edit Blob lake' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit “Blob lake”' })
  await expect(edit.getByLabel('Account key saved')).toHaveText('••••• saved')
  await expect(edit.getByLabel('Account name')).toHaveValue(AZURITE_ACCOUNT)
  await screenshot(page, 'objstore-edit-saved')
  expect(await page.content()).not.toContain(AZURITE_KEY)
  expect((await inputValues(page)).join('\n')).not.toContain(AZURITE_KEY)
  expect(consoleLines.join('\n')).not.toContain(AZURITE_KEY)
  await page.keyboard.press('Escape')
  await expect(edit).toBeHidden()
})

test('a GCS catalog saves its service-account key from a file as a secret: masked, then "••••• saved"', async ({ page, bare }) => {
  const privateKey = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC-e2e-objstore'
  const keyFile = JSON.stringify({ type: 'service_account', client_email: 'reader@example.iam.gserviceaccount.com', private_key_id: 'e2e0123456789', private_key: privateKey })
  await openApp(page, bare)
  // From the sidebar's server menu; the dialog's first choice switches between a REST server and object storage.
  await page.getByRole('button', { name: 'Catalog servers' }).click()
  await page.getByRole('menuitem', { name: 'Connect to object storage…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to object storage' })
  await dialog.getByRole('radio', { name: 'REST server' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect to server' })).toBeVisible()
  await page.getByRole('dialog', { name: 'Connect to server' }).getByRole('radio', { name: 'Object storage' }).click()
  await expect(dialog).toBeVisible()
  await dialog.getByLabel('Name', { exact: true }).fill('Public bucket')
  await dialog.getByLabel('Catalog URI').fill('gs://bucket/catalog')
  await expect(dialog.getByRole('radio', { name: 'Google Cloud Storage' })).toBeChecked()
  await dialog.getByLabel('Service-account key file').setInputFiles({ name: 'reader-key.json', mimeType: 'application/json', buffer: Buffer.from(keyFile) })
  const field = dialog.getByLabel('Service-account JSON')
  await expect(field).toHaveValue(keyFile)
  await expect(dialog.getByText('Loaded from reader-key.json')).toBeVisible()
  // Masked on screen like a password.
  expect(await field.evaluate((e) => getComputedStyle(e).getPropertyValue('-webkit-text-security'))).toBe('disc')
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dialog).toBeHidden()
  const saved = page.getByRole('list', { name: 'Saved connections' }).getByRole('listitem', { name: 'Public bucket' })
  await expect(saved).toContainText('gs://bucket/catalog · Google Cloud Storage · 1 secret saved')
  await saved.getByRole('button', { name: 'Edit Public bucket' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit “Public bucket”' })
  await expect(edit.getByLabel('Service-account JSON saved')).toHaveText('••••• saved')
  expect(await page.content()).not.toContain(privateKey)
  expect((await inputValues(page)).join('\n')).not.toContain(privateKey)
  // Tab moves through the form and stays in the dialog; Escape closes it.
  await edit.getByLabel('Name', { exact: true }).focus()
  await page.keyboard.press('Tab')
  expect(await edit.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(edit).toBeHidden()
})

test('a wrong account key is an error in words under the form; focus stays in the dialog and nothing is saved', async ({ page, bare }) => {
  const root = await azurite.freshRoot('lake')
  await buildObjectStoreCatalog(root, azurite.storageOptions, { tables: [{ namespace: [], name: 'events', rows: 3 }] })
  const wrongKey = Buffer.from('this-is-not-the-emulator-key-0123456789-0123456789-0123456789').toString('base64')
  await openApp(page, bare)
  const dialog = await openStoreDialog(page)
  await dialog.getByLabel('Name', { exact: true }).fill('Wrong key')
  await dialog.getByLabel('Catalog URI').fill(root)
  await dialog.getByLabel('Account name').fill(AZURITE_ACCOUNT)
  await dialog.getByRole('textbox', { name: 'Endpoint' }).fill(azurite.endpoint)
  await dialog.getByLabel('Account key', { exact: true }).fill(wrongKey)
  await dialog.getByRole('checkbox', { name: 'Allow http:// endpoints' }).check()
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  const alert = dialog.getByRole('alert')
  await expect(alert).toContainText('Could not open the catalog — nothing was saved')
  await expect(dialog).toBeVisible()
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true)
  await screenshot(page, 'objstore-wrong-key')
  // The key the user typed stays in its field (to correct it); the error never repeats it.
  expect(await alert.textContent()).not.toContain(wrongKey)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('list', { name: 'Saved connections' })).toHaveCount(0)
})
