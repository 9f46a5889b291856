import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError, type TableViewSpec } from '../../../src/contract'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../../src/core/arrow'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import type { TableId } from '../../../src/core/namespace/path'
import { exportView } from '../../../src/core/export/run'
import { scanWindows } from '../../../src/core/namespace/dir/windowedScan'

export interface ViewSuiteTarget {
  client: NamespaceClient
  /** The directory catalog the client reads (directly, or through our server). */
  root: string
  /** Storage options for a root on object storage (given to lancedb's own connection too). */
  storageOptions?: Record<string, string>
  cleanup: () => Promise<void>
}

/** lancedb's own connection to the target's catalog (another writer), with its storage options when it has some. */
function connectDirectly(target: ViewSuiteTarget): Promise<lancedb.Connection> {
  const storageOptions = target.storageOptions
  if (!storageOptions) return lancedb.connectNamespace('dir', { root: target.root })
  const extraProperties = Object.fromEntries(Object.entries(storageOptions).map(([k, v]) => [`storage.${k}`, v]))
  return lancedb.connectNamespace('dir', { root: target.root, extraProperties }, { storageOptions })
}

export const DIM = 8
export const ROWS = 1000

/** `id` 0…n-1 (int64), `label` "row-i", `score` i/2, `note` null every 7th row, `vector` seeded random 8-d. */
export function viewRows(n = ROWS): arrow.Table {
  const random = seededRandom(7)
  const vectors = Float32Array.from({ length: n * DIM }, () => random() * 2 - 1)
  return tableOf([
    batchOf({
      id: { vector: arrow.makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(i))), nullable: false },
      label: { vector: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `row-${i}`), new arrow.Utf8()), nullable: false },
      score: { vector: arrow.makeVector(Float64Array.from({ length: n }, (_, i) => i / 2)), nullable: false },
      note: { vector: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `note ${i}`)), new arrow.Utf8()), nullable: true },
      vector: { vector: float32Vectors(vectors, DIM), nullable: false },
    }),
  ])
}

async function codeAndMessage(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return { code: (error as AppError).code, message: (error as AppError).message }
  }
  throw new Error('expected the call to fail')
}

function rowsOf(bytes: Uint8Array): Record<string, unknown>[] {
  return arrow.tableFromIPC(bytes).toArray().map((r) => r.toJSON() as Record<string, unknown>)
}

const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id))

/**
 * The table-view part of the contract suite: filter, sort, count, go-to-row offsets, vector search
 * with and without an index for each metric, full-text search, bad input, and version consistency — each
 * compared with `@lancedb/lancedb` run directly on the same table.
 */
export function viewContract(name: string, makeTarget: () => Promise<ViewSuiteTarget>): void {
  describe(`table views: ${name}`, () => {
    let target: ViewSuiteTarget
    let client: NamespaceClient
    let lance: lancedb.Table
    let version: number
    const id: TableId = { namespace: [], name: 'things' }
    const indexed: TableId = { namespace: [], name: 'indexed' }
    let indexedLance: lancedb.Table
    let indexedVersion: number

    beforeAll(async () => {
      target = await makeTarget()
      client = target.client
      await client.createTable(id, viewRows())
      await client.createTable(indexed, viewRows())
      const db = await connectDirectly(target)
      lance = await db.openTable('things', [], { storageOptions: target.storageOptions })
      indexedLance = await db.openTable('indexed', [], { storageOptions: target.storageOptions })
      await indexedLance.createIndex('vector', { config: lancedb.Index.ivfFlat({ numPartitions: 4, distanceType: 'l2' }) })
      await indexedLance.createIndex('label', { config: lancedb.Index.fts() })
      version = (await client.describeTable(id)).version
      indexedVersion = (await client.describeTable(indexed)).version
    }, 60_000)
    afterAll(async () => {
      await client?.close()
      await target?.cleanup()
    })

    const page = (view: TableViewSpec, offset = 0, limit = 100, table = id) => client.readPage(table, { offset, limit, view }).then(rowsOf)

    it('filters with a pushed-down predicate, and counts the same rows', async () => {
      const view = { version, filter: 'score >= 100 AND score < 110 AND note IS NOT NULL' }
      const rows = await page(view)
      const expected = (await lance.query().where(view.filter).toArray()).map((r) => Number(r.id))
      expect(ids(rows)).toEqual(expected)
      expect(expected.length).toBe(17) // 200…219 without 203, 210, 217
      expect(await client.countRows(id, { view })).toBe(17)
      expect(await client.countRows(id, { view: { version } })).toBe(ROWS)
    })

    it('sorts both ways, combined with a filter, and goes to a row by offset', async () => {
      const desc = await page({ version, sort: [{ column: 'score', direction: 'desc' }] }, 0, 3)
      expect(ids(desc)).toEqual([999, 998, 997])
      const asc = await page({ version, filter: 'id % 2 = 1', sort: [{ column: 'label', direction: 'asc' }] }, 0, 3)
      const bare = await lance.query().where('id % 2 = 1').orderBy({ columnName: 'label', ascending: true }).limit(3).toArray()
      expect(ids(asc)).toEqual(bare.map((r) => Number(r.id)))
      expect(ids(await page({ version }, 500, 3))).toEqual([500, 501, 502])
      expect(ids(await page({ version, sort: [{ column: 'id', direction: 'desc' }] }, 990, 20))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
      // Past the end: no rows, and still the view's columns.
      const empty = arrow.tableFromIPC(await client.readPage(id, { offset: 5000, limit: 10, view: { version, filter: 'id > 10', columns: ['id', 'label'] } }))
      expect(empty.numRows).toBe(0)
      expect(empty.schema.fields.map((f) => f.name)).toEqual(['id', 'label'])
    })

    it('refuses bad predicates, unknown columns and wrong dimensions with clear messages', async () => {
      const parse = await codeAndMessage(page({ version, filter: 'score >>> 1' }))
      expect(parse.code).toBe('invalid_input')
      expect(parse.message).toMatch(/`>>` is not an operator of filters/)
      const column = await codeAndMessage(page({ version, filter: 'scor > 1' }))
      expect(column).toMatchObject({ code: 'invalid_input' })
      expect(column.message).toMatch(/scor/)
      // Lance's suggestion names the column as an identifier (backticks), not as a string in single quotes.
      expect(column.message).toContain('Did you mean the column `score`?')
      expect((await codeAndMessage(client.countRows(id, { view: { version, filter: 'nope = 1' } }))).code).toBe('invalid_input')
      // Lance's list of valid fields holds the user's columns only, not its own (_rowid, _rowaddr, …).
      const unknown = await codeAndMessage(client.countRows(id, { view: { version, filter: 'zzqx = 1' } }))
      expect(unknown.message).toMatch(/Valid fields are .*\blabel\b/)
      expect(unknown.message).not.toMatch(/_rowid|_rowaddr|_rowoffset|_row_last_updated_at_version|_row_created_at_version/)
      const sort = await codeAndMessage(page({ version, sort: [{ column: 'missing', direction: 'asc' }] }))
      expect(sort).toMatchObject({ code: 'invalid_input' })
      expect(sort.message).toMatch(/missing/)
      expect((await codeAndMessage(page({ version, columns: ['id', 'ghost'] }))).message).toMatch(/ghost/)
      const dim = await codeAndMessage(page({ version, search: { kind: 'vector', column: 'vector', vector: [1, 2, 3], metric: 'l2', k: 5, prefilter: true } }))
      expect(dim.code).toBe('invalid_input')
      expect(dim.message).toMatch(/3/)
      expect(dim.message).toMatch(/8/)
    })

    for (const metric of ['l2', 'cosine', 'dot'] as const) {
      for (const withIndex of [false, true]) {
        it(`finds similar rows (${metric}, ${withIndex ? 'IVF index' : 'no index'}) as lancedb does`, async () => {
          const table = withIndex ? indexed : id
          const bare = withIndex ? indexedLance : lance
          const v = withIndex ? indexedVersion : version
          const source = (await bare.query().where('id = 42').toArray())[0]
          const vector = Array.from(source.vector as Iterable<number>)
          const search = { kind: 'vector' as const, column: 'vector', vector, metric, k: 10, prefilter: true }
          const rows = await page({ version: v, search }, 0, 10, table)
          const expected = await bare.query().nearestTo(vector).column('vector').distanceType(metric).limit(10).toArray()
          expect(ids(rows)).toEqual(expected.map((r) => Number(r.id)))
          expect(rows.map((r) => r._distance)).toEqual(expected.map((r) => r._distance))
          const distances = rows.map((r) => r._distance as number)
          expect([...distances].sort((a, b) => a - b)).toEqual(distances)
          if (metric !== 'dot') {
            expect(Number(rows[0]!.id)).toBe(42)
            expect(distances[0]).toBeCloseTo(0, 5)
          }
          // Paging inside the k results, and their count.
          expect(ids(await page({ version: v, search }, 4, 3, table))).toEqual(expected.slice(4, 7).map((r) => Number(r.id)))
          expect(await client.countRows(table, { view: { version: v, search } })).toBe(10)
          const plan = await client.explainQuery(table, { version: v, search })
          if (withIndex && metric === 'l2') expect(plan).toMatch(/ANN|Ivf/i)
          if (!withIndex) expect(plan).toMatch(/KNNVectorDistance/)
        })
      }
    }

    it('pre-filters by default and post-filters when asked', async () => {
      const vector = Array.from((await lance.query().where('id = 7').toArray())[0].vector as Iterable<number>)
      const search = { kind: 'vector' as const, column: 'vector', vector, metric: 'l2' as const, k: 5, prefilter: true }
      const pre = await page({ version, filter: 'id >= 500', search })
      expect(pre).toHaveLength(5)
      expect(ids(pre).every((i) => i >= 500)).toBe(true)
      const post = await page({ version, filter: 'id >= 500', search: { ...search, prefilter: false } })
      const bare = await lance.query().nearestTo(vector).where('id >= 500').postfilter().limit(5).toArray()
      expect(ids(post)).toEqual(bare.map((r) => Number(r.id)))
    })

    it('runs full-text searches on a column with an FTS index, with _score', async () => {
      const search = { kind: 'fts' as const, query: '42', k: 10 }
      const rows = await page({ version: indexedVersion, search }, 0, 10, indexed)
      const bare = await indexedLance.query().fullTextSearch('42').limit(10).toArray()
      expect(ids(rows)).toEqual(bare.map((r) => Number(r.id)))
      expect(ids(rows)).toContain(42)
      expect(rows.every((r) => typeof r._score === 'number')).toBe(true)
      const described = await client.describeTable(indexed, { version: indexedVersion, indexes: true })
      if (client.implementation === 'dir') expect(described.indexes?.find((i) => i.type === 'FTS')?.columns).toEqual(['label'])
      // No FTS index on the plain table: a clear invalid_input.
      expect((await codeAndMessage(page({ version, search })))).toMatchObject({ code: 'invalid_input' })
    })

    it('scans every row of a view (what export reads)', async () => {
      let n = 0
      let last = -1
      for await (const batch of client.scan(id, { version, filter: 'id >= 100', sort: [{ column: 'id', direction: 'asc' }], columns: ['id'] })) {
        for (const v of batch.getChild('id')!) {
          expect(Number(v)).toBe(last === -1 ? 100 : last + 1)
          last = Number(v)
          n++
        }
      }
      expect(n).toBe(900)
    })

    it('scans a plain view whole and in table order, also in windows (how a dir scan bounds its memory)', async () => {
      const seen: number[] = []
      for await (const batch of client.scan(id, { version, columns: ['id'] })) for (const v of batch.getChild('id')!) seen.push(Number(v))
      expect(seen).toEqual(Array.from({ length: ROWS }, (_, i) => i))
      const windowed: number[] = []
      // 1000 rows in windows of 64 (the last one short), and of 250 (the last one empty).
      for (const size of [64, 250]) {
        windowed.length = 0
        for await (const batch of scanWindows(lance, { columns: ['id'] }, undefined, size)) for (const v of batch.getChild('id')!) windowed.push(Number(v))
        expect(windowed).toEqual(seen)
      }
    })

    it('exports a filtered and sorted view: exactly the matching rows, in order, with the view’s columns', async () => {
      const out = await mkdtemp(join(tmpdir(), 'lcb-view-export-'))
      try {
        const view: TableViewSpec = { version, filter: 'note IS NOT NULL AND id < 300', sort: [{ column: 'score', direction: 'desc' }], columns: ['label', 'id'] }
        const expected = await lance.query().where(view.filter!).orderBy({ columnName: 'score', ascending: false }).select(['label', 'id']).toArray()
        expect(expected.length).toBe(257) // 300 rows less the 43 with a null note
        const csv = join(out, 'view.csv')
        expect(await exportView(client, { connectionId: 'test', ...id }, view, 'csv', csv)).toMatchObject({ rows: expected.length })
        const lines = (await readFile(csv, 'utf8')).trimEnd().split('\n')
        expect(lines).toEqual(['label,id', ...expected.map((r) => `${r.label},${r.id}`)])
        const file = join(out, 'view.arrow')
        await exportView(client, { connectionId: 'test', ...id }, view, 'arrow', file)
        const back = arrow.tableFromIPC(await readFile(file))
        expect(back.schema.fields.map((f) => f.name)).toEqual(['label', 'id'])
        expect(back.toArray().map((r) => Number(r.id))).toEqual(expected.map((r) => Number(r.id)))
      } finally {
        await rm(out, { recursive: true, force: true })
      }
    })

    it('reads exactly the view’s version while another writer changes the table', async () => {
      const own: TableId = { namespace: [], name: 'changing' }
      await client.createTable(own, viewRows(300))
      const before = await client.describeTable(own, { indexes: true })
      expect(before.latestVersion).toBe(before.version)
      // Another process (lancedb directly) deletes rows.
      const db = await connectDirectly(target)
      const other = await db.openTable('changing', [], { storageOptions: target.storageOptions })
      await other.delete('id < 100')
      expect(await client.latestVersion(own)).toBeGreaterThan(before.version)
      const old = { version: before.version }
      expect(ids(await page(old, 0, 3, own))).toEqual([0, 1, 2])
      expect(await client.countRows(own, { view: old })).toBe(300)
      const now = await client.describeTable(own)
      expect(now.rowCount).toBe(200)
      expect(ids(await page({ version: now.version }, 0, 3, own))).toEqual([100, 101, 102])
      expect(await client.countRows(own, { view: { version: now.version } })).toBe(200)
      const atOld = await client.describeTable(own, { version: before.version })
      expect(atOld).toMatchObject({ version: before.version, rowCount: 300, latestVersion: now.version })
      expect((await codeAndMessage(page({ version: now.version + 50 }, 0, 3, own))).code).toBe('not_found')
    })
  })
}
