/**
 * Lifecycle actions on a REST connection whose server lacks routes: Optimize (no route in the contract) is
 * disabled up front with its reason; a server that answers "unsupported" (404, code 0) for index creation
 * fails that build once, in words, and from then on Create index is disabled with the server's reason.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { test as base } from '@playwright/test'
import { startServer, type RunningServer } from '../../src/server'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

const KEY = 'sk-e2e-lifecycle-rest-1234567890'
/** Routes the stand-in server does not have. */
const MISSING = /\/(create_index|create_scalar_index)$/

/** Our server behind a proxy that answers 404 `{code: 0}` for MISSING routes and forwards the rest. */
async function lackingServer(upstream: RunningServer): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream.url)
  const proxy: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0]!
    if (MISSING.test(path)) {
      request.resume()
      response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Index builds are not offered by this server', code: 0 }))
      return
    }
    const forward = fetch(`${target.origin}${request.url}`, {
      method: request.method,
      headers: Object.fromEntries(Object.entries(request.headers).filter(([k, v]) => typeof v === 'string' && k !== 'host' && k !== 'connection' && k !== 'content-length')) as Record<string, string>,
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : (request as unknown as ReadableStream),
      duplex: 'half',
    } as RequestInit)
    forward
      .then(async (r) => {
        response.writeHead(r.status, Object.fromEntries(Array.from(r.headers as unknown as Iterable<[string, string]>).filter(([k]) => k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'content-length')))
        response.end(Buffer.from(await r.arrayBuffer()))
      })
      .catch(() => response.writeHead(502).end())
  })
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => proxy.close(() => resolve())) }
}

const test = base.extend<{ remote: { url: string }; bare: Harness }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  remote: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-lifecycle-rest-')
    const root = join(dir, 'served')
    await buildCatalog(root, { namespaces: [], tables: [{ namespace: [], name: 'events', rows: 50 }] })
    const server = await startServer({ root, apiKeys: [KEY] })
    const proxy = await lackingServer(server)
    await use(proxy)
    await proxy.close()
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

test('on a server without a lifecycle route the action is disabled with its reason; Optimize is disabled on REST', async ({ page, remote, bare }) => {
  await openApp(page, bare)
  await page.getByRole('button', { name: 'Connect to server…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to server' })
  await dialog.getByLabel('Name', { exact: true }).fill('Lacking')
  await dialog.getByLabel('Endpoint URL').fill(remote.url)
  await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY)
  await dialog.getByRole('button', { name: 'Save & connect' }).click()
  await expect(dialog).toBeHidden()
  await expect(treeItem(page, 'events')).toBeVisible()
  // Writes on (the switch is remembered per saved connection), so only what the server lacks stays disabled.
  const readOnly = page.getByRole('switch', { name: 'Read-only' })
  if ((await readOnly.getAttribute('aria-checked')) === 'true') await readOnly.click()
  await expect(readOnly).toHaveAttribute('aria-checked', 'false')
  await treeItem(page, 'events').click()

  // Optimize: the contract has no route, so it is disabled before any click, with the reason.
  await page.getByRole('button', { name: 'Stats' }).click()
  const stats = page.getByRole('complementary', { name: 'Stats' })
  await expect(stats.getByRole('button', { name: 'Optimize…' })).toBeDisabled()
  await expect(stats.getByRole('note')).toContainText('This server does not support optimizing tables')
  await screenshot(page, 'lifecycle-rest-optimize-disabled')

  // Index creation: the server answers "unsupported"; the build fails in words, then Create index is disabled.
  await page.getByRole('button', { name: 'Indexes' }).click()
  const indexes = page.getByRole('complementary', { name: 'Indexes' })
  const create = indexes.getByRole('button', { name: 'Create index' })
  await expect(create).toBeEnabled()
  await create.click()
  await expect(indexes).toContainText('Could not build the index')
  await expect(create).toBeDisabled()
  await expect(indexes.getByRole('note')).toContainText('This server does not support creating indexes (Index builds are not offered by this server)')
  await screenshot(page, 'lifecycle-rest-index-disabled')
})
