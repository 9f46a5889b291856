import { join, resolve } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { makeVector, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, tableOf } from '../../src/core/arrow'
import { buildCatalog, makeTempDir } from '../helpers/catalog'

export const repo = resolve(__dirname, '../..')
const tsx = join(repo, 'node_modules/tsx/dist/cli.mjs')

/**
 * A small catalog: `things` (300 rows: id, label, score, note, an 8-d vector) with an FTS index on `label` and a
 * vector index on `vector`, `plain` (the same rows, no index), `long` (2 rows whose `text` is 5,000 characters) and
 * `ns.inner` (10 rows).
 */
export async function fixtureCatalog(): Promise<string> {
  const root = await makeTempDir('lcb-mcp-')
  await buildCatalog(root, {
    namespaces: [['ns']],
    tables: [
      { namespace: [], name: 'things', rows: 300 },
      { namespace: [], name: 'plain', rows: 300 },
      { namespace: ['ns'], name: 'inner', rows: 10 },
      {
        namespace: [],
        name: 'long',
        data: tableOf([batchOf({ id: makeVector(BigInt64Array.from([1n, 2n])), text: vectorFromArray(['a'.repeat(5_000), 'b'.repeat(5_000)], new Utf8()) })]),
      },
    ],
  })
  const table = await openDirectly(root, 'things')
  await table.createIndex('label', { config: lancedb.Index.fts() })
  await table.createIndex('vector', { config: lancedb.Index.ivfFlat({ numPartitions: 2, distanceType: 'l2' }) })
  return root
}

/** The table through lancedb itself, not through our core: the answers are checked against it. */
export async function openDirectly(root: string, name: string, namespace: string[] = []): Promise<lancedb.Table> {
  const db = await lancedb.connectNamespace('dir', { root })
  return db.openTable(name, namespace)
}

/** The SDK's own client, connected over stdio to `npm run mcp` (tsx src/mcp/cli.ts) with `args`. */
export async function stdioClient(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [tsx, join(repo, 'src/mcp/cli.ts'), ...args],
    cwd: repo,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  })
  const client = new Client({ name: 'lcb-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

/** A tool's JSON answer, read by the tests field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

/** A tool's answer: its JSON when it succeeded, its words when it failed. */
export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<{ ok: true; value: Json } | { ok: false; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
  return result.isError ? { ok: false, text } : { ok: true, value: JSON.parse(text) }
}

/** The answer of a call that must succeed. */
export async function answer(client: Client, name: string, args: Record<string, unknown>): Promise<Json> {
  const result = await callTool(client, name, args)
  if (!result.ok) throw new Error(`${name} failed: ${result.text}`)
  return result.value
}
