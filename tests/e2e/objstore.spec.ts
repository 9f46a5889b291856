import '../helpers/no-cloud'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { Table as ArrowTable } from 'apache-arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { storageProperties } from '../../src/core/namespace/objectStore'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { blobsUnder } from '../helpers/azurite-blobs'
import { expect, gridCell, openTable, screenshot, test, treeItem } from '../helpers/e2e'
import { dropFiles } from './drop'

/**
 * The app on a catalog in object storage, through `npm run harness -- --root az://… --storage-option k=v…`
 * (Azurite on loopback): browse the tree, open a table, page to its end, and never write on read.
 */
const ROWS = 2500
let azurite: Azurite
const harnesses: ChildProcess[] = []

const rows = (n: number) => lancedb.makeArrowTable(Array.from({ length: n }, (_, i) => ({ id: i, label: `event ${i}` }))) as unknown as ArrowTable

test.beforeAll(async () => {
  azurite = await startAzurite()
})
test.afterAll(async () => {
  for (const child of harnesses) if (child.exitCode === null) child.kill('SIGTERM')
  await azurite?.stop()
})

/** Start the harness command line on `root`; resolves with the URL it prints (or the failure it prints). */
function harnessCli(root: string, storageOptions: Record<string, string>): Promise<{ url: string; stderr: () => string }> {
  const args = ['--import', 'tsx', join(__dirname, '../../src/harness/cli.ts'), '--root', root, '--port', '0']
  for (const [key, value] of Object.entries(storageOptions)) args.push('--storage-option', `${key}=${value}`)
  const child = spawn(process.execPath, args, { env: { ...process.env, ...NO_CLOUD_ENV }, stdio: ['ignore', 'pipe', 'pipe'] })
  harnesses.push(child)
  let out = ''
  let err = ''
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('harness: '))
      if (line) resolve({ url: line.slice('harness: '.length).trim(), stderr: () => err })
    })
    child.on('exit', (code) => reject(new Error(`harness exited with ${code}: ${out}${err}`)))
  })
}

test('browse an az:// catalog, open a table and page to its end; nothing in the container changes', async ({ page }) => {
  const root = await azurite.freshRoot('catalog')
  const writer = await DirNamespaceClient.open(root, { create: true, storageOptions: azurite.storageOptions })
  await writer.createNamespace(['lab'])
  await writer.createTable({ namespace: ['lab'], name: 'events' }, rows(ROWS))
  await writer.createTable({ namespace: [], name: 'small' }, rows(3))
  await writer.close()
  const before = await blobsUnder(azurite, root)

  const { url } = await harnessCli(root, azurite.storageOptions)
  await page.goto(url)
  await expect(page.getByRole('tree')).toBeVisible()
  await expect(treeItem(page, 'small')).toBeVisible()
  const grid = await openTable(page, ['lab'], 'events')
  await expect(grid).toHaveAttribute('aria-rowcount', String(ROWS + 1))
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  await grid.focus()
  await page.keyboard.press('Control+End')
  await expect(grid.locator('[role="row"]:has([aria-selected="true"])')).toHaveAttribute('aria-rowindex', String(ROWS + 1))
  await expect(gridCell(grid, ROWS - 1, 0)).toHaveText(String(ROWS - 1))
  await expect(gridCell(grid, ROWS - 1, 1)).toHaveText(`event ${ROWS - 1}`)
  await expect(grid).not.toHaveAttribute('aria-busy', 'true')

  // What lancedb cannot do on object storage is disabled, with the reason.
  await treeItem(page, 'events').click({ button: 'right' })
  const rename = page.getByRole('menu').getByRole('menuitem', { name: /Rename table…/ })
  await expect(rename).toHaveAttribute('aria-disabled', 'true')
  await expect(rename).toHaveAttribute('aria-description', /^Renaming tables is not supported on object storage/)
  await screenshot(page, 'objstore-az-table')
  await page.keyboard.press('Escape')

  // A file dropped on the catalog: import is refused up front with the reason (no job, nothing written).
  await dropFiles(page, treeItem(page, 'lab'), [{ name: 'more.jsonl', bytes: '{"id":1,"label":"x"}\n' }])
  const refused = page.getByRole('alertdialog', { name: /^Cannot import into / })
  await expect(refused).toContainText(/Importing files into a catalog on object storage is not supported/)
  await screenshot(page, 'objstore-import-refused')
  await refused.getByRole('button', { name: 'Close' }).click()
  await expect(refused).toBeHidden()

  expect(await blobsUnder(azurite, root)).toEqual(before)
})

test('a catalog without __manifest opens read-only: its tables are shown and no __manifest is written', async ({ page }) => {
  const root = await azurite.freshRoot('bare')
  const options = azurite.storageOptions
  const db = await lancedb.connectNamespace('dir', { root, manifestEnabled: false, extraProperties: storageProperties(options) }, { storageOptions: options })
  await db.createTable('plain', rows(40), [], { storageOptions: options })
  db.close()
  const before = await blobsUnder(azurite, root)

  const { url } = await harnessCli(root, options)
  await page.goto(url)
  const grid = await openTable(page, [], 'plain')
  await expect(grid).toHaveAttribute('aria-rowcount', '41')
  await grid.focus()
  await page.keyboard.press('Control+End')
  await expect(gridCell(grid, 39, 1)).toHaveText('event 39')

  const after = await blobsUnder(azurite, root)
  expect(after).toEqual(before)
  expect(after.some((b) => b.includes('__manifest'))).toBe(false)
})

test('a wrong account key is reported in words, and the key is never printed', async ({ page }) => {
  const root = await azurite.freshRoot('catalog')
  const wrongKey = Buffer.alloc(64, 9).toString('base64')
  const { url, stderr } = await harnessCli(root, { ...azurite.storageOptions, azure_storage_account_key: wrongKey })
  expect(stderr()).toMatch(/refused the credentials/)
  expect(stderr()).not.toContain(wrongKey)
  await page.goto(url)
  await expect(page.getByText('The start catalog could not be opened')).toBeVisible()
  await expect(page.getByText(/refused the credentials/)).toBeVisible()
  expect(await page.content()).not.toContain(wrongKey)
  expect(await blobsUnder(azurite, root)).toEqual([])
})
