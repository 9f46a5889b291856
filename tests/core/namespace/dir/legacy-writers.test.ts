import { cp } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { tableFromIPC, type Table as ArrowTable } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, DiffJobInfo, QueryPlan, Result, RowSetInfo, TableViewSpec } from '../../../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../../../src/core/service'
import { connectNamespace } from '../../../../src/core/namespace/connect'
import '../../../../src/core/namespace/rest'
import { RowSetModule } from '../../../../src/core/rowset'
import { startServer, type RunningServer } from '../../../../src/server'
import { KEY } from '../../../server/support'
import { makeTempDir, removeDir } from '../../../helpers/catalog'

/**
 * Tables written by other LanceDB releases (tests/fixtures/writers, made by scripts/make-writer-fixtures.mjs), and
 * a legacy-format table our own lancedb writes: page, sort, go to row, the lasso's row set and What changed, each
 * compared with the plain data (a scan, which every format reads) and, where they work, with lancedb's own takes.
 *
 * Every fixture's `items`: version 1 = rows 0–299, 2 = rows 300–319 added, 3 = ids ending in 7 deleted, 4 = the
 * score of ids 0–4 set to 99.5. Columns: id, name (unique), score, vector (4-d float32).
 */
const FIXTURES = resolve(__dirname, '../../../fixtures/writers')
const WRITERS = [
  { writer: 'vectordb-0.4.20', legacy: true },
  { writer: 'vectordb-0.21.2', legacy: false },
  { writer: 'lancedb-0.22.3', legacy: false },
  { writer: 'lancedb-0.39.0', legacy: false },
  { writer: 'lancedb-0.31 legacy', legacy: true },
]

type Row = { id: number; name: string; score: number; vector: number[] }

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function rowsOf(table: ArrowTable): Row[] {
  return table.toArray().map((r) => {
    const o = r.toJSON() as Record<string, unknown>
    return { id: Number(o.id), name: String(o.name), score: Number(o.score), vector: Array.from(o.vector as Iterable<number>) }
  })
}

/** The fixture's table written by our own lancedb with `new_table_data_storage_version: 'legacy'`, same four versions. */
async function writeOwnLegacy(dir: string): Promise<void> {
  const row = (i: number) => ({ id: i, name: `item-${String((i * 37) % 1000).padStart(3, '0')}`, score: Math.round(((i * 7919) % 1000) / 10) / 10, vector: [i % 7, (i * 3) % 11, (i * 5) % 13, i % 2] })
  const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => row(from + k))
  const db = await lancedb.connect(dir)
  const table = await db.createTable('items', rows(0, 300), { storageOptions: { new_table_data_storage_version: 'legacy' } })
  await table.add(rows(300, 320))
  await table.delete('id % 10 = 7')
  await table.update({ where: 'id < 5', values: { score: 99.5 } })
  table.close()
  db.close()
}

describe.each(WRITERS)('tables written by $writer', ({ writer, legacy }) => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  let db: lancedb.Connection
  let raw: lancedb.Table
  /** Version 4's rows in scan order (row n = offset n) and version 1's. */
  let plain: Row[]
  let first: Row[]
  const ref = () => ({ connectionId: connection.id, namespace: [] as string[], name: 'items' })
  const page = async (view: TableViewSpec, offset: number, limit: number) => rowsOf(tableFromIPC(value<Uint8Array>(await service.dispatch('tables/page', { ...ref(), offset, limit, view }))))
  const count = async (view: TableViewSpec) => value<number>(await service.dispatch('tables/count', { ...ref(), view }))

  beforeAll(async () => {
    base = await makeTempDir('lcb-writers-')
    const root = join(base, 'catalog')
    // A copy: the committed fixture is never opened in place.
    if (writer.startsWith('lancedb-0.31')) await writeOwnLegacy(root)
    else await cp(join(FIXTURES, writer), root, { recursive: true })
    db = await lancedb.connect(root)
    raw = await db.openTable('items')
    plain = rowsOf(await raw.query().toArrow())
    await raw.checkout(1)
    first = rowsOf(await raw.query().toArrow())
    await raw.checkoutLatest()
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    raw?.close()
    db?.close()
    await service?.closeAll()
    if (base) await removeDir(base)
  })

  it('has the data files the fixture claims (lancedb takes fail on legacy files only)', async () => {
    expect(plain).toHaveLength(288)
    const take = raw.takeOffsets([0]).toArrow()
    if (legacy) await expect(take).rejects.toThrow(/FilteredRead on v1 files/)
    else expect(rowsOf(await take)).toEqual([plain[0]])
  })

  it('pages and goes to a row of the plain view', async () => {
    const view = { version: 4 }
    expect(await count(view)).toBe(288)
    expect(await page(view, 0, 50)).toEqual(plain.slice(0, 50))
    expect(await page(view, 250, 50)).toEqual(plain.slice(250))
  })

  it('sorts every page, and goes to a row of the sorted view, as the plain data sorted', async () => {
    const byName = [...plain].sort((a, b) => (a.name < b.name ? 1 : -1))
    const view: TableViewSpec = { version: 4, sort: [{ column: 'name', direction: 'desc' }] }
    expect(await page(view, 0, 20)).toEqual(byName.slice(0, 20))
    expect(await page(view, 130, 40)).toEqual(byName.slice(130, 170))
    // Go to row 201 (1-based) of the sorted view: the page at offset 200.
    expect((await page(view, 200, 1))[0]).toEqual(byName[200])
    // Two keys (score has ties), with a filter and a projection, as lancedb's own sort answers.
    const two: TableViewSpec = { version: 4, filter: 'score > 3', columns: ['id', 'name', 'score', 'vector'], sort: [{ column: 'score', direction: 'asc' }, { column: 'id', direction: 'desc' }] }
    const expected = plain.filter((r) => r.score > 3).sort((a, b) => a.score - b.score || b.id - a.id)
    expect(await page(two, 0, 30)).toEqual(expected.slice(0, 30))
    expect(await page(two, 100, 30)).toEqual(expected.slice(100, 130))
    const lance = rowsOf(await raw.query().where('score > 3').orderBy([{ columnName: 'score', ascending: true }, { columnName: 'id', ascending: false }]).offset(100).limit(30).toArrow())
    expect(await page(two, 100, 30)).toEqual(lance)
  })

  it('reads a lasso row set: its rows alone, with a filter, sorted and paged', async () => {
    const offsets = [287, 3, 17, 100, 101, 102, 250, 5, 200]
    const set = value<RowSetInfo>(await service.dispatch('rowsets/create', { ...ref(), version: 4, offsets }))
    const inOrder = [...offsets].sort((a, b) => a - b).map((o) => plain[o]!)
    const view: TableViewSpec = { version: 4, rowSet: set.id } as TableViewSpec
    expect(await count(view)).toBe(offsets.length)
    expect(await page(view, 0, 100)).toEqual(inOrder)
    expect(await page(view, 2, 3)).toEqual(inOrder.slice(2, 5))
    if (!legacy) expect(await page(view, 0, 100)).toEqual(rowsOf(await raw.takeOffsets([...offsets].sort((a, b) => a - b)).toArrow()))
    const filtered = { ...view, filter: 'score >= 4' }
    expect(await count(filtered)).toBe(inOrder.filter((r) => r.score >= 4).length)
    expect(await page(filtered, 0, 100)).toEqual(inOrder.filter((r) => r.score >= 4))
    const sorted = { ...view, sort: [{ column: 'name', direction: 'asc' as const }] }
    const byName = [...inOrder].sort((a, b) => (a.name < b.name ? -1 : 1))
    expect(await page(sorted, 0, 4)).toEqual(byName.slice(0, 4))
    expect(await page(sorted, 4, 10)).toEqual(byName.slice(4))
    // Rows by position written as a filter (as our REST client sends a row set) read the same way.
    expect(await page({ version: 4, filter: '(_rowoffset IN (3, 100)) AND (score >= 0)' }, 0, 10)).toEqual([plain[3], plain[100]])
    // A search within the set (Lance prefilters on the rows' ids).
    const near = { ...view, search: { kind: 'vector' as const, column: 'vector', vector: [3, 3, 3, 1], metric: 'l2' as const, k: 3, prefilter: true } }
    const found = await page(near, 0, 3)
    expect(found).toHaveLength(3)
    for (const r of found) expect(inOrder.map((x) => x.id)).toContain(r.id)
  })

  it('finds similar rows and, once an FTS index is built (here by lancedb 0.31 on the copy), searches text', async () => {
    const near = await page({ version: 4, search: { kind: 'vector', column: 'vector', vector: [4, 1, 7, 0], metric: 'l2', k: 5, prefilter: true } }, 0, 5)
    expect(near[0]).toEqual(plain.find((r) => r.id === 4))
    await raw.createIndex('name', { config: lancedb.Index.fts() })
    const latest = await raw.version()
    const found = await page({ version: latest, search: { kind: 'fts', query: 'item-148', columns: ['name'], k: 3 } }, 0, 3)
    expect(found[0]?.name).toBe('item-148')
  })

  it('says in Explain how a sorted view is read', async () => {
    const plan = value<QueryPlan>(await service.dispatch('tables/explain', { ...ref(), view: { version: 4, sort: [{ column: 'name', direction: 'asc' }] } }))
    if (legacy) expect(plan.plan).toMatch(/legacy format \(v1\).*Lance's own sort with offset and limit/)
    else expect(plan.plan).not.toMatch(/legacy format/)
  })

  it('shows what changed between two versions, as the plain data of each', async () => {
    const started = value<DiffJobInfo>(await service.dispatch('diff/start', { ...ref(), from: 1, to: 4, key: 'name' }))
    const job = await service.diffs.wait(started.id)
    expect(job.state, JSON.stringify(job)).toBe('done')
    const r = job.result!
    // Rows matched by name (unique; every writer here stores a JS number as Float64, not a key type).
    const before = new Map(first.map((row) => [row.name, row]))
    const after = new Map(plain.map((row) => [row.name, row]))
    const added = plain.filter((row) => !before.has(row.name)).map((row) => row.name).sort()
    const deleted = first.filter((row) => !after.has(row.name)).map((row) => row.name).sort()
    const changed = plain.filter((row) => before.has(row.name) && JSON.stringify(before.get(row.name)) !== JSON.stringify(row)).map((row) => row.name).sort()
    expect([r.added, r.deleted, r.changed]).toEqual([18, 30, 5])
    expect([added.length, deleted.length, changed.length]).toEqual([18, 30, 5])
    const sorted = (keys: readonly unknown[]) => keys.map(String).sort()
    expect(sorted(r.keys.added)).toEqual(added)
    expect(sorted(r.keys.deleted)).toEqual(deleted)
    expect(sorted(r.keys.changed)).toEqual(changed)
  })
})

describe('a vectordb 0.4 catalog (legacy files) served by our REST server', () => {
  let base: string
  let server: RunningServer
  let plain: Row[]
  const id = { namespace: [] as string[], name: 'items' }

  beforeAll(async () => {
    base = await makeTempDir('lcb-writers-rest-')
    const root = join(base, 'catalog')
    await cp(join(FIXTURES, 'vectordb-0.4.20'), root, { recursive: true })
    const db = await lancedb.connect(root)
    const table = await db.openTable('items')
    plain = rowsOf(await table.query().toArrow())
    table.close()
    db.close()
    server = await startServer({ root, apiKeys: [KEY] })
  })
  afterAll(async () => {
    await server?.close()
    if (base) await removeDir(base)
  })

  it('sorts, and reads a lasso row set sent as an `_rowoffset IN (…)` filter', async () => {
    const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
    const rowSets = new RowSetModule({ client: () => client })
    const reader = rowSets.readerOf('rest', client)
    const read = async (view: TableViewSpec, offset: number, limit: number) => rowsOf(tableFromIPC(await reader.readPage(id, { offset, limit, view })))
    const byName = [...plain].sort((a, b) => (a.name < b.name ? 1 : -1))
    expect(await read({ version: 4, sort: [{ column: 'name', direction: 'desc' }] }, 100, 10)).toEqual(byName.slice(100, 110))
    const offsets = [250, 3, 17, 100, 287]
    const set = await rowSets.create({ connectionId: 'rest', namespace: [], name: 'items', version: 4, offsets })
    const inOrder = [...offsets].sort((a, b) => a - b).map((o) => plain[o]!)
    const view = { version: 4, rowSet: set.id } as TableViewSpec
    expect(await reader.countRows(id, { view })).toBe(5)
    expect(await read(view, 0, 10)).toEqual(inOrder)
    expect(await read({ ...view, filter: 'score >= 4' }, 0, 10)).toEqual(inOrder.filter((r) => r.score >= 4))
    expect(await reader.countRows(id, { view: { ...view, filter: 'score >= 4' } })).toBe(inOrder.filter((r) => r.score >= 4).length)
  })
})

describe('rows by position on legacy files (pickOffsets)', () => {
  let base: string
  let table: lancedb.Table
  let ids: number[]

  beforeAll(async () => {
    base = await makeTempDir('lcb-legacy-pick-')
    const db = await lancedb.connect(base)
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, k) => ({ id: from + k, label: `r${from + k}` }))
    table = await db.createTable('t', rows(0, 6000), { storageOptions: { new_table_data_storage_version: 'legacy' } })
    await table.add(rows(6000, 6000))
    await table.delete('id % 1000 = 3')
    ids = Array.from((await table.query().select(['id']).toArrow()).getChild('id')!.toArray() as Float64Array, Number)
  })
  afterAll(async () => {
    table?.close()
    if (base) await removeDir(base)
  })

  it('reads the rows at the asked positions, in the asked order, in few runs or many, across fragments', async () => {
    const { pickOffsets } = await import('../../../../src/core/namespace/dir/legacyFiles')
    const read = async (offsets: number[], withRowId = false) => (await pickOffsets(table, offsets, ['id'], withRowId)).toArray().map((r) => Number(r.id))
    const few = [11_900, 5, 6, 5990, 6010, 3000]
    expect(await read(few)).toEqual(few.map((o) => ids[o]))
    const many = Array.from({ length: 40 }, (_, i) => (i * 2963) % ids.length)
    expect(await read(many)).toEqual(many.map((o) => ids[o]))
    // Positions past the last row are left out; none at all is an empty table of the columns.
    expect(await read([ids.length + 5, 2])).toEqual([ids[2]])
    expect(await read([])).toEqual([])
    const withIds = await pickOffsets(table, [0, 7000], ['id'], true)
    expect(withIds.schema.fields.map((f) => f.name)).toEqual(['id', '_rowid'])
  })
})
