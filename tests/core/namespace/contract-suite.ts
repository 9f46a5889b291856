import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf, timestampsMicro } from '../../../src/core/arrow'
import { listAll, type NamespaceClient } from '../../../src/core/namespace/client'

export interface SuiteTarget {
  client: NamespaceClient
  cleanup: () => Promise<void>
}

/** Rows `id` = start…start+n-1, with a label, a score, a timestamp and a 4-d vector. */
function rows(n: number, start = 1): arrow.Table {
  const ids = BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i))
  const vectors = Float32Array.from({ length: n * 4 }, (_, i) => i / 4)
  return tableOf([
    batchOf({
      id: arrow.makeVector(ids),
      label: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `row ${start + i}`), new arrow.Utf8()),
      score: arrow.makeVector(Float64Array.from({ length: n }, (_, i) => (start + i) / 2)),
      at: timestampsMicro(BigInt64Array.from({ length: n }, (_, i) => 1_700_000_000_000_000n + BigInt(i))),
      vector: float32Vectors(vectors, 4),
    }),
  ])
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return (error as AppError).code
  }
  throw new Error('expected the call to fail')
}

/**
 * The one contract suite every NamespaceClient implementation must pass (the `dir` client on a temp
 * directory, the `rest` client against our server). Behaviour only: no implementation details.
 */
export function namespaceClientContract(name: string, makeTarget: () => Promise<SuiteTarget>): void {
  describe(`NamespaceClient contract: ${name}`, () => {
    let target: SuiteTarget
    let client: NamespaceClient
    beforeAll(async () => {
      target = await makeTarget()
      client = target.client
    })
    afterAll(async () => {
      await client?.close()
      await target?.cleanup()
    })

    it('starts empty', async () => {
      expect((await client.listNamespaces([])).items).toEqual([])
      expect((await client.listTables([])).items).toEqual([])
    })

    it('creates, lists, describes and drops namespaces', async () => {
      await client.createNamespace(['sales'], { properties: { owner: 'ana' } })
      await client.createNamespace(['sales', 'eu'])
      expect((await client.listNamespaces([])).items).toEqual(['sales'])
      expect((await client.listNamespaces(['sales'])).items).toEqual(['eu'])
      expect((await client.describeNamespace(['sales'])).properties).toMatchObject({ owner: 'ana' })
      expect(await codeOf(client.createNamespace(['sales']))).toBe('already_exists')
      await client.createNamespace(['sales'], { mode: 'exist_ok' })
      expect(await codeOf(client.describeNamespace(['nope']))).toBe('not_found')
      expect(await codeOf(client.dropNamespace(['sales']))).toBe('not_empty')
      await client.dropNamespace(['sales'], { behavior: 'cascade' })
      expect((await client.listNamespaces([])).items).toEqual([])
    })

    it('refuses invalid names before anything is sent or written', async () => {
      for (const bad of ['..', 'a/b', '', 'x y', 'a$b', 'n'.repeat(10_000)]) {
        expect(await codeOf(client.createNamespace([bad]))).toBe('invalid_input')
        expect(await codeOf(client.describeTable({ namespace: [], name: bad }))).toBe('invalid_input')
      }
      expect((await client.listNamespaces([])).items).toEqual([])
    })

    it('creates a table from Arrow data, describes it and pages through it', async () => {
      await client.createNamespace(['lab'])
      const d = await client.createTable({ namespace: ['lab'], name: 'runs' }, rows(25))
      expect(d.rowCount).toBe(25)
      expect(d.version).toBeGreaterThanOrEqual(1)
      expect(d.fields.map((f) => [f.name, f.type])).toEqual([
        ['id', 'Int64'],
        ['label', 'Utf8'],
        ['score', 'Float64'],
        ['at', expect.stringMatching(/^Timestamp/)],
        ['vector', 'FixedSizeList<Float32>[4]'],
      ])
      expect(d.fields.find((f) => f.name === 'vector')?.vectorDimension).toBe(4)
      expect(d.schema.fields.map((f) => f.name)).toEqual(['id', 'label', 'score', 'at', 'vector'])
      expect((await client.listTables(['lab'])).items).toEqual(['runs'])

      const bytes = await client.readPage({ namespace: ['lab'], name: 'runs' }, { offset: 10, limit: 5 })
      expect(bytes).toBeInstanceOf(Uint8Array)
      const page = arrow.tableFromIPC(bytes)
      expect(page.numRows).toBe(5)
      expect([...page.getChild('id')!].map(Number)).toEqual([11, 12, 13, 14, 15])
      expect(page.getChild('label')!.get(0)).toBe('row 11')
      expect([...(page.getChild('vector')!.get(0) as arrow.Vector)].length).toBe(4)

      const projected = arrow.tableFromIPC(await client.readPage({ namespace: ['lab'], name: 'runs' }, { offset: 0, limit: 3, columns: ['label'] }))
      expect(projected.schema.fields.map((f) => f.name)).toEqual(['label'])
      expect(projected.numRows).toBe(3)

      const past = arrow.tableFromIPC(await client.readPage({ namespace: ['lab'], name: 'runs' }, { offset: 100, limit: 10 }))
      expect(past.numRows).toBe(0)
    })

    it('honours create modes', async () => {
      const id = { namespace: ['lab'], name: 'modes' }
      await client.createTable(id, rows(3))
      expect(await codeOf(client.createTable(id, rows(5)))).toBe('already_exists')
      expect((await client.createTable(id, rows(5), { mode: 'exist_ok' })).rowCount).toBe(3)
      expect((await client.createTable(id, rows(7), { mode: 'overwrite' })).rowCount).toBe(7)
      await client.dropTable(id)
    })

    it('creates an empty table from a schema', async () => {
      const id = { namespace: [], name: 'empty' }
      const d = await client.createEmptyTable(id, rows(1).schema)
      expect(d.rowCount).toBe(0)
      expect(d.fields.map((f) => f.name)).toEqual(['id', 'label', 'score', 'at', 'vector'])
      const page = arrow.tableFromIPC(await client.readPage(id, { offset: 0, limit: 10 }))
      expect(page.numRows).toBe(0)
      await client.dropTable(id)
    })

    it('appends rows and restores an earlier version', async () => {
      const id = { namespace: [], name: 'grow' }
      const first = await client.createTable(id, rows(4))
      const version = await client.appendRows(id, rows(6, 5))
      expect(version).toBeGreaterThan(first.version)
      expect((await client.describeTable(id)).rowCount).toBe(10)
      await client.restoreVersion(id, first.version)
      expect((await client.describeTable(id)).rowCount).toBe(4)
      await client.dropTable(id)
    })

    it('pages table lists with a token and never truncates', async () => {
      await client.createNamespace(['many'])
      const names = ['t1', 't2', 't3', 't4', 't5']
      for (const name of names) await client.createTable({ namespace: ['many'], name }, rows(1))
      const first = await client.listTables(['many'], { limit: 2 })
      expect(first.items).toEqual(['t1', 't2'])
      expect(first.pageToken).toBeTruthy()
      expect(await listAll((o) => client.listTables(['many'], o), { limit: 2 })).toEqual(names)
      await client.dropNamespace(['many'], { behavior: 'cascade' })
    })

    it('drops tables, and reports missing ones as not found', async () => {
      const id = { namespace: ['lab'], name: 'gone' }
      await client.createTable(id, rows(2))
      await client.dropTable(id)
      expect((await client.listTables(['lab'])).items).not.toContain('gone')
      expect(await codeOf(client.describeTable(id))).toBe('not_found')
      expect(await codeOf(client.dropTable(id))).toBe('not_found')
      expect(await codeOf(client.readPage(id, { offset: 0, limit: 1 }))).toBe('not_found')
    })

    it('renames a table, or says clearly that it cannot', async () => {
      const id = { namespace: ['lab'], name: 'before' }
      await client.createTable(id, rows(2))
      try {
        await client.renameTable(id, 'after')
        expect((await client.listTables(['lab'])).items).toContain('after')
      } catch (error) {
        expect(error).toBeInstanceOf(AppError)
        expect((error as AppError).code).toBe('unsupported')
        expect((await client.describeTable(id)).rowCount).toBe(2) // nothing lost
      }
    })

    it('honours an aborted signal', async () => {
      const controller = new AbortController()
      controller.abort()
      await expect(client.listTables([], { signal: controller.signal })).rejects.toThrow()
    })
  })
}
