import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { Float64, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, DiffJobInfo, Result } from '../../../src/contract'
import { batchOf, tableOf } from '../../../src/core/arrow'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { diffVersions } from '../../../src/core/diff'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

const N = 5_000

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function rows(ids: number[], label: (i: number) => string | null = (i) => `r${i}`) {
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from(ids, (i) => BigInt(i))), nullable: false },
      label: vectorFromArray(ids.map(label), new Utf8()),
      score: vectorFromArray(ids.map((i) => i / 4), new Float64()),
    }),
  ])
}

describe('version diff (core, real Lance tables)', () => {
  let base: string
  let root: string
  let service: CatalogService
  let connection: ConnectionInfo
  let db: lancedb.Connection
  const ref = (name: string) => ({ connectionId: connection.id, namespace: [] as string[], name })

  beforeAll(async () => {
    base = await makeTempDir('lcb-diff-')
    const ids = Array.from({ length: N }, (_, i) => i)
    root = await buildCatalog(join(base, 'catalog'), {
      tables: [
        { namespace: [], name: 'people', data: rows(ids) },
        { namespace: [], name: 'dups', data: rows(ids) },
      ],
    })
    db = await lancedb.connectNamespace('dir', { root })
    // people: v2 deletes 0..9, v3 updates 100..149, v4 adds 5000..5019, v5 adds a column.
    const people = await db.openTable('people')
    await people.delete('id < 10')
    // `values` are literal values: the label becomes the text 'changed' with its quotes (a quote to escape in key lists).
    await people.update({ where: 'id >= 100 AND id < 150', values: { label: "'changed'" } })
    await people.add(rows(Array.from({ length: 20 }, (_, i) => N + i)))
    await people.addColumns([{ name: 'extra', valueSql: 'id * 2' }])
    people.close()
    // dups: v2 appends id 7 again and a row with a null label (labels are not the key).
    const dups = await db.openTable('dups')
    await dups.add(rows([7]))
    dups.close()
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    db?.close()
    await service.closeAll()
    await removeDir(base)
  })

  async function diff(name: string, from: number, to: number, key: string): Promise<DiffJobInfo> {
    const started = value<DiffJobInfo>(await service.dispatch('diff/start', { ...ref(name), from, to, key }))
    expect(started.kind).toBe('diff')
    return service.diffs.wait(started.id)
  }

  it('counts rows deleted, changed and added, with their keys, across several versions', async () => {
    const job = await diff('people', 1, 4, 'id')
    expect(job.state).toBe('done')
    const r = job.result!
    expect([r.added, r.deleted, r.changed]).toEqual([20, 10, 50])
    expect(r.unchanged).toBe(N - 10 - 50)
    expect([...r.keys.deleted].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 10 }, (_, i) => i))
    expect([...r.keys.changed].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, i) => 100 + i))
    expect([...r.keys.added].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 20 }, (_, i) => N + i))
    // Dir catalogs: rows at the same address in both versions are not read; only the 50 moved ones are.
    expect(r.readAllColumns).toBe(false)
    expect(r.rows).toEqual({ from: N, to: N + 10 })
    expect(job.progress.rows).toBe(2 * N + 10)
  })

  it('a view of the diff’s keys: counts, pages and filters read exactly those rows, at any length', async () => {
    const r = (await diff('people', 1, 4, 'id')).result!
    const keys = { column: 'id', values: r.keys.changed }
    expect(value<number>(await service.dispatch('tables/count', { ...ref('people'), view: { version: 4, keys } }))).toBe(50)
    expect(value<number>(await service.dispatch('tables/count', { ...ref('people'), view: { version: 4, keys, filter: 'id >= 140' } }))).toBe(10)
    expect(value<number>(await service.dispatch('tables/count', { ...ref('people'), view: { version: 4, keys: { column: 'id', values: [] } } }))).toBe(0)
    // 10,000 keys: far past the length of a typed filter, one IN list for Lance.
    const many = { column: 'id', values: Array.from({ length: 10_000 }, (_, i) => i * 2) }
    expect(value<number>(await service.dispatch('tables/count', { ...ref('people'), view: { version: 1, keys: many } }))).toBe(N / 2)
    const labels = { column: 'label', values: ['r20', "it's", "'changed'"] }
    expect(value<number>(await service.dispatch('tables/count', { ...ref('people'), view: { version: 4, keys: labels } }))).toBe(51)
    const missing = await service.dispatch('tables/count', { ...ref('people'), view: { version: 4, keys: { column: 'nope', values: [1] } } })
    expect(missing.ok).toBe(false)
  })

  it('matches 64-bit integer keys past 2^53 exactly and shows their rows', async () => {
    const big = 2n ** 60n
    const t = await db.createTable('bigkeys', tableOf([batchOf({ id: { vector: makeVector(BigInt64Array.from([big, big + 1n, big + 2n])), nullable: false }, v: vectorFromArray([1, 2, 3], new Float64()) })]))
    await t.update({ where: `id = ${big + 1n}`, values: { v: 20 } })
    t.close()
    const r = (await diff('bigkeys', 1, 2, 'id')).result!
    expect(r.keyType).toBe('integer')
    expect(r.keys.changed).toEqual([String(big + 1n)])
    const view = { version: 2, keys: { column: 'id', values: r.keys.changed, integers: true } }
    expect(value<number>(await service.dispatch('tables/count', { ...ref('bigkeys'), view }))).toBe(1)
  })

  it('reads every row where the engine gives no row addresses, and finds the same changes', async () => {
    const client = await DirNamespaceClient.open(root)
    try {
      // The same client without its address scan: what a REST catalog offers.
      const plain = Object.assign(Object.create(client) as DirNamespaceClient, { scanRowAddresses: undefined })
      const r = await diffVersions(plain, ref('people'), 1, 4, 'id')
      expect([r.added, r.deleted, r.changed, r.readAllColumns]).toEqual([20, 10, 50, true])
    } finally {
      await client.close()
    }
  })

  it('takes moved rows by their offsets across several fragments, with deletions, a key deleted and re-added, and agrees with the other two paths', async () => {
    // Five fragments of 200 rows; deletions in the first shift every later row's offset away from its address.
    const t = await db.createTable('fragments', rows(Array.from({ length: 200 }, (_, i) => i)))
    for (let f = 1; f < 5; f++) await t.add(rows(Array.from({ length: 200 }, (_, i) => f * 200 + i)))
    await t.delete('id < 30')
    const from = await t.version()
    // Changed in four fragments; 650 and 910 deleted then re-added (650 as it was, 910 with a new label); 990 deleted.
    await t.update({ where: 'id IN (40, 41, 250, 399, 555, 777)', values: { label: "'new'" } })
    await t.delete('id IN (650, 910, 990)')
    await t.add(rows([650, 910, 1000, 1001], (i) => (i === 910 ? 'again' : `r${i}`)))
    const to = await t.version()
    t.close()
    const client = await DirNamespaceClient.open(root)
    try {
      const taken: number[][] = []
      const scannedKeys: unknown[] = []
      // The real client, its calls counted: the moved rows must come through the take, not through a key filter.
      const counted = Object.assign(Object.create(client) as DirNamespaceClient, {
        takeRows: (...args: Parameters<DirNamespaceClient['takeRows']>) => {
          taken.push(args[2])
          return client.takeRows(...args)
        },
        scan: (...args: Parameters<DirNamespaceClient['scan']>) => {
          if (args[1].keys) scannedKeys.push(args[1].keys)
          return client.scan(...args)
        },
      })
      const r = await diffVersions(counted, ref('fragments'), from, to, 'id')
      expect([r.added, r.deleted, r.changed, r.unchanged, r.readAllColumns]).toEqual([2, 1, 7, 1000 - 30 - 1 - 7, false])
      expect([...r.keys.changed].sort((a, b) => Number(a) - Number(b))).toEqual([40, 41, 250, 399, 555, 777, 910])
      expect(r.keys.deleted).toEqual([990])
      expect([...r.keys.added].sort()).toEqual([1000, 1001])
      // Both versions' eight moved rows (650 among them, unchanged), each by its offset; only the added keys' check filters.
      expect(taken.map((offsets) => offsets.length)).toEqual([8, 8])
      expect(taken[0]).toContain(650 - 30)
      expect(scannedKeys).toEqual([{ column: 'id', values: r.keys.added, integers: true }])
      // The same answer by key filter (no take) and by reading every row (no addresses).
      const byFilter = await diffVersions(Object.assign(Object.create(client) as DirNamespaceClient, { takeRows: undefined }), ref('fragments'), from, to, 'id')
      const byHash = await diffVersions(Object.assign(Object.create(client) as DirNamespaceClient, { scanRowAddresses: undefined }), ref('fragments'), from, to, 'id')
      const sorted = (x: typeof r) => ({ counts: [x.added, x.deleted, x.changed, x.unchanged], keys: Object.values(x.keys).map((k) => [...k].sort()) })
      expect(sorted(byFilter)).toEqual(sorted(r))
      expect(sorted(byHash)).toEqual(sorted(r))
      expect(byHash.readAllColumns).toBe(true)
    } finally {
      await client.close()
    }
  })

  it('a compaction after deletions and updates: the rewritten rows are taken at their new offsets and compared, only real changes counted', async () => {
    const t = await db.createTable('compactedLater', rows(Array.from({ length: 300 }, (_, i) => i)))
    for (let k = 0; k < 3; k++) await t.add(rows(Array.from({ length: 100 }, (_, i) => 300 + k * 100 + i)))
    await t.delete('id % 50 = 3')
    const from = await t.version()
    await t.update({ where: 'id IN (10, 420)', values: { score: -1 } })
    await t.optimize()
    const to = await t.version()
    t.close()
    const r = (await diff('compactedLater', from, to, 'id')).result!
    expect([r.added, r.deleted, r.changed, r.unchanged]).toEqual([0, 0, 2, 600 - 12 - 2])
    expect([...r.keys.changed].sort((a, b) => Number(a) - Number(b))).toEqual([10, 420])
    // Back to v1 (ids 0..299): the six deleted below 300 come back, 300..599 (less six) go, 10 changed.
    const back = (await diff('compactedLater', to, 1, 'id')).result!
    expect([back.added, back.deleted, back.changed]).toEqual([6, 294, 1])
    expect(back.keys.changed).toEqual([10])
  })

  it('a compaction moves every row but changes none: moved rows are read and compared, none counted changed', async () => {
    const t = await db.createTable('compacted', rows(Array.from({ length: 300 }, (_, i) => i)))
    for (let k = 0; k < 3; k++) await t.add(rows(Array.from({ length: 100 }, (_, i) => 300 + k * 100 + i)))
    await t.update({ where: 'id = 5', values: { score: 99 } })
    const before = await t.version()
    await t.optimize()
    const after = await t.version()
    t.close()
    const r = (await diff('compacted', before, after, 'id')).result!
    expect([r.added, r.deleted, r.changed, r.unchanged]).toEqual([0, 0, 0, 600])
    const across = (await diff('compacted', 1, after, 'id')).result!
    expect([across.added, across.deleted, across.changed]).toEqual([300, 0, 1])
    expect(across.keys.changed).toEqual([5])
  })

  it('compares the columns both versions have and names the schema change', async () => {
    const r = (await diff('people', 4, 5, 'id')).result!
    expect([r.added, r.deleted, r.changed]).toEqual([0, 0, 0])
    expect(r.schema.added.map((f) => f.name)).toEqual(['extra'])
    expect(r.compared).toEqual(['label', 'score'])
    // Backwards: the newer version as `from` shows the same rows the other way round.
    const back = (await diff('people', 3, 1, 'id')).result!
    expect([back.added, back.deleted, back.changed]).toEqual([10, 0, 50])
  })

  it('refuses a key with duplicates, a missing key column, and the same version twice, in words', async () => {
    const dup = await diff('dups', 1, 2, 'id')
    expect(dup.state).toBe('failed')
    expect(dup.error?.message).toMatch(/duplicate values in version 2 \(7 appears more than once\)/)
    expect(dup.result).toBeNull()
    const missing = await diff('people', 4, 5, 'extra')
    expect(missing.state).toBe('failed')
    expect(missing.error?.message).toBe('Version 4 has no column “extra”')
    const same = await diff('people', 2, 2, 'id')
    expect(same.error?.message).toMatch(/two different versions/)
    const floaty = await diff('people', 1, 2, 'score')
    expect(floaty.error?.message).toMatch(/integer or text column only/)
  })

  it('refuses a key with nulls', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => i)
    const t = await db.createTable('nullkeys', rows(ids, (i) => (i === 3 ? null : `r${i}`)))
    await t.delete('id = 0')
    t.close()
    const job = await diff('nullkeys', 1, 2, 'label')
    expect(job.state).toBe('failed')
    expect(job.error?.message).toMatch(/“label” has empty \(null\) values in version 1/)
  })

  it('a cancelled diff ends cancelled with no result', async () => {
    const started = value<DiffJobInfo>(await service.dispatch('diff/start', { ...ref('people'), from: 1, to: 5, key: 'id' }))
    value(await service.dispatch('jobs/cancel', { jobId: started.id }))
    const job = await service.diffs.wait(started.id)
    expect(job.state).toBe('cancelled')
    expect(job.result).toBeNull()
  })
})
