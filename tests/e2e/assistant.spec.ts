import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { Page } from '@playwright/test'
import { startServer } from '../../src/server'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, removeDir, screenshot, test, treeItem } from '../helpers/e2e'

/**
 * **Connect an assistant…**: the dialog shows, for the open catalog, the snippet of each assistant; Copy puts it on
 * the clipboard; and the copied configuration, run as the assistant would run it, starts an MCP server that answers.
 */

const KEY = 'sk-assistant-7c1e9b0d4a2f6e8c3b5d'

type StdioConfig = { command: string; args: string[]; env?: Record<string, string> }

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

/** Start the server a snippet names, as the assistant would, and ask it for the catalog's tables. */
async function tablesThrough(config: StdioConfig, env: Record<string, string> = {}): Promise<string[]> {
  const transport = new StdioClientTransport({ command: config.command, args: config.args, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'pipe' })
  const client = new Client({ name: 'lcb-e2e', version: '1.0.0' })
  await client.connect(transport)
  try {
    const result = (await client.callTool({ name: 'list_tables', arguments: {} })) as CallToolResult
    const text = (result.content[0] as { text: string }).text
    expect(result.isError, text).toBeFalsy()
    return (JSON.parse(text) as { tables: string[] }).tables
  } finally {
    await client.close()
  }
}

test('Connect an assistant… for a directory: read-only snippets, Copy, and the copied config starts a server that answers', async ({ app, harness, demoRoot }) => {
  test.setTimeout(180_000)
  await app.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.origin })
  await treeItem(app, 'demo-catalog').click()
  await app.getByRole('button', { name: 'Connect an assistant…' }).click()
  const dialog = app.getByRole('dialog', { name: 'Connect an assistant to demo-catalog' })
  await expect(dialog).toBeVisible()
  for (const title of ['Claude Desktop', 'Cursor', 'VS Code']) await expect(dialog.getByRole('region', { name: title })).toBeVisible()
  await screenshot(app, 'assistant-dialog')

  await dialog.getByRole('button', { name: 'Copy the Claude Desktop snippet' }).click()
  await expect(dialog.getByRole('button', { name: 'Copy the Claude Desktop snippet' })).toHaveText('Copied')
  const claude = JSON.parse(await clipboard(app)) as { mcpServers: Record<string, StdioConfig> }
  const server = claude.mcpServers['lance-demo-catalog']!
  expect(server.args).toEqual(expect.arrayContaining(['run', '--silent', 'mcp', '--', '--root', demoRoot]))
  expect(server.args).not.toContain('--allow-writes')
  expect((await tablesThrough(server)).length).toBeGreaterThan(0)

  await dialog.getByRole('checkbox', { name: /Allow writes/ }).check()
  await dialog.getByRole('button', { name: 'Copy the VS Code snippet' }).click()
  await expect.poll(async () => (JSON.parse(await clipboard(app)) as { servers: Record<string, StdioConfig & { type: string }> }).servers['lance-demo-catalog']?.args).toContain('--allow-writes')
  await dialog.getByRole('button', { name: 'Close' }).click()
  await expect(dialog).toHaveCount(0)
})

test('Connect an assistant… for a REST catalog with a key: the key is referenced, never in a snippet', async ({ app, harness }) => {
  test.setTimeout(180_000)
  const dir = await makeTempDir('lcb-e2e-assistant-')
  const served = await buildCatalog(dir, { namespaces: [['team']], tables: [{ namespace: [], name: 'scores', rows: 5 }] })
  const server = await startServer({ root: served, apiKeys: [KEY], log: () => undefined })
  try {
    const connected = await harness.service.dispatch('connections/saved/connect', {
      kind: 'rest',
      draft: { name: 'Team server', endpoint: server.url, auth: { kind: 'api-key', secret: KEY }, headers: [] },
    })
    expect(connected.ok).toBe(true)
    await app.reload()
    await treeItem(app, 'Team server').click()
    await app.getByRole('button', { name: 'Connect an assistant…' }).click()
    const dialog = app.getByRole('dialog', { name: 'Connect an assistant to Team server' })
    await expect(dialog.getByRole('region', { name: 'VS Code' })).toBeVisible()
    await expect(dialog).not.toContainText(KEY)
    await expect(dialog.getByRole('note').filter({ hasText: 'No key is written' })).toContainText('LCB_REST_X_API_KEY')
    await screenshot(app, 'assistant-dialog-rest')
    const vscode = JSON.parse((await dialog.getByTestId('snippet-vscode').textContent())!) as {
      inputs: { id: string; password: boolean }[]
      servers: Record<string, StdioConfig>
    }
    const config = vscode.servers['lance-team-server']!
    expect(config.args).toEqual(expect.arrayContaining(['--rest', server.url, '--header-env', 'x-api-key=LCB_REST_X_API_KEY']))
    expect(config.env).toEqual({ LCB_REST_X_API_KEY: '${input:lcb_rest_x_api_key}' })
    expect(vscode.inputs).toEqual([expect.objectContaining({ id: 'lcb_rest_x_api_key', password: true })])
    // The assistant fills the variable (VS Code from its prompt); the server then reads the catalog with the key.
    expect(await tablesThrough(config, { LCB_REST_X_API_KEY: KEY })).toEqual(['scores'])
  } finally {
    await server.close()
    await removeDir(dir)
  }
})
