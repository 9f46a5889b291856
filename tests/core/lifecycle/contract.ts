import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf } from '../../../src/core/arrow'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import type { SuiteTarget } from '../namespace/contract-suite'
import { appError } from '../../helpers/errors'

/** `n` rows: id = start…, a label with few distinct values, a 4-d vector. */
export function lifecycleRows(n: number, start = 1): arrow.Table {
  return tableOf([
    batchOf({
      id: arrow.makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i))),
      label: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `label ${(start + i) % 3}`), new arrow.Utf8()),
      vector: float32Vectors(Float32Array.from({ length: n * 4 }, (_, i) => Math.sin(i)), 4),
    }),
  ])
}


/**
 * Table lifecycle through the NamespaceClient: every implementation (dir; rest against our server)
 * must pass it on real Lance tables.
 */
export function lifecycleContract(name: string, makeTarget: () => Promise<SuiteTarget>): void {
  describe(`table lifecycle: ${name}`, () => {
    let target: SuiteTarget
    let client: NamespaceClient
    const t = { namespace: ['life'], name: 't' }
    beforeAll(async () => {
      target = await makeTarget()
      client = target.client
      await client.createNamespace(['life'])
      await client.createTable(t, lifecycleRows(10)) // v1: 10 rows
      await client.appendRows(t, lifecycleRows(5, 11)) // v2: 15 rows
      await client.appendRows(t, lifecycleRows(5, 16)) // v3: 20 rows
    })
    afterAll(async () => {
      await client?.close()
      await target?.cleanup()
    })

    it('lists versions with timestamps, row counts and operations', async () => {
      const versions = await client.listVersions(t)
      expect(versions.map((v) => v.version)).toEqual([1, 2, 3])
      expect(versions.map((v) => v.rowCount)).toEqual([10, 15, 20])
      expect(versions.map((v) => v.operation)).toEqual(['create', 'append', 'append'])
      expect(versions.every((v) => v.timestamp > Date.now() - 3_600_000 && v.timestamp <= Date.now() + 60_000)).toBe(true)
    })

    it('opens an old version read-only: its rows and its count', async () => {
      const d = await client.describeTable(t, { version: 1 })
      expect(d.version).toBe(1)
      expect(d.rowCount).toBe(10)
      const page = arrow.tableFromIPC(await client.readPage(t, { version: 1, offset: 0, limit: 100 }))
      expect(page.numRows).toBe(10)
      expect((await client.describeTable(t)).rowCount).toBe(20)
      expect((await appError(client.describeTable(t, { version: 99 }))).code).toBe('not_found')
    })

    it('compares schemas across a schema change, and drops and renames columns', async () => {
      const v4 = await client.addColumns(t, [{ name: 'double_id', expression: 'id * 2' }])
      expect(v4).toBe(4)
      const page = arrow.tableFromIPC(await client.readPage(t, { offset: 0, limit: 2, columns: ['id', 'double_id'] }))
      expect(page.getChild('double_id')!.get(1)).toBe(4n)
      const v5 = await client.alterColumns(t, [{ path: 'double_id', rename: 'twice' }])
      expect(v5).toBe(5)
      const v6 = await client.alterColumns(t, [{ path: 'twice', dataType: 'float64' }]).catch((e: AppError) => e)
      // int64 → float64 crosses families: Lance refuses, and the table is unchanged.
      expect(v6).toBeInstanceOf(AppError)
      expect((await client.describeTable(t)).version).toBe(5)
      const v6b = await client.dropColumns(t, ['twice'])
      expect(v6b).toBe(6)
      expect((await client.describeTable(t)).fields.map((f) => f.name)).toEqual(['id', 'label', 'vector'])
      const before = await client.describeTable(t, { version: 3 })
      const after = await client.describeTable(t, { version: 4 })
      expect(after.fields.map((f) => f.name)).toEqual(['id', 'label', 'vector', 'double_id'])
      expect(before.rowCount).toBe(after.rowCount)
      expect((await appError(client.dropColumns(t, ['nope']))).code).toBe('not_found')
    })

    it('deletes the rows a predicate matches, as one new version; the old version keeps them', async () => {
      const d = { namespace: ['life'], name: 'deleting' }
      await client.createTable(d, lifecycleRows(10)) // v1: ids 1…10
      expect(await client.deleteRows(d, 'id <= 3 OR id = 10')).toBe(2)
      const ids = arrow.tableFromIPC(await client.readPage(d, { offset: 0, limit: 100 })).getChild('id')!.toArray() as BigInt64Array
      expect([...ids].map(Number).sort((a, b) => a - b)).toEqual([4, 5, 6, 7, 8, 9])
      expect((await client.describeTable(d, { version: 1 })).rowCount).toBe(10)
      expect(await client.deleteRows(d, 'id > 1000')).toBe(3)
      expect((await client.describeTable(d)).rowCount).toBe(6)
    })

    it('tags: create, list, resolve, delete; duplicates and missing tags fail in words', async () => {
      await client.createTag(t, 'first', 1)
      await client.createTag(t, 'latest', 3)
      expect(await client.listTags(t)).toEqual([
        { name: 'first', version: 1 },
        { name: 'latest', version: 3 },
      ])
      expect(await client.tagVersion(t, 'first')).toBe(1)
      expect((await client.listVersions(t)).find((v) => v.version === 1)?.tags).toEqual(['first'])
      expect((await appError(client.createTag(t, 'first', 2))).code).toBe('already_exists')
      expect((await appError(client.createTag(t, 'ghost', 99))).code).toBe('not_found')
      await client.deleteTag(t, 'latest')
      expect((await client.listTags(t)).map((x) => x.name)).toEqual(['first'])
      expect((await appError(client.deleteTag(t, 'latest'))).code).toBe('not_found')
      expect((await appError(client.tagVersion(t, 'latest'))).code).toBe('not_found')
    })

    it('restores a version as a new latest version; a missing version is not found and changes nothing', async () => {
      const latest = (await client.describeTable(t)).version
      await client.restoreVersion(t, 1)
      const d = await client.describeTable(t)
      expect(d.version).toBe(latest + 1)
      expect(d.rowCount).toBe(10)
      const err = await appError(client.restoreVersion(t, 999))
      expect(err.code).toBe('not_found')
      expect((await client.describeTable(t)).version).toBe(latest + 1)
      // Nothing is lost: the version before the restore is still there.
      expect((await client.describeTable(t, { version: latest })).rowCount).toBe(20)
    })

    it('creates, lists and drops scalar, full-text and vector indexes', async () => {
      const u = { namespace: ['life'], name: 'idx' }
      await client.createTable(u, lifecycleRows(600))
      await client.createIndex(u, { column: 'id', type: 'BTREE' })
      await client.createIndex(u, { column: 'label', type: 'BITMAP', name: 'label_bitmap' })
      await client.createIndex(u, { column: 'label', type: 'FTS', name: 'label_fts' })
      await client.createIndex(u, { column: 'vector', type: 'IVF_PQ', numPartitions: 2, numSubVectors: 2, distanceType: 'cosine' })
      const indexes = await client.listIndexes(u)
      expect(indexes.map((i) => i.name).sort()).toEqual(['id_idx', 'label_bitmap', 'label_fts', 'vector_idx'])
      const btree = indexes.find((i) => i.name === 'id_idx')!
      expect(btree.columns).toEqual(['id'])
      expect(btree.type.toUpperCase()).toContain('BTREE')
      expect(btree.indexedRows).toBe(600)
      expect(btree.unindexedRows).toBe(0)
      await client.appendRows(u, lifecycleRows(10, 601))
      expect((await client.listIndexes(u)).find((i) => i.name === 'id_idx')!.unindexedRows).toBe(10)
      const missing = await appError(client.createIndex(u, { column: 'nope', type: 'BTREE' }))
      expect(missing.code).toBe('not_found')
      expect(missing.message).toContain('nope')
      await client.dropIndex(u, 'label_bitmap')
      expect((await client.listIndexes(u)).map((i) => i.name).sort()).toEqual(['id_idx', 'label_fts', 'vector_idx'])
      expect((await appError(client.dropIndex(u, 'label_bitmap'))).code).toBe('not_found')
    })

    it('reports stats: rows, fragments, deleted rows, size', async () => {
      const s = await client.tableStats(t)
      expect(s.rows).toBe(10)
      expect(s.fragments).toBeGreaterThanOrEqual(1)
      expect(s.bytes).toBeGreaterThan(0)
      expect(s.deletedRows).toBe(0)
      expect(s.version).toBe((await client.describeTable(t)).version)
      expect(s.versions).toBe(s.version)
    })

    it('fails in words on a missing table', async () => {
      const ghost = { namespace: ['life'], name: 'ghost' }
      for (const call of [() => client.listVersions(ghost), () => client.listIndexes(ghost), () => client.tableStats(ghost), () => client.listTags(ghost)]) {
        expect((await appError(call())).code).toBe('not_found')
      }
    })
  })
}
