import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCatalog, makeTempDir, removeDir } from '../helpers/catalog'
import { answer, openDirectly, repo } from './fixture'

const tsx = join(repo, 'node_modules/tsx/dist/cli.mjs')
const KEY = 'a-test-key-of-enough-length'

/** `npm run mcp -- … --http`: resolves with its URL (the one stdout line), or rejects with its stderr when it exits. */
function startHttp(args: string[]): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [tsx, join(repo, 'src/mcp/cli.ts'), ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  let err = ''
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const match = /^mcp: (\S+)$/m.exec(out)
      if (match) resolve(match[1]!)
    })
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)))
  })
  return { child, url }
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'lcb-test', version: '1.0.0' })
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }))
  return client
}

/** A raw POST with the given headers: the status the server answers. */
function post(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }))
  })
}

describe('MCP server over streamable HTTP', () => {
  let root: string
  let server: ReturnType<typeof startHttp>
  let url: string

  beforeAll(async () => {
    root = await makeTempDir('lcb-mcp-http-')
    await buildCatalog(root, { tables: [{ namespace: [], name: 'things', rows: 50 }] })
    server = startHttp(['--root', root, '--http', '--port', '0', '--api-key', KEY])
    url = await server.url
  }, 120_000)
  afterAll(async () => {
    server?.child.kill('SIGTERM')
    await removeDir(root)
  })

  it('serves the tools on 127.0.0.1 to a client that sends the key', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
    const client = await connect(url, { authorization: `Bearer ${KEY}` })
    try {
      expect((await answer(client, 'list_tables', {})).tables).toEqual(['things'])
      const things = await openDirectly(root, 'things')
      expect((await answer(client, 'count_rows', { table: 'things', filter: 'id < 7' })).count).toBe(await things.countRows('id < 7'))
      const { tools } = await client.listTools()
      expect(tools.some((t) => t.name === 'add_rows')).toBe(false)
    } finally {
      await client.close()
    }
  })

  it('refuses every request without the right key, from a foreign host, or from a web page', async () => {
    expect(await post(url, {})).toBe(401)
    expect(await post(url, { authorization: 'Bearer wrong-key-of-enough-length' })).toBe(401)
    expect(await post(url, { 'x-api-key': KEY.slice(0, -1) })).toBe(401)
    expect(await post(url, { 'x-api-key': KEY })).toBe(200)
    expect(await post(url, { authorization: `Bearer ${KEY}`, host: 'evil.example' })).toBe(403)
    expect(await post(url, { authorization: `Bearer ${KEY}`, origin: 'https://evil.example' })).toBe(403)
    await expect(connect(url, {})).rejects.toThrow()
  })

  it('will not start without a key, or with a short one', async () => {
    await expect(startHttp(['--root', root, '--http']).url).rejects.toThrow(/--api-key/)
    await expect(startHttp(['--root', root, '--http', '--api-key', 'short']).url).rejects.toThrow(/at least 16 characters/)
  })
})
