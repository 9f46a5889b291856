import { execFileSync } from 'node:child_process'
import { appendFile, lstat, mkdir, readdir, readFile, rename, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DateDay, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionInfo, ProfileJobInfo, Result, RowSetInfo } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf } from '../../../src/core/arrow'
import { encodeProfile } from '../../../src/core/profile/stored'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { FileSideCache } from '../../../src/core/sideCache'
import { buildCatalog, makeTempDir, removeDir, sampleTable } from '../../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** Six columns: int64, two strings, a float64, a date and a 16-d vector. */
function sixColumns(rows: number) {
  const ids = Array.from({ length: rows }, (_, i) => i)
  const vectors = Float32Array.from({ length: rows * 16 }, (_, k) => (k % 17) / 3)
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from(ids, (i) => BigInt(i))), nullable: false },
      label: vectorFromArray(ids.map((i) => `label ${i % 40}`), new Utf8()),
      note: vectorFromArray(ids.map((i) => (i % 5 === 0 ? null : `note ${i}`)), new Utf8()),
      score: { vector: makeVector(Float64Array.from(ids, (i) => i / 7)), nullable: false },
      day: makeVector(makeData({ type: new DateDay(), length: rows, nullCount: 0, data: Int32Array.from(ids, (i) => 19_000 + (i % 300)) })),
      vec: { vector: float32Vectors(vectors, 16), nullable: false },
    }),
  ])
}

describe('column profiles kept per table version in the side cache', () => {
  const dirs: string[] = []
  const services: CatalogService[] = []
  afterEach(async () => {
    for (const service of services.splice(0)) await service.closeAll()
    for (const dir of dirs.splice(0)) await removeDir(dir)
  })

  async function setUp(data = sixColumns(5_000)) {
    const base = await makeTempDir('lcb-profile-kept-')
    dirs.push(base)
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 't', data }] })
    return { base, root, cacheDir: join(base, 'cache') }
  }

  /** A fresh service (an app start) on the same catalog and cache folder. */
  async function open(root: string, cacheDir: string) {
    const service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore(), sideCache: new FileSideCache(cacheDir) })
    services.push(service)
    const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    const profile = async (view: { version?: number; filter?: string; rowSet?: string } = {}, name = 't'): Promise<ProfileJobInfo> => {
      const started = value<ProfileJobInfo>(await service.dispatch('profile/start', { connectionId: connection.id, namespace: [], name, view }))
      return service.profiles.wait(started.id)
    }
    return { service, connection, profile }
  }

  it('a profile outlives the session: a new service on the same cache answers from it, per filter', async () => {
    const { root, cacheDir } = await setUp()
    const first = await open(root, cacheDir)
    const computed = await first.profile()
    expect(computed.state).toBe('done')
    expect(computed.cached).toBe(false)
    await first.service.closeAll()

    const second = await open(root, cacheDir)
    const reopened = await second.profile()
    expect(reopened.state).toBe('done')
    expect(reopened.cached).toBe(true)
    // The kept profile names this session's connection and says what the scan said.
    expect(reopened.result!.table.connectionId).toBe(second.connection.id)
    expect(reopened.result!.columns).toEqual(computed.result!.columns)
    expect(reopened.result!.rows).toBe(5_000)
    // Another filter is another entry.
    const filtered = await second.profile({ filter: 'id < 10' })
    expect(filtered.cached).toBe(false)
    expect(filtered.result!.rows).toBe(10)

    // The encoding is small: JSON of a 6-column table's profile.
    const size = encodeProfile(computed.result!).byteLength
    console.log(`profile of a 6-column table, as kept: ${size} bytes`)
    expect(size).toBeLessThan(8_000)
  })

  it('a dropped and recreated table (version 1 again) is profiled afresh, not answered from the old one', async () => {
    const { root, cacheDir } = await setUp()
    const first = await open(root, cacheDir)
    const before = await first.profile()
    expect(before.version).toBe(1)
    expect(before.result!.rows).toBe(5_000)
    value(await first.service.dispatch('tables/drop', { connectionId: first.connection.id, namespace: [], name: 't' }))
    await first.service.closeAll()
    // Same name, same version number, other rows.
    const { DirNamespaceClient } = await import('../../../src/core/namespace/dir/client')
    const client = await DirNamespaceClient.open(root)
    await client.createTable({ namespace: [], name: 't' }, sampleTable(300))
    await client.close()

    const second = await open(root, cacheDir)
    const after = await second.profile()
    expect(after.version).toBe(1)
    expect(after.cached).toBe(false)
    expect(after.result!.rows).toBe(300)
    expect(after.result!.columns.map((c) => c.name)).toEqual(['id', 'label', 'score', 'note', 'vector'])
  })

  it("a version's stamp (its manifest's hash) stays put, differs per version, and differs for a table made again", async () => {
    const { root } = await setUp(sampleTable(50))
    const { DirNamespaceClient } = await import('../../../src/core/namespace/dir/client')
    const id = { namespace: [], name: 't' }
    const client = await DirNamespaceClient.open(root)
    try {
      const one = await client.versionStamp(id, 1)
      expect(one).toMatch(/^[\w-]{20,}$/)
      expect(await client.versionStamp(id, 1)).toBe(one)
      const two = await client.appendRows(id, sampleTable(10))
      expect(await client.versionStamp(id, two)).not.toBe(one)
      expect(await client.versionStamp(id, 1)).toBe(one)
      // A version that does not exist has no stamp (the caller falls back to the version list, which says so).
      expect(await client.versionStamp(id, 99)).toBeNull()
      await client.dropTable(id)
      await client.createTable(id, sampleTable(50))
      expect(await client.versionStamp(id, 1)).not.toBe(one)
    } finally {
      await client.close()
    }
  })

  it("the map's lasso: the profile is of the row set's rows (and the filter's), kept for the session only", async () => {
    const { root, cacheDir } = await setUp()
    const { service, connection, profile } = await open(root, cacheDir)
    // Every 7th row from 3: ids 3, 10, …, 4,995 (714 rows).
    const offsets = Array.from({ length: 714 }, (_, i) => 3 + i * 7)
    const set = value<RowSetInfo>(await service.dispatch('rowsets/create', { connectionId: connection.id, namespace: [], name: 't', version: 1, offsets }))
    const lasso = await profile({ version: 1, rowSet: set.id })
    expect(lasso.state).toBe('done')
    expect(lasso.rowSet).toBe(set.id)
    expect(lasso.result!.rows).toBe(714)
    const id = (p: ProfileJobInfo) => p.result!.columns.find((c) => c.name === 'id')!
    expect(id(lasso).stats).toMatchObject({ min: 3, max: 4_994 })
    expect(id(lasso).distinct).toMatchObject({ count: 714, exact: true })
    // With a filter too: the set's rows that match it.
    const both = await profile({ version: 1, rowSet: set.id, filter: 'id < 100' })
    expect(both.result!.rows).toBe(offsets.filter((o) => o < 100).length)
    expect(id(both).stats).toMatchObject({ min: 3, max: 94 })
    // Asked again: answered from memory. Nothing went to the side cache (a row set's id means nothing next session).
    expect((await profile({ version: 1, rowSet: set.id })).cached).toBe(true)
    expect(await readdir(join(cacheDir, 'profile')).catch(() => [])).toEqual([])
    // A set no longer kept fails in words.
    const gone = await profile({ version: 1, rowSet: 'r_gone' })
    expect(gone.state).toBe('failed')
    expect(gone.error!.message).toMatch(/no longer kept/)
  })

  it('a cancelled scan writes nothing to the cache', async () => {
    const { root, cacheDir } = await setUp(sampleTable(60_000))
    const { service, connection, profile } = await open(root, cacheDir)
    const started = value<ProfileJobInfo>(await service.dispatch('profile/start', { connectionId: connection.id, namespace: [], name: 't', view: {} }))
    value(await service.dispatch('jobs/cancel', { jobId: started.id }))
    expect((await service.profiles.wait(started.id)).state).toBe('cancelled')
    expect(await readdir(join(cacheDir, 'profile')).catch(() => [])).toEqual([])
    // The next one scans, and that one is kept.
    const again = await profile()
    expect(again.cached).toBe(false)
    expect(await readdir(join(cacheDir, 'profile'))).toHaveLength(1)
  })

  describe('a kept profile spoiled outside the app is profiled afresh, never shown', () => {
    /** Tables t (3,000 rows) and small (1,200 rows), each profiled once and kept; `t`'s kept file. */
    async function keptTwo() {
      const base = await makeTempDir('lcb-profile-spoiled-')
      dirs.push(base)
      const root = await buildCatalog(join(base, 'catalog'), {
        tables: [
          { namespace: [], name: 't', data: sampleTable(3_000) },
          { namespace: [], name: 'small', data: sampleTable(1_200) },
        ],
      })
      const cacheDir = join(base, 'cache')
      const first = await open(root, cacheDir)
      const small = await first.profile({}, 'small')
      const files = await readdir(join(cacheDir, 'profile'))
      const t = await first.profile()
      expect([t.result!.rows, small.result!.rows, t.cached]).toEqual([3_000, 1_200, false])
      const smallFile = join(cacheDir, 'profile', files[0]!)
      const tFile = join(cacheDir, 'profile', (await readdir(join(cacheDir, 'profile'))).find((n) => n !== files[0])!)
      await first.service.closeAll()
      return { root, cacheDir, tFile, smallFile, computed: t.result! }
    }

    it.each<[string, (files: { tFile: string; smallFile: string }) => Promise<unknown>]>([
      // The case: shown as "rows 1200" for a 3,000-row table before kept files named their key.
      ["another table's entry moved onto its name", ({ tFile, smallFile }) => rename(smallFile, tFile)],
      ['its row count edited by hand', async ({ tFile }) => writeFile(tFile, (await readFile(tFile, 'latin1')).replace('"rows":3000', '"rows":3001'), 'latin1')],
      ['cut short', async ({ tFile }) => truncate(tFile, (await stat(tFile)).size - 1)],
      ['bytes appended', ({ tFile }) => appendFile(tFile, ' ')],
      ['a FIFO in its place', async ({ tFile }) => (await rm(tFile), execFileSync('mkfifo', [tFile]))],
      ['a symlink to /dev/zero in its place', async ({ tFile }) => (await rm(tFile), await symlink('/dev/zero', tFile))],
      ["a symlink to another table's entry, outside the folder", async ({ tFile, smallFile }) => {
        const outside = join(await makeTempDir('lcb-profile-outside-'), 'entry')
        dirs.push(join(outside, '..'))
        await rename(smallFile, outside)
        await rm(tFile)
        await symlink(outside, tFile)
      }],
      ['a folder in its place', async ({ tFile }) => (await rm(tFile), await mkdir(tFile))],
    ])('%s', { timeout: 60_000 }, async (_what, spoil) => {
      const { root, cacheDir, tFile, smallFile, computed } = await keptTwo()
      await spoil({ tFile, smallFile })
      const again = await open(root, cacheDir)
      const reopened = await again.profile()
      expect(reopened.state).toBe('done')
      expect(reopened.cached).toBe(false)
      expect(reopened.result!.rows).toBe(3_000)
      expect(reopened.result!.columns).toEqual(computed.columns)
      // Replaced by the recomputed one: a regular file, answered from next time.
      expect((await lstat(tFile)).isFile()).toBe(true)
      const fresh = await open(root, cacheDir)
      const kept = await fresh.profile()
      expect([kept.cached, kept.result!.rows]).toEqual([true, 3_000])
    })
  })
})
