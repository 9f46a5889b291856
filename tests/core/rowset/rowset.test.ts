import { join } from 'node:path'
import { Float64, Int32, tableFromIPC, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ROW_SET_ROWS, type ConnectionInfo, type Result, type RowSetInfo } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf } from '../../../src/core/arrow'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/rest'
import { RowSetModule } from '../../../src/core/rowset'
import { KEY, serveTemp } from '../../server/support'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

/** `rows`: 20,000 rows, `id` = the row's offset, `mod` = id % 10, a 4-d vector (id, 0, 0, 0). */
const N = 20_000

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function rowsTable() {
  const values = new Float32Array(N * 4)
  for (let i = 0; i < N; i++) values[i * 4] = i
  return tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: N }, (_, i) => i), new Int32()),
      mod: vectorFromArray(Array.from({ length: N }, (_, i) => i % 10), new Float64()),
      vec: { vector: float32Vectors(values, 4), nullable: false },
    }),
  ])
}

describe('row sets (the lasso of any size: core, a real Lance table)', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  const ref = (name = 'rows') => ({ connectionId: connection.id, namespace: [] as string[], name })
  const ids = (bytes: Uint8Array) => Array.from(tableFromIPC(bytes).getChild('id')?.toArray() ?? [], Number)
  // Every third row from 1: 6,667 offsets, more than one filter can name (the lasso's old limit was ~2,000).
  const chosen = Array.from({ length: Math.ceil((N - 1) / 3) }, (_, i) => 1 + i * 3)

  beforeAll(async () => {
    base = await makeTempDir('lcb-rowset-')
    const root = await buildCatalog(join(base, 'catalog'), {
      tables: [
        { namespace: [], name: 'rows', data: rowsTable() },
        { namespace: [], name: 'other', data: rowsTable() },
      ],
    })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  it('a view of a row set counts and pages exactly its rows; filter, sort, search and export apply to it', async () => {
    // Duplicates and any order: kept once, in table order.
    const set = value<RowSetInfo>(await service.dispatch('rowsets/create', { ...ref(), version: 1, offsets: [...chosen].reverse().concat(chosen.slice(0, 5)) }))
    expect(set).toMatchObject({ rows: chosen.length, version: 1 })
    const view = { version: 1, rowSet: set.id }
    expect(value<number>(await service.dispatch('tables/count', { ...ref(), view }))).toBe(chosen.length)
    const page = (offset: number, limit: number, v: object = view) => service.dispatch('tables/page', { ...ref(), offset, limit, view: v })
    expect(ids(value(await page(0, 4)))).toEqual([1, 4, 7, 10])
    expect(ids(value(await page(5000, 3)))).toEqual([15001, 15004, 15007])
    expect(ids(value(await page(chosen.length - 1, 10)))).toEqual([chosen.at(-1)])

    // A filter ANDs with the set (a later page too: Lance alone would apply the limit before the row positions).
    const filtered = { ...view, filter: 'mod = 1' }
    expect(value<number>(await service.dispatch('tables/count', { ...ref(), view: filtered }))).toBe(chosen.filter((i) => i % 10 === 1).length)
    expect(ids(value(await page(0, 3, filtered)))).toEqual([1, 31, 61])
    expect(ids(value(await page(600, 2, filtered)))).toEqual([18001, 18031])

    // A sort orders the set's rows, every page of them.
    const sorted = { ...view, sort: [{ column: 'id', direction: 'desc' }] }
    expect(ids(value(await page(0, 2, sorted)))).toEqual([19999, 19996])
    expect(ids(value(await page(6000, 2, sorted)))).toEqual([chosen[chosen.length - 6001], chosen[chosen.length - 6002]])
    // The sorted ids are kept per sort: another order is sorted afresh, with a filter too.
    expect(ids(value(await page(0, 2, { ...view, sort: [{ column: 'id', direction: 'asc' }] })))).toEqual([1, 4])
    expect(ids(value(await page(1, 2, { ...filtered, sort: [{ column: 'id', direction: 'desc' }] })))).toEqual([19951, 19921])

    // A vector search looks among the set's rows only (vector (5,0,0,0): row 5 is not in the set, 4 and 7 are).
    const search = { ...view, search: { kind: 'vector', column: 'vec', vector: [5, 0, 0, 0], metric: 'l2', k: 2 } }
    expect(ids(value(await page(0, 2, search))).sort((a, b) => a - b)).toEqual([4, 7])

    // Export reads the same rows (its scan resolves the set as pages do).
    const rowsRead: number[] = []
    for await (const batch of service.rowSets.readerOf(connection.id, service.client(connection.id)).scan({ namespace: [], name: 'rows' }, filtered)) rowsRead.push(...Array.from(batch.getChild('id')!.toArray() as Int32Array))
    expect(rowsRead).toEqual(chosen.filter((i) => i % 10 === 1))
  })

  it('refuses bad input in words: offsets past the version, a bad list, another table or version, a set no longer kept', async () => {
    const refused = async (method: 'rowsets/create' | 'tables/count', input: object) => {
      const result = await service.dispatch(method, input)
      expect(result.ok).toBe(false)
      return result.ok ? '' : result.error.message
    }
    expect(await refused('rowsets/create', { ...ref(), version: 1, offsets: [0, N] })).toMatch(/Row 20,000 is past the end of version 1, which has 20,000 rows/)
    expect(await refused('rowsets/create', { ...ref(), version: 1, offsets: [] })).toMatch(/at least one row/)
    expect(await refused('rowsets/create', { ...ref(), version: 1, offsets: [1.5] })).toMatch(/offsets/)
    expect(await refused('rowsets/create', { ...ref(), version: 1, offsets: [-1] })).toMatch(/offsets/)
    expect(await refused('rowsets/create', { ...ref(), version: 1, offsets: new Array(MAX_ROW_SET_ROWS + 1).fill(0) })).toMatch(/at most 1,000,000 rows/)
    expect(await refused('rowsets/create', { ...ref(), version: 7, offsets: [0] })).toMatch(/no version 7/)
    const set = value<RowSetInfo>(await service.dispatch('rowsets/create', { ...ref(), version: 1, offsets: [3] }))
    expect(await refused('tables/count', { ...ref('other'), view: { version: 1, rowSet: set.id } })).toMatch(/belong to table rows, not other/)
    expect(await refused('tables/count', { ...ref(), view: { version: 2, rowSet: set.id } })).toMatch(/of version 1, not 2/)
    expect(await refused('tables/count', { ...ref(), view: { version: 1, rowSet: 'r_gone' } })).toMatch(/no longer kept/)
  })

  it('over REST a row set is an IN filter: a small one reads its rows, one longer than a filter is refused in words', async () => {
    const server = await serveTemp()
    const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
    try {
      const id = { namespace: [] as string[], name: 'rows' }
      await client.createTable(id, rowsTable())
      const rowSets = new RowSetModule({ client: () => client })
      const input = { connectionId: 'rest', namespace: [], name: 'rows', version: 1 }
      const small = await rowSets.create({ ...input, offsets: [5, 9, 2] })
      const reader = rowSets.readerOf('rest', client)
      expect(await reader.countRows(id, { view: { version: 1, rowSet: small.id } })).toBe(3)
      expect(ids(await reader.readPage(id, { offset: 0, limit: 10, view: { version: 1, rowSet: small.id } }))).toEqual([2, 5, 9])
      await expect(rowSets.create({ ...input, offsets: chosen })).rejects.toThrow(/A REST catalog can filter to at most about [\d,]+ rows chosen by position; these are 6,667/)
    } finally {
      await server.close()
    }
  })
})
