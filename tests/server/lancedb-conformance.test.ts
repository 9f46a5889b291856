import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RestNamespaceClient } from '../../src/core/namespace/rest'
import { KEY, sampleTable, serveTemp } from './support'

/**
 * Conformance from the outside: the REST namespace client inside @lancedb/lancedb — an independent
 * implementation of the contract — pointed at our server. It declares tables and writes the Lance data
 * itself at the `location` we return, so this also proves describe/declare locations are right.
 */
describe('@lancedb/lancedb connectNamespace("rest") against our server', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  let db: lancedb.Connection

  beforeAll(async () => {
    server = await serveTemp()
    db = await lancedb.connectNamespace('rest', { uri: server.url, headers: { 'x-api-key': KEY } })
  })
  afterAll(async () => {
    db?.close()
    await server?.close()
  })

  it('creates, lists, describes and drops namespaces', async () => {
    await db.createNamespace(['sales'])
    await db.createNamespace(['sales', 'eu'], { properties: { owner: 'ana' } })
    expect((await db.listNamespaces()).namespaces).toEqual(['sales'])
    expect((await db.listNamespaces(['sales'])).namespaces).toEqual(['eu'])
    expect((await db.describeNamespace(['sales', 'eu'])).properties).toMatchObject({ owner: 'ana' })
    await expect(db.createNamespace(['sales'])).rejects.toThrow(/exist/i)
    await db.dropNamespace(['sales', 'eu'])
    expect((await db.listNamespaces(['sales'])).namespaces).toEqual([])
    await expect(db.describeNamespace(['sales', 'eu'])).rejects.toThrow(/not found|not exist/i)
  })

  it('creates a root table from rows, lists it, reads the rows back, and drops it', async () => {
    const rows = [
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
      { id: 3, name: 'c' },
    ]
    await db.createTable('people', rows)
    expect(await db.tableNames()).toContain('people')
    const table = await db.openTable('people')
    expect(await table.countRows()).toBe(3)
    const back = (await table.query().toArray()).map((r) => ({ id: Number(r.id), name: r.name }))
    expect(back.sort((x, y) => x.id - y.id)).toEqual(rows)
    await expect(db.createTable('people', rows)).rejects.toThrow(/already exists/i)
    await db.dropTable('people')
    expect(await db.tableNames()).not.toContain('people')
    await expect(db.openTable('people')).rejects.toThrow(/not found/i)
  })

  it('creates a table inside a namespace (declared in the __manifest), reads it, and drops it', async () => {
    await db.createNamespace(['lab'])
    await db.createTable('runs', [{ run: 1, score: 0.5 }, { run: 2, score: 0.75 }], ['lab'])
    expect(await db.tableNames(['lab'])).toEqual(['runs'])
    const table = await db.openTable('runs', ['lab'])
    const back = (await table.query().toArray()).map((r) => Number(r.run)).sort()
    expect(back).toEqual([1, 2])
    await db.dropTable('runs', ['lab'])
    expect(await db.tableNames(['lab'])).toEqual([])
    await db.dropNamespace(['lab'])
  })

  it('sees the same tables as our own REST client, both ways', async () => {
    const ours = new RestNamespaceClient({ uri: server.url, headers: { 'x-api-key': KEY } })
    try {
      await db.createNamespace(['shared'])
      await db.createTable('from_lancedb', [{ n: 1 }, { n: 2 }], ['shared'])
      const d = await ours.describeTable({ namespace: ['shared'], name: 'from_lancedb' })
      expect([d.rowCount, d.fields.map((f) => f.name)]).toEqual([2, ['n']])
      await ours.createTable({ namespace: ['shared'], name: 'from_ours' }, sampleTable(4))
      const opened = await db.openTable('from_ours', ['shared'])
      expect(await opened.countRows()).toBe(4)
      // lancedb writes straight to the dataset; our server must not serve a stale description afterwards.
      await opened.add(sampleTable(3))
      expect((await ours.describeTable({ namespace: ['shared'], name: 'from_ours' })).rowCount).toBe(7)
      const lanceSide = await db.openTable('from_lancedb', ['shared'])
      await lanceSide.add([{ n: 3 }])
      expect((await ours.describeTable({ namespace: ['shared'], name: 'from_lancedb' })).rowCount).toBe(3)
      expect((await db.tableNames(['shared'])).sort()).toEqual(['from_lancedb', 'from_ours'])
      await db.dropNamespace(['shared'], { behavior: 'cascade' }).catch(async () => {
        // lancedb 0.31 may refuse cascade; empty it through our client instead.
        await ours.dropNamespace(['shared'], { behavior: 'cascade' })
      })
      expect((await ours.listNamespaces([])).items).not.toContain('shared')
    } finally {
      await ours.close()
    }
  })

  it('is refused without the right key', async () => {
    const wrong = await lancedb.connectNamespace('rest', { uri: server.url, headers: { 'x-api-key': 'wrong-key' } })
    await expect(wrong.tableNames()).rejects.toThrow(/(unauthenticated|API key|invalid)/i)
    wrong.close()
  })
})
