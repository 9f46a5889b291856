import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { startServer, type RunningServer } from '../../src/server'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { arrowStream, KEY } from './support'
import { credentialFreeEnv, runScript } from './objstore-support'

Object.assign(process.env, NO_CLOUD_ENV)

let az: Azurite
let server: RunningServer
beforeAll(async () => {
  az = await startAzurite()
  server = await startServer({ root: await az.freshRoot('catalog'), storageOptions: az.storageOptions, vendStorageOptions: true, apiKeys: [KEY] })
})
afterAll(async () => {
  await server?.close()
  await az?.stop()
})

const post = (url: string, path: string, body: string | Uint8Array, type = 'application/json') =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': type }, body })

/**
 * lancedb's own REST client in another process whose environment has no storage credentials: the catalog exists
 * only in the emulator, so it reaches the data only through the location and `storage_options` our server answers.
 */
it('a remote lancedb client creates, writes, indexes, reads, searches, overwrites and drops through our locations', async () => {
  // A child-namespace table, made through our server (lancedb's client cannot declare one there: see below).
  expect((await post(server.url, '/v1/namespace/team/create', '{}')).status).toBe(200)
  expect((await post(server.url, '/v1/namespace/team%24inner/create', '{}')).status).toBe(200)
  const made = await post(server.url, '/v1/table/team%24inner%24made/create', Buffer.from(arrowStream(vectorRows(0, 10))), 'application/vnd.apache.arrow.stream')
  expect(made.status, await made.clone().text()).toBe(200)
  const described = (await (await post(server.url, '/v1/table/team%24inner%24made/describe', '{}')).json()) as { location: string; storage_options: Record<string, string> }
  expect(described.location).toMatch(/^az:\/\/.+\/catalog\/[0-9a-f]{8}_team\$inner\$made$/)
  expect(described.storage_options).toEqual(az.storageOptions)

  const out = JSON.parse(await runScript('tests/server/objstore-remote-client.ts', [server.url, KEY], credentialFreeEnv())) as Record<string, unknown>
  expect(out).toMatchObject({
    createNamespace: 'ok',
    listNamespaces: ['inner'],
    createTable: 100,
    createDuplicate: { error: expect.stringMatching(/already exists/) },
    append: 150,
    read: [140, 141, 142, 143, 144, 145, 146, 147, 148, 149],
    index: ['id_idx'],
    emptyTable: 0,
    overwrite: 4,
    dropBlank: 'ok',
    tableNames: ['events'],
    readChild: 10,
    searchChild: [3],
    appendChild: 12,
    dropTable: [],
    dropChild: [],
    dropNamespace: [],
  })
  expect((out.search as number[])[0]).toBe(42)
  // Unsupported on object storage, with the reason (a __manifest row cannot be written there with lancedb 0.31.0).
  expect(out.createInChild).toEqual({ error: expect.stringMatching(/Declaring a table in a child namespace is not supported on object storage/) })
  // The server's own view agrees: nothing is left.
  const names = (await (await fetch(`${server.url}/v1/namespace/%24/table/list`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }
  expect(names.tables).toEqual([])
})

it('without --vend-storage-options the remote client has no way to reach the data', async () => {
  const closed = await startServer({ root: await az.freshRoot('closed'), storageOptions: az.storageOptions, apiKeys: [KEY] })
  try {
    const declared = (await (await post(closed.url, '/v1/table/x/declare', '{}')).json()) as Record<string, unknown>
    expect(declared.location).toMatch(/^az:\/\/.+\/closed\/x\.lance$/)
    expect(declared).not.toHaveProperty('storage_options')
    const out = JSON.parse(await runScript('tests/server/objstore-remote-client.ts', [closed.url, KEY, 'create-only'], credentialFreeEnv())) as Record<string, unknown>
    expect(out.createTable).toEqual({ error: expect.stringMatching(/Azure|account|credential/i) })
  } finally {
    await closed.close()
  }
})

function vectorRows(start: number, n: number): arrow.Table {
  return tableOf([
    batchOf({
      id: arrow.makeVector(Float64Array.from({ length: n }, (_, i) => start + i)),
      label: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `row ${start + i}`), new arrow.Utf8()),
      vector: float32Vectors(Float32Array.from({ length: n * 4 }, (_, i) => (i % 4 === 0 ? start + i / 4 : i % 4 === 1 ? 1 : 0)), 4),
    }),
  ])
}
