/**
 * Remote catalogs in the real renderer: our REST server (with an API key) on loopback, the harness,
 * real Chromium. Connect through the dialog, browse, test, the wrong-key path, secrets kept out of
 * the DOM and the logs, and the capability map disabling what the server does not support.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { test as base, type Page } from '@playwright/test'
import { startServer, type RunningServer } from '../../src/server'
import { buildCatalog } from '../helpers/catalog'
import { expect, gridCell, gridRow, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const KEY = 'sk-e2e-7f3a9c1d5b2e8a4f6c0d'
const WRONG_KEY = 'sk-e2e-wrong-0000000000000'
const EVENTS_ROWS = 3000

interface Fixtures {
  server: RunningServer & { log: string[] }
  /** A harness with no catalog open: the start screen shows first. */
  bare: Harness
}

/** Everything the worker process writes while a test runs (the harness and the server run in it). */
const processOutput: string[] = []

const test = base.extend<Fixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  server: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-rest-')
    const root = join(dir, 'served')
    await buildCatalog(root, {
      namespaces: [['team']],
      tables: [
        { namespace: [], name: 'events', rows: EVENTS_ROWS },
        { namespace: ['team'], name: 'scores', rows: 20 },
      ],
    })
    const log: string[] = []
    const server = await startServer({ root, apiKeys: [KEY], log: (line) => log.push(line) })
    await use({ ...server, log })
    await server.close()
    await removeDir(dir)
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  bare: async ({}, use) => {
    const harness = await startHarness({})
    await use(harness)
    await harness.close()
  },
})

test.beforeEach(() => {
  processOutput.length = 0
  for (const stream of [process.stdout, process.stderr]) {
    const original = stream.write.bind(stream) as (...args: unknown[]) => boolean
    ;(stream as unknown as { __original?: unknown }).__original ??= original
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      processOutput.push(String(chunk))
      return original(chunk, ...rest)
    }) as typeof stream.write
  }
})

test.afterEach(() => {
  for (const stream of [process.stdout, process.stderr]) {
    const original = (stream as unknown as { __original?: typeof stream.write }).__original
    if (original) stream.write = original
  }
})

/** What GET /v1/tables answers (the count the dialog must show). */
async function serverTableCount(server: RunningServer): Promise<number> {
  const response = await fetch(`${server.url}/v1/tables`, { headers: { 'x-api-key': KEY } })
  const body = (await response.json()) as { tables: unknown[] }
  return body.tables.length
}

async function openConnectDialog(page: Page) {
  await page.getByRole('button', { name: 'Connect to server…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to server' })
  await expect(dialog).toBeVisible()
  return dialog
}

async function fillConnection(page: Page, name: string, url: string, key: string) {
  const dialog = page.getByRole('dialog')
  await dialog.getByLabel('Name', { exact: true }).fill(name)
  await dialog.getByLabel('Endpoint URL').fill(url)
  await dialog.getByRole('textbox', { name: 'API key' }).fill(key)
}

/** Every input's current value in the page (a password field's value is not in page.content()). */
function inputValues(page: Page): Promise<string[]> {
  return page.locator('input, textarea, select').evaluateAll((elements) => elements.map((e) => (e as HTMLInputElement).value))
}

test('connects with an API key through the dialog, browses, opens a table and scrolls; the key is never shown nor logged', async ({ page, server, bare }) => {
  const consoleLines: string[] = []
  page.on('console', (message) => consoleLines.push(message.text()))
  await openApp(page, bare)
  const dialog = await openConnectDialog(page)

  // Live validation in words.
  await dialog.getByLabel('Endpoint URL').fill('catalog.example.com')
  await dialog.getByLabel('Endpoint URL').blur()
  await expect(dialog.getByText('The URL must be an http:// or https:// URL without credentials')).toBeVisible()
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog.getByText('Give the connection a name')).toBeVisible()
  await expect(dialog.getByText('Enter the API key')).toBeVisible()

  await fillConnection(page, 'Team server', server.url, KEY)
  await expect(dialog.getByRole('textbox', { name: 'API key' })).toHaveAttribute('type', 'password')
  await expect(dialog.getByText('Give the connection a name')).toHaveCount(0)

  // Test connection says what the server holds (root tables, namespaces, tables found in them), without writing.
  const expected = await serverTableCount(server)
  expect(expected).toBe(1)
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  const report = dialog.getByRole('region', { name: 'Test result' })
  await expect(report).toContainText('The server has 2 tables: 1 at the root and 1 in 1 namespace (1 at the top level).')
  await expect(report).not.toContainText('write round trip')
  await screenshot(page, 'rest-connect-dialog')

  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog).toBeHidden()
  const root = treeItem(page, 'Team server')
  await expect(root).toHaveAttribute('aria-expanded', 'true')
  await expect(treeItem(page, 'team')).toBeVisible()
  await expect(treeItem(page, 'events')).toBeVisible()
  await treeItem(page, 'team').click()
  await expect(treeItem(page, 'scores')).toBeVisible()

  const grid = (await treeItem(page, 'events').click(), page.getByRole('grid', { name: 'events' }))
  await expect(grid).toHaveAttribute('aria-rowcount', String(EVENTS_ROWS + 1))
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await grid.evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(gridCell(grid, EVENTS_ROWS - 1, 0)).toHaveText(String(EVENTS_ROWS - 1))
  await expect(gridRow(grid, EVENTS_ROWS - 1).getByRole('rowheader')).toHaveText('3,000')
  await screenshot(page, 'rest-tree-with-table')

  // The saved connection, reopened for editing, shows "saved" and holds no key anywhere.
  // The sidebar's server menu lists the saved server; "+" leads to the start screen with the full list.
  await page.getByRole('button', { name: 'Catalog servers' }).click()
  await expect(page.getByRole('menu', { name: 'Catalog servers' }).getByRole('menuitem')).toHaveText(['Connect to server…', 'Connect to object storage…', 'Connect to “Team server”'])
  await page.keyboard.press('Escape')
  await page.getByRole('button', { name: 'Open directory' }).click()
  const saved = page.getByRole('list', { name: 'Saved connections' }).getByRole('listitem', { name: 'Team server' })
  await expect(saved).toContainText('API key saved')
  await expect(saved.getByRole('button', { name: 'Connect to Team server' })).toHaveText('Show')
  await saved.getByRole('button', { name: 'Edit Team server' }).click()
  const edit = page.getByRole('dialog', { name: 'Edit “Team server”' })
  await expect(edit.getByText('••••• saved')).toBeVisible()
  await screenshot(page, 'rest-edit-dialog-saved-secret')
  expect(await inputValues(page)).not.toContain(KEY)
  expect((await inputValues(page)).some((v) => v.includes(KEY))).toBe(false)
  expect(await page.content()).not.toContain(KEY)
  await edit.getByRole('button', { name: 'Cancel' }).click()

  expect(await page.content()).not.toContain(KEY)
  expect(server.log.length).toBeGreaterThan(0)
  expect(server.log.join('\n')).not.toContain(KEY)
  expect(processOutput.join('')).not.toContain(KEY)
  expect(consoleLines.join('\n')).not.toContain(KEY)
})

test('a failed Save & connect saves nothing and keeps the focus in the dialog; a wrong key never changes a saved connection', async ({ page, server, bare }) => {
  await openApp(page, bare)
  let dialog = await openConnectDialog(page)
  await fillConnection(page, 'Shared catalog', server.url, WRONG_KEY)
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  // Refused before anything was saved: the dialog still makes a new connection, and says so.
  await expect(dialog.getByRole('alert')).toContainText(/rejected the API key/i)
  await expect(dialog.getByRole('alert')).toContainText('The server refused the credentials — nothing was saved')
  await expect(page.getByRole('dialog', { name: 'Connect to server' })).toBeVisible()
  // The focus stays in the dialog, on the error; Tab and Escape keep working there.
  await expect(dialog.locator('.dialog-error')).toBeFocused()
  await screenshot(page, 'rest-wrong-key-dialog')
  await page.keyboard.press('Tab')
  expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByText('No saved connections yet.')).toBeVisible()

  // "Save" alone saves what the form says (the user asked for it); connecting then fails and changes nothing.
  dialog = await openConnectDialog(page)
  await fillConnection(page, 'Shared catalog', server.url, WRONG_KEY)
  await dialog.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(dialog).toBeHidden()
  const saved = page.getByRole('list', { name: 'Saved connections' }).getByRole('listitem', { name: 'Shared catalog' })
  await saved.getByRole('button', { name: 'Connect to Shared catalog' }).click()
  await expect(saved.getByRole('alert')).toContainText(/rejected the API key/i)
  await expect(saved).toContainText('API key saved')
  await screenshot(page, 'rest-start-screen-saved-failed')
  await page.reload()
  const listed = page.getByRole('list', { name: 'Saved connections' }).getByRole('listitem')
  await expect(listed).toHaveCount(1)
  await expect(listed.first()).toHaveAccessibleName('Shared catalog')

  // Edit → Replace the key → connect.
  await listed.first().getByRole('button', { name: 'Edit Shared catalog' }).click()
  dialog = page.getByRole('dialog', { name: 'Edit “Shared catalog”' })
  await dialog.getByRole('button', { name: 'Replace' }).click()
  await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY)
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'Shared catalog')).toHaveAttribute('aria-expanded', 'true')
  await expect(treeItem(page, 'events')).toBeVisible()

  // A wrong key typed over the good one: Save & connect fails and the saved connection keeps the good key.
  await page.getByRole('button', { name: 'Open directory' }).click()
  await page.getByRole('list', { name: 'Saved connections' }).getByRole('button', { name: 'Edit Shared catalog' }).click()
  dialog = page.getByRole('dialog', { name: 'Edit “Shared catalog”' })
  await dialog.getByRole('button', { name: 'Replace' }).click()
  await dialog.getByRole('textbox', { name: 'API key' }).fill(WRONG_KEY)
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog.getByRole('alert')).toContainText('The server refused the credentials — the saved connection is unchanged')
  await expect(dialog.locator('.dialog-error')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await page.getByRole('list', { name: 'Saved connections' }).getByRole('button', { name: 'Edit Shared catalog' }).click()
  await expect(dialog.getByText('••••• saved')).toBeVisible()
  await dialog.getByRole('button', { name: 'Test connection' }).click()
  await expect(dialog.getByRole('region', { name: 'Test result' })).toContainText('The server has 2 tables: 1 at the root and 1 in 1 namespace')
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  expect(await page.content()).not.toContain(KEY)
  expect(await page.content()).not.toContain(WRONG_KEY)
  expect(server.log.join('\n')).not.toContain(WRONG_KEY)
  expect(processOutput.join('')).not.toContain(KEY)
})

test('the write round trip says it writes, asks first, and leaves the server as it was', async ({ page, server, bare }) => {
  await openApp(page, bare)
  const dialog = await openConnectDialog(page)
  await fillConnection(page, 'Round trip', server.url, KEY)
  const before = await serverTableCount(server)
  await dialog.getByRole('button', { name: 'Test with a write round trip…' }).click()
  const confirm = dialog.getByRole('alertdialog', { name: 'Confirm the write test' })
  await expect(confirm).toContainText('creates a small table')
  await expect(confirm).toContainText('drops it')
  // Nothing ran yet.
  await expect(dialog.getByRole('region', { name: 'Test result' })).toHaveCount(0)
  await confirm.getByRole('button', { name: 'Create and drop a test table' }).click()
  const report = dialog.getByRole('region', { name: 'Test result' })
  await expect(report).toContainText('The write round trip worked.')
  await expect(report.getByRole('listitem')).toHaveCount(5)
  await screenshot(page, 'rest-write-round-trip')
  expect(await serverTableCount(server)).toBe(before)
})

test('renaming a table on the REST connection: our server renames on its directory catalog, and a refusal is shown in words', async ({ page, server, bare }) => {
  await openApp(page, bare)
  const dialog = await openConnectDialog(page)
  await fillConnection(page, 'Team server', server.url, KEY)
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(treeItem(page, 'events')).toBeVisible()
  // A remote catalog opens read-only (writes disabled with the reason); switch it off to write.
  const readOnly = page.getByRole('switch', { name: 'Read-only' })
  await expect(readOnly).toHaveAttribute('aria-checked', 'true')
  await treeItem(page, 'events').click({ button: 'right' })
  await expect(page.getByRole('menu').getByRole('menuitem', { name: /Rename table…/ })).toHaveAttribute('aria-description', /read-only/)
  await page.keyboard.press('Escape')
  await readOnly.click()
  await expect(readOnly).toHaveAttribute('aria-checked', 'false')

  // The keyboard opens the menu; a name taken by a namespace is refused (409) and nothing changes.
  await treeItem(page, 'events').focus()
  await page.keyboard.press('Shift+F10')
  const rename = page.getByRole('menu').getByRole('menuitem', { name: 'Rename table…' })
  await expect(rename).not.toHaveAttribute('aria-disabled', 'true')
  await rename.click()
  const renameDialog = page.getByRole('dialog', { name: 'Rename table' })
  await renameDialog.getByLabel('New name').fill('team')
  await renameDialog.getByRole('button', { name: 'Rename' }).click()
  await expect(renameDialog.getByRole('alert')).toContainText(/exists|taken/i)
  await renameDialog.getByLabel('New name').fill('events_renamed')
  await renameDialog.getByRole('button', { name: 'Rename' }).click()
  await expect(renameDialog).toBeHidden()
  await expect(treeItem(page, 'events_renamed')).toBeVisible()
  await expect(treeItem(page, 'events')).toHaveCount(0)
  const tables = ((await (await fetch(`${server.url}/v1/tables`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }).tables
  expect(tables).toContain('events_renamed')
  expect(tables).not.toContain('events')
})

test('a REST root and a directory root side by side', async ({ page, server }) => {
  const dir = await makeTempDir('lcb-e2e-local-')
  const local = join(dir, 'local-catalog')
  await buildCatalog(local, { tables: [{ namespace: [], name: 'local_table', rows: 5 }] })
  const harness = await startHarness({ root: local })
  try {
    await openApp(page, harness)
    await expect(treeItem(page, 'local_table')).toBeVisible()
    await page.getByRole('button', { name: 'Catalog servers' }).click()
    await page.getByRole('menuitem', { name: 'Connect to server…' }).click()
    await fillConnection(page, 'Team server', server.url, KEY)
    await page.getByRole('dialog').getByRole('button', { name: 'Save & connect' }).click()
    await expect(treeItem(page, 'events')).toBeVisible()
    await expect(treeItem(page, 'local-catalog')).toBeVisible()
    await expect(page.getByRole('treeitem', { level: 1 })).toHaveCount(2)
    await treeItem(page, 'events').click()
    await expect(page.getByRole('grid', { name: 'events' })).toBeVisible()
    await screenshot(page, 'rest-and-directory-roots')
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})

test('a test against a server that never answers can be cancelled from the dialog', async ({ page, bare }) => {
  // A loopback socket that accepts and never replies: the request hangs until cancelled.
  const sockets = new Set<Socket>()
  const silent = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
  const { port } = silent.address() as AddressInfo
  try {
    await openApp(page, bare)
    const dialog = await openConnectDialog(page)
    await fillConnection(page, 'Silent', `http://127.0.0.1:${port}`, KEY)
    await dialog.getByRole('button', { name: 'Test connection' }).click()
    await expect(dialog.getByRole('status').filter({ hasText: 'Listing the server’s tables…' })).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Test connection' })).toBeDisabled()
    await dialog.getByRole('button', { name: 'Cancel test' }).click()
    await expect(dialog.getByText('Test cancelled.')).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Test connection' })).toBeEnabled()
    await expect(dialog.getByRole('alert')).toHaveCount(0)
  } finally {
    for (const socket of sockets) socket.destroy()
    await new Promise((resolve) => silent.close(resolve))
  }
})
