import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectNamespace } from '../../../../src/core/namespace/connect'
import { RestNamespaceClient, verifyConnection } from '../../../../src/core/namespace/rest'
import { KEY, sampleTable, serveTemp } from '../../../server/support'

describe('verifyConnection ("Test connection") against our server', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  beforeAll(async () => {
    server = await serveTemp()
  })
  afterAll(async () => {
    await server?.close()
  })

  const connect = async (key: string) => (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': key })) as RestNamespaceClient

  it('without write: lists the tables and writes nothing', async () => {
    const client = await connect(KEY)
    const report = await verifyConnection(client, { write: false })
    expect(report).toMatchObject({ ok: true, tables: [], wrote: false })
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([
      ['list', true],
      ['walk', true],
    ])
    expect(report.capabilities['table.listAll'].supported).toBe(true)
    expect((await client.listTables([])).items).toEqual([])
  })

  it('with write: creates a small table, lists it, and drops it again', async () => {
    const client = await connect(KEY)
    const report = await verifyConnection(client, { write: true, tableName: 'verify_me' })
    expect(report.ok).toBe(true)
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([
      ['list', true],
      ['walk', true],
      ['create', true],
      ['list-again', true],
      ['drop', true],
    ])
    expect(report.steps[3]!.message).toMatch(/verify_me is listed/)
    expect((await client.listTables([])).items).toEqual([])
  })

  it('with a wrong key: reports the rejection in words and leaks no key', async () => {
    const client = await connect('wrong-key-42424242')
    const report = await verifyConnection(client, { write: true })
    expect(report.ok).toBe(false)
    expect(report.error).toMatchObject({ code: 'unauthenticated' })
    expect(report.error!.message).toMatch(/rejected the API key/)
    expect(report.steps).toHaveLength(1)
    expect(JSON.stringify(report)).not.toContain('wrong-key-42424242')
    expect(JSON.stringify(report)).not.toContain(KEY)
  })
})

describe('"Test connection" on a catalog whose tables live in namespaces', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  beforeAll(async () => {
    server = await serveTemp()
    // Built through the server, as a user of the catalog would: one root table, 3 top namespaces,
    // 12 more namespaces below them, 2 tables in each of the 15 namespaces.
    const client = (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })) as RestNamespaceClient
    const rows = sampleTable(2)
    await client.createTable({ namespace: [], name: 'at_root' }, rows)
    for (const top of ['alpha', 'beta', 'gamma']) {
      await client.createNamespace([top])
      for (const child of ['a', 'b', 'c', 'd']) await client.createNamespace([top, child])
      for (const ns of [[top], ...['a', 'b', 'c', 'd'].map((child) => [top, child])]) {
        for (const name of ['t1', 't2']) await client.createTable({ namespace: ns, name }, rows)
      }
    }
    await client.close()
  }, 180_000)
  afterAll(async () => {
    await server?.close()
  })

  const connect = async () => (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })) as RestNamespaceClient

  it('reports the root tables, the namespaces and the tables found by walking them', async () => {
    const client = await connect()
    const report = await verifyConnection(client, { write: false })
    await client.close()
    expect(report.ok).toBe(true)
    expect(report.tables).toEqual(['at_root'])
    expect(report.inventory).toEqual({
      rootTables: 1,
      rootNamespaces: 3,
      namespacesFound: 15,
      namespacesWalked: 15,
      tablesInNamespaces: 30,
      complete: true,
      limit: 50,
    })
    expect(report.steps[0]!.message).toBe('Connected: GET /v1/tables lists 1 table at the root')
    expect(report.steps[1]!.message).toBe('Counted 30 tables in 15 namespaces (3 at the top level; every namespace)')
  })

  it('stops at the namespace bound and says there are more', async () => {
    const client = await connect()
    const report = await verifyConnection(client, { write: false, namespaceLimit: 5 })
    await client.close()
    expect(report.ok).toBe(true)
    expect(report.inventory).toMatchObject({ rootNamespaces: 3, namespacesWalked: 5, tablesInNamespaces: 10, complete: false, limit: 5 })
    expect(report.inventory!.namespacesFound).toBeGreaterThan(5)
    expect(report.steps[1]!.message).toBe('Counted 10 tables in 5 namespaces (3 at the top level; stopped at 5, more remain)')
  })
})
