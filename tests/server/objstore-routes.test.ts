/**
 * Our server on an az:// catalog (Azurite), route by route where object storage differs from a local root:
 * locations, vended storage options, declare without writing, what answers "unsupported" (and why), a table left
 * declared by a killed writer, and the command line (flags, usage, secrets never printed).
 */
import { spawn } from 'node:child_process'
import * as arrow from 'apache-arrow'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server'
import { AZURITE_KEY, NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { arrowStream, KEY, sampleTable, tempDir } from './support'
import { credentialFreeEnv, deleteBlobs, REPO, spawnStoreServer } from './objstore-support'
import { serverCli } from '../helpers/bundle'

Object.assign(process.env, NO_CLOUD_ENV)

let az: Azurite
beforeAll(async () => {
  az = await startAzurite()
})
afterAll(async () => az?.stop())

const call = async (url: string, path: string, body: string | Uint8Array = '{}', type = 'application/json') => {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': type }, body })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const list = async (url: string, path: string) => ((await (await fetch(`${url}${path}`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }).tables
const ARROW = 'application/vnd.apache.arrow.stream'

describe('routes on an az:// catalog', () => {
  let server: RunningServer
  let root: string
  beforeAll(async () => {
    root = await az.freshRoot('routes')
    server = await startServer({ root, storageOptions: az.storageOptions, vendStorageOptions: true, apiKeys: [KEY] })
    expect((await call(server.url, '/v1/namespace/sales/create')).status).toBe(200)
  })
  afterAll(async () => server?.close())

  it('describe answers the object-store location and the vended storage options', async () => {
    expect((await call(server.url, '/v1/table/orders/create', Buffer.from(arrowStream()), ARROW)).status).toBe(200)
    expect((await call(server.url, '/v1/table/sales%24q1/create', Buffer.from(arrowStream()), ARROW)).status).toBe(200)
    const root1 = await call(server.url, '/v1/table/orders/describe?load_detailed_metadata=true')
    expect(root1.body).toMatchObject({ location: `${root}/orders.lance`, storage_options: az.storageOptions, num_rows: 3, version: 1 })
    const child = await call(server.url, '/v1/table/sales%24q1/describe?with_table_uri=true')
    expect(child.body.location).toMatch(new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/[0-9a-f]{8}_sales\\$q1$`))
    expect(child.body.table_uri).toBe(child.body.location)
  })

  it('reads: query (filter, order), count_rows, explain and analyze plans', async () => {
    const query = await fetch(`${server.url}/v1/table/orders/query`, {
      method: 'POST',
      headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ k: 10, vector: {}, filter: 'id >= 2', order_by: [{ column_name: 'id', ascending: false }] }),
    })
    expect(query.status).toBe(200)
    const page = arrow.tableFromIPC(new Uint8Array(await query.arrayBuffer()))
    expect(page.getChild('id')!.toArray()).toEqual(BigInt64Array.from([3n, 2n]))
    expect((await call(server.url, '/v1/table/orders/count_rows', JSON.stringify({ predicate: 'id >= 2' }))).body as unknown).toBe(2)
    const explained = await call(server.url, '/v1/table/orders/explain_plan', JSON.stringify({ query: { k: 10, vector: {}, filter: 'id >= 2' } }))
    expect(explained.body as unknown).toEqual(expect.stringContaining('LanceRead'))
    const analyzed = await call(server.url, '/v1/table/orders/analyze_plan', JSON.stringify({ k: 10, vector: {}, filter: 'id >= 2' }))
    expect(analyzed.body as unknown).toEqual(expect.stringContaining('output_rows'))
  })

  it('declare of a root table hands out {root}/{name}.lance and writes only its .lance-reserved; a taken name is 409', async () => {
    const declared = await call(server.url, '/v1/table/fresh/declare')
    expect(declared).toEqual({ status: 200, body: { location: `${root}/fresh.lance`, storage_options: az.storageOptions } })
    // Declared only: listed, described as such, and a second declare of the name loses.
    expect(await list(server.url, '/v1/namespace/%24/table/list')).toContain('fresh')
    expect((await call(server.url, '/v1/table/fresh/describe')).body).toMatchObject({ is_only_declared: true })
    expect((await call(server.url, '/v1/table/fresh/declare')).body.code).toBe(5)
    const dropped = await call(server.url, '/v1/table/fresh/drop')
    expect(dropped.status, JSON.stringify(dropped.body)).toBe(200)
    expect(await list(server.url, '/v1/namespace/%24/table/list')).not.toContain('fresh')
    expect((await call(server.url, '/v1/table/orders/declare')).body.code).toBe(5)
    expect((await call(server.url, '/v1/table/sales/declare')).body.code).toBe(2) // a namespace holds the name
  })

  it('answers "unsupported" (code 0) with the reason for what lancedb 0.31 cannot do on object storage', async () => {
    const declare = await call(server.url, '/v1/table/sales%24later/declare')
    expect(declare.body).toMatchObject({ code: 0, error: expect.stringMatching(/child namespace is not supported on object storage.*__manifest/) })
    const rename = await call(server.url, '/v1/table/orders/rename', JSON.stringify({ new_table_name: 'renamed' }))
    expect(rename.body).toMatchObject({ code: 0, error: expect.stringMatching(/Renaming tables is not supported on object storage/) })
    const register = await call(server.url, '/v1/table/reg/register', JSON.stringify({ location: 'orders.lance' }))
    expect(register.body).toMatchObject({ code: 0, error: expect.stringMatching(/Registering .* not supported on object storage/) })
    for (const r of [declare, rename, register]) expect(r.status).toBeLessThan(500)
    // Nothing changed.
    expect((await list(server.url, '/v1/namespace/%24/table/list')).sort()).toEqual(['orders'])
    expect(await list(server.url, '/v1/namespace/sales/table/list')).toEqual(['q1'])
  })

  it('one-commit writes work: append, update, merge-insert, delete rows, add a column, tag, restore, drop', async () => {
    expect((await call(server.url, '/v1/table/orders/insert', Buffer.from(arrowStream(sampleTable(2))), ARROW)).status).toBe(200)
    expect((await call(server.url, '/v1/table/orders/update', JSON.stringify({ updates: [['label', "'changed'"]], predicate: 'id = 2' }))).body).toMatchObject({ updated_rows: 2 })
    const merged = await call(server.url, '/v1/table/orders/merge_insert?on=id&when_matched_update_all=true&when_not_matched_insert_all=true', Buffer.from(arrowStream(sampleTable(4))), ARROW)
    expect(merged.body).toMatchObject({ num_inserted_rows: 1 })
    expect((await call(server.url, '/v1/table/orders/delete', JSON.stringify({ predicate: 'id = 1' }))).status).toBe(200)
    expect((await call(server.url, '/v1/table/orders/add_columns', JSON.stringify({ new_columns: [{ name: 'twice', expression: 'id * 2' }] }))).status).toBe(200)
    expect((await call(server.url, '/v1/table/orders/tags/create', JSON.stringify({ tag: 'v1', version: 1 }))).status).toBe(200)
    expect((await call(server.url, '/v1/table/orders/restore', JSON.stringify({ version: 1 }))).status).toBe(200)
    expect((await call(server.url, '/v1/table/orders/describe?load_detailed_metadata=true')).body).toMatchObject({ num_rows: 3 })
    expect((await call(server.url, '/v1/table/orders/drop')).status).toBe(200)
    expect(await list(server.url, '/v1/namespace/%24/table/list')).toEqual([])
  })

  it('a table whose writer died before its first commit is "only declared", and drop removes it', async () => {
    expect((await call(server.url, '/v1/table/sales%24ghost/create', Buffer.from(arrowStream()), ARROW)).status).toBe(200)
    const location = String((await call(server.url, '/v1/table/sales%24ghost/describe')).body.location)
    const container = new URL(root).host
    expect(await deleteBlobs(az.endpoint, container, `${location.slice(`az://${container}/`.length)}/_versions/`)).toBeGreaterThan(0)
    expect(await list(server.url, '/v1/namespace/sales/table/list')).toContain('ghost')
    expect((await call(server.url, '/v1/table/sales%24ghost/describe')).body).toMatchObject({ location, is_only_declared: true })
    expect((await call(server.url, '/v1/table/sales%24ghost/drop')).status).toBe(200)
    expect(await list(server.url, '/v1/namespace/sales/table/list')).not.toContain('ghost')
  })
})

describe('databases on object storage', () => {
  it('serves --database name=<uri> catalogs (object-store and file://) side by side, chosen by x-service-database', async () => {
    const { dir, cleanup } = await tempDir('lcb-objstore-file-')
    const server = await startServer({ databases: { cloud: await az.freshRoot('db'), disk: pathToFileURL(dir).href }, storageOptions: az.storageOptions, apiKeys: [KEY] })
    try {
      const create = (db: string) =>
        fetch(`${server.url}/v1/table/t/create`, { method: 'POST', headers: { 'x-api-key': KEY, 'x-service-database': db, 'content-type': ARROW }, body: Buffer.from(arrowStream()) })
      const describe = async (db: string) =>
        (await (await fetch(`${server.url}/v1/table/t/describe`, { method: 'POST', headers: { 'x-api-key': KEY, 'x-service-database': db, 'content-type': 'application/json' }, body: '{}' })).json()) as { location: string }
      expect((await create('cloud')).status).toBe(200)
      expect((await create('disk')).status).toBe(200)
      expect((await describe('cloud')).location).toMatch(/^az:\/\/.+\/db\/t\.lance$/)
      expect((await describe('disk')).location).toBe(join(dir, 't.lance'))
    } finally {
      await server.close()
      await cleanup()
    }
  })
})

describe('npm run serve on an object-store root', () => {
  it('serves with --storage-option flags alone, prints "listening on", and never prints a secret', async () => {
    const root = await az.freshRoot('cli')
    const server = await spawnStoreServer(root, az.storageOptions, ['--log'])
    try {
      const made = await call(server.url, '/v1/table/t/create', Buffer.from(arrowStream()), ARROW)
      expect(made.status).toBe(200)
      const described = await call(server.url, '/v1/table/t/describe')
      expect(described.body.location).toBe(`${root}/t.lance`)
      expect(described.body).not.toHaveProperty('storage_options') // not vended unless asked
      expect(server.output()).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/m)
    } finally {
      expect(await server.stop()).toBe(0)
    }
    expect(server.output()).not.toContain(AZURITE_KEY)
  })

  it("takes the cloud's own environment variables instead of --storage-option", async () => {
    const root = await az.freshRoot('env')
    const server = await spawnStoreServer(root, {}, ['--vend-storage-options'], {
      AZURE_STORAGE_ACCOUNT_NAME: az.storageOptions.azure_storage_account_name,
      AZURE_STORAGE_ACCOUNT_KEY: AZURITE_KEY,
      AZURE_ENDPOINT: az.endpoint,
      AZURE_ALLOW_HTTP: 'true',
    })
    try {
      expect((await call(server.url, '/v1/namespace/env/create')).status).toBe(200)
      expect((await call(server.url, '/v1/table/env%24t/create', Buffer.from(arrowStream()), ARROW)).status).toBe(200)
      const described = await call(server.url, '/v1/table/env%24t/describe?load_detailed_metadata=true')
      expect(described.body).toMatchObject({ num_rows: 3, location: expect.stringMatching(/^az:\/\/.*_env\$t$/) })
      // Only --storage-option values are ever vended; credentials from the environment stay on the server.
      expect(described.body).not.toHaveProperty('storage_options')
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it('fails in words, without the secret, when the store refuses the credentials or the URI is wrong', async () => {
    const root = await az.freshRoot('bad')
    const wrongKey = Buffer.from('not the emulator key at all, 0123456789').toString('base64')
    const bad = await runCli(['--root', root, '--port', '0', '--api-key', KEY, ...Object.entries({ ...az.storageOptions, azure_storage_account_key: wrongKey }).flatMap(([k, v]) => ['--storage-option', `${k}=${v}`])])
    expect(bad.code).toBe(2)
    expect(bad.output).toMatch(/Could not start: Cannot open the catalog at az:\/\/.*: az:\/\/\S+ refused the credentials/)
    expect(bad.output).not.toContain(wrongKey)
    const badUri = await runCli(['--root', 'az://', '--api-key', KEY])
    expect(badUri).toMatchObject({ code: 2, output: expect.stringMatching(/needs a container name/) })
    const badOption = await runCli(['--root', root, '--port', '0', '--api-key', KEY, '--storage-option', 'novalue'])
    expect(badOption).toMatchObject({ code: 2, output: expect.stringMatching(/--storage-option wants <key>=<value>/) })
    const help = await runCli(['--help'])
    expect(help.output).toMatch(/--storage-option <key>=<value>/)
    expect(help.output).toMatch(/--vend-storage-options/)
  })
})

async function runCli(args: string[]): Promise<{ code: number | null; output: string }> {
  const cli = await serverCli()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: REPO, env: credentialFreeEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString()
      // It should not have started: stop it (the test then fails on the exit code).
      if (/listening on/.test(output)) child.kill('SIGKILL')
    })
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    child.once('exit', (code) => resolve({ code, output }))
  })
}
