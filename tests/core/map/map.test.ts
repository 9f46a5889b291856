import { execFileSync } from 'node:child_process'
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import * as lancedb from '@lancedb/lancedb'
import { Field, Float32, List, makeVector, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, JobInfo, MapJobInfo, Result } from '../../../src/contract'
import { batchOf, float32Vectors, seededRandom, tableOf, withNulls } from '../../../src/core/arrow'
import { decodeSummary, umapColumn } from '../../../src/core/map'
import { CatalogService, FileSideCache, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { clusterCentres } from './clusters'

const N = 6000
const DIM = 32
const CLUSTERS = 3

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** Three tight clusters far apart (row i belongs to cluster i % 3), a NaN vector every 100th row, a null every 250th. */
function clustersTable(rows: number, bad = true) {
  const random = seededRandom(7)
  const centres = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIM }, () => (random() - 0.5) * 20))
  const values = new Float32Array(rows * DIM)
  for (let i = 0; i < rows; i++)
    for (let k = 0; k < DIM; k++) values[i * DIM + k] = bad && i % 100 === 3 && k === 5 ? Number.NaN : centres[i % CLUSTERS]![k]! + (random() - 0.5) * 0.5
  const ids = Array.from({ length: rows }, (_, i) => i)
  return tableOf([
    batchOf({
      id: vectorFromArray(ids, new Float32()),
      vec: { vector: withNulls(float32Vectors(values, DIM), (i) => !bad || i % 250 !== 7), nullable: true },
    }),
  ])
}

/** A variable-length list column: most vectors 8 long, every 10th 5 long. */
function mixedTable(rows: number) {
  const lists = Array.from({ length: rows }, (_, i) => Array.from({ length: i % 10 === 0 ? 5 : 8 }, (_, k) => (i % 2) * 10 + k * 0.1))
  return tableOf([batchOf({ emb: makeVector(vectorFromArray(lists, new List(new Field('item', new Float32(), true)))) })])
}

/** `rows` vectors of DIM, row i's element k `element(i, k)` (NaN allowed: the table is written whole). */
function vectorsTable(rows: number, element: (i: number, k: number) => number) {
  const values = new Float32Array(rows * DIM)
  for (let i = 0; i < rows; i++) for (let k = 0; k < DIM; k++) values[i * DIM + k] = element(i, k)
  return tableOf([batchOf({ vec: float32Vectors(values, DIM) })])
}

/** Degenerate vectors: their variance lies along one or two directions, or there is none. */
const direction = (seed: number) => {
  const random = seededRandom(seed)
  return Array.from({ length: DIM }, () => random() - 0.5)
}
const [u, w] = [direction(11), direction(12)]
const DEGENERATE = {
  collinear: vectorsTable(300, (i, k) => (i - 150) * u[k]!),
  duplicates: vectorsTable(300, (i, k) => (i % 2 === 0 ? u[k]! : w[k]!) * 3),
  plane: vectorsTable(300, (i, k) => Math.sin(i) * u[k]! * 5 + Math.cos(i * 1.7) * w[k]! + 1),
  same: vectorsTable(50, (_, k) => u[k]!),
  one: vectorsTable(1, (_, k) => u[k]!),
  nan: vectorsTable(20, (i, k) => (k === i % DIM ? Number.NaN : u[k]!)),
}

describe('embedding map (core, real Lance tables)', () => {
  let base: string
  let root: string
  let service: CatalogService
  let connection: ConnectionInfo
  const ref = (name = 'clusters') => ({ connectionId: connection.id, namespace: [] as string[], name })

  beforeAll(async () => {
    base = await makeTempDir('lcb-map-')
    root = await buildCatalog(join(base, 'catalog'), {
      tables: [
        { namespace: [], name: 'clusters', data: clustersTable(N) },
        { namespace: [], name: 'mixed', data: mixedTable(500) },
        ...Object.entries(DEGENERATE).map(([name, data]) => ({ namespace: [], name, data })),
      ],
    })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  async function map(name: string, column: string, version?: number): Promise<MapJobInfo> {
    const started = value<MapJobInfo>(await service.dispatch('map/start', { ...ref(name), column, ...(version ? { version } : {}) }))
    return service.maps.wait(started.id)
  }

  it('places every usable row, counts the NaN and null vectors, and keeps clusters apart', async () => {
    const job = await map('clusters', 'vec')
    expect(job.state).toBe('done')
    const nan = Array.from({ length: N }, (_, i) => i).filter((i) => i % 100 === 3).length
    const nulls = Array.from({ length: N }, (_, i) => i).filter((i) => i % 250 === 7 && i % 100 !== 3).length
    expect(job.result!.skipped).toEqual({ nan, nulls, wrongDimension: 0 })
    expect(job.result!.rows).toBe(N - nan - nulls)
    expect(job.result!.dimension).toBe(DIM)
    expect(job.result!.explained[0]).toBeGreaterThan(0.3)

    const coords = tableFromIPC(value<Uint8Array>(await service.dispatch('map/coords', { jobId: job.id })))
    expect(coords.numRows).toBe(job.result!.rows)
    const x = coords.getChild('x')!.toArray() as Float32Array
    const y = coords.getChild('y')!.toArray() as Float32Array
    const row = coords.getChild('row')!.toArray() as Uint32Array
    // Each row keeps its own offset: the skipped ones are missing, the rest in order.
    expect(row[0]).toBe(0)
    expect(Array.from(row).some((r) => r % 100 === 3 || r % 250 === 7)).toBe(false)
    const centre = clusterCentres(x, y, row, CLUSTERS)
    let spread = 0
    for (let i = 0; i < row.length; i++) {
      const c = centre[row[i]! % CLUSTERS]!
      spread = Math.max(spread, Math.hypot(x[i]! - c.x, y[i]! - c.y))
    }
    for (let a = 0; a < CLUSTERS; a++)
      for (let b = a + 1; b < CLUSTERS; b++) expect(Math.hypot(centre[a]!.x - centre[b]!.x, centre[a]!.y - centre[b]!.y)).toBeGreaterThan(4 * spread)
  })

  it('a UMAP map leaves off and counts the same NaN and null vectors', async () => {
    // Its scan hands whole chunks to the worker, which finds the NaNs on its own pass (few epochs: only the counts matter).
    const client = service.client(connection.id)
    const version = await client.latestVersion({ namespace: [], name: 'clusters' })
    const { summary, rows } = await umapColumn(client, ref(), version, 'vec', { sample: 1000, epochs: 5 })
    const nan = Array.from({ length: N }, (_, i) => i).filter((i) => i % 100 === 3).length
    const nulls = Array.from({ length: N }, (_, i) => i).filter((i) => i % 250 === 7 && i % 100 !== 3).length
    expect(summary.skipped).toEqual({ nan, nulls, wrongDimension: 0 })
    expect(rows.length).toBe(N - nan - nulls)
    expect(Array.from(rows).some((r) => r % 100 === 3 || r % 250 === 7)).toBe(false)
  })

  it('answers a second time from the side cache, with the same coordinates', async () => {
    const first = await map('clusters', 'vec')
    const again = value<MapJobInfo>(await service.dispatch('map/start', { ...ref(), column: 'vec' }))
    expect(again.state).toBe('done')
    expect(again.cached).toBe(true)
    // The summary comes from the kept entry (read whole and checked once; map/coords then answers those bytes).
    expect(again.result).toEqual(first.result)
    const a = value<Uint8Array>(await service.dispatch('map/coords', { jobId: first.id }))
    const b = value<Uint8Array>(await service.dispatch('map/coords', { jobId: again.id }))
    expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true)
    // The kept entry is what map/coords answers: its first 4 KiB hold the summary, its first 64 bytes do not.
    expect(a.length).toBeGreaterThan(4096)
    expect(decodeSummary(a.subarray(0, 4096))).toEqual(first.result)
    expect(decodeSummary(a.subarray(0, 64))).toBeNull()
    // A head cut at any byte is either short of the schema (null) or holds all of it (the summary), never an error.
    const cuts = Array.from({ length: 4097 }, (_, n) => decodeSummary(a.subarray(0, n)))
    const whole = cuts.findIndex((s) => s !== null)
    expect(whole).toBeGreaterThan(64)
    expect(cuts.slice(0, whole).every((s) => s === null)).toBe(true)
    expect(cuts.slice(whole).every((s) => isDeepStrictEqual(s, first.result))).toBe(true)
  })

  it('a cancelled map keeps nothing: the next start scans afresh', async () => {
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('clusters')
    // lancedb refuses NaN vectors on append (the first version was written whole, NaNs and all).
    await table.add(clustersTable(300, false))
    const version = await table.version()
    table.close()
    db.close()
    const started = value<MapJobInfo>(await service.dispatch('map/start', { ...ref(), column: 'vec', version }))
    value(await service.dispatch('jobs/cancel', { jobId: started.id }))
    expect((await service.maps.wait(started.id)).state).toBe('cancelled')
    const coords = await service.dispatch('map/coords', { jobId: started.id })
    expect(coords.ok).toBe(false)
    const again = await map('clusters', 'vec', version)
    expect(again.cached).toBe(false)
    expect(again.state).toBe('done')
    expect(again.result!.version).toBe(version)
    expect(again.result!.rows).toBeGreaterThan(N - 100)
  })

  it('counts vectors of another length in a list column', async () => {
    const job = await map('mixed', 'emb')
    expect(job.state).toBe('done')
    expect(job.result!.dimension).toBe(8)
    expect(job.result!.skipped).toEqual({ nan: 0, nulls: 0, wrongDimension: 50 })
    expect(job.result!.rows).toBe(450)
  })

  it('refuses a column that is not a vector, and a version that does not exist, in words', async () => {
    const notVector = await map('clusters', 'id')
    expect(notVector.state).toBe('failed')
    expect(notVector.error!.message).toMatch(/not a vector column/)
    const missing = await service.dispatch('map/start', { ...ref(), column: 'vec', version: 999 })
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(missing.error.message).toMatch(/no version 999/)
  })

  it('a row-position filter (`_rowoffset IN (…)`) counts and reads exactly its rows', async () => {
    const chosen = Array.from({ length: 2000 }, (_, i) => i * 3)
    const filter = `_rowoffset IN (${chosen.join(',')})`
    const view = { version: 1, filter }
    expect(value<number>(await service.dispatch('tables/count', { ...ref(), view }))).toBe(chosen.length)
    const page = tableFromIPC(value<Uint8Array>(await service.dispatch('tables/page', { ...ref(), offset: 0, limit: 5, view })))
    expect(Array.from(page.getChild('id')!.toArray() as Float32Array)).toEqual([0, 3, 6, 9, 12])
    // A later page too (Lance alone would apply the limit before this filter and miss rows).
    const later = tableFromIPC(value<Uint8Array>(await service.dispatch('tables/page', { ...ref(), offset: 1000, limit: 3, view })))
    expect(Array.from(later.getChild('id')!.toArray() as Float32Array)).toEqual([3000, 3003, 3006])
  })

  it.each([
    // One direction of variance: the first axis explains all of it (was 127–199%: every axis of the fit counted it).
    ['collinear', [1, 0]],
    ['duplicates', [1, 0]],
    // Two directions: the two axes explain all of it between them.
    ['plane', null],
    // No variance at all: nothing to explain (every row at one point).
    ['same', [0, 0]],
    ['one', [0, 0]],
  ] as const)('%s vectors: the axes explain shares of the variance, together at most all of it', async (name, expected) => {
    const job = await map(name, 'vec')
    expect(job.state).toBe('done')
    const [first, second] = job.result!.explained
    expect(first).toBeGreaterThanOrEqual(0)
    expect(second).toBeGreaterThanOrEqual(0)
    expect(first + second).toBeLessThanOrEqual(1 + 1e-9)
    if (expected) {
      expect(first).toBeCloseTo(expected[0], 6)
      expect(second).toBeCloseTo(expected[1], 6)
    } else {
      expect(first + second).toBeCloseTo(1, 6)
      expect(first).toBeGreaterThan(second)
    }
    const coords = tableFromIPC(value<Uint8Array>(await service.dispatch('map/coords', { jobId: job.id })))
    expect(coords.numRows).toBe(job.result!.rows)
    const xy = [...(coords.getChild('x')!.toArray() as Float32Array), ...(coords.getChild('y')!.toArray() as Float32Array)]
    expect(xy.every(Number.isFinite)).toBe(true)
  })

  it('vectors that all hold a NaN: refused in words, nothing placed', async () => {
    const job = await map('nan', 'vec')
    expect(job.state).toBe('failed')
    expect(job.error!.message).toMatch(/No vector of "vec" can be placed: every one sampled has a NaN/)
  })

  describe('a kept map damaged outside the app', () => {
    let cacheDir: string
    let kept: CatalogService
    let keptConnection: ConnectionInfo
    beforeAll(async () => {
      cacheDir = join(base, 'side-cache')
      kept = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore(), sideCache: new FileSideCache(cacheDir) })
      keptConnection = value<ConnectionInfo>(await kept.dispatch('connections/openDirectory', { path: root }))
    })
    afterAll(() => kept.closeAll())

    const start = (service: CatalogService) => service.dispatch('map/start', { connectionId: keptConnection.id, namespace: [], name: 'mixed', column: 'emb' })
    async function keptMap(): Promise<MapJobInfo> {
      return kept.maps.wait(value<MapJobInfo>(await start(kept)).id)
    }
    /** The one kept map's file (the cache names it by a hash of its key). */
    async function entry(): Promise<string> {
      const files = await readdir(join(cacheDir, 'map'))
      expect(files).toHaveLength(1)
      return join(cacheDir, 'map', files[0]!)
    }
    const runningMaps = async () => value<JobInfo[]>(await kept.dispatch('jobs/list', {})).filter((job) => job.kind === 'map' && job.state === 'running')
    /** The coordinates as plain arrays (x, y, row). */
    const coordsOf = (bytes: Uint8Array) => {
      const table = tableFromIPC(bytes)
      return ['x', 'y', 'row'].map((name) => Array.from(table.getChild(name)!.toArray() as ArrayLike<number>))
    }
    /** Change the first digit of a number in the kept summary (`"rows":500` → `"rows":600`), as a hand edit would. */
    async function editByte(path: string, field: string): Promise<void> {
      const file = await readFile(path)
      const at = file.indexOf(`"${field}":`) + field.length + 3
      expect(at).toBeGreaterThan(field.length + 2)
      file[at] = file[at] === 0x39 ? 0x31 : file[at]! + 1
      await writeFile(path, file)
    }

    const random = seededRandom(11)
    const prefix = (length: number) => Buffer.from(new Int32Array([-1, length]).buffer)
    const overwrite = (bytes: Buffer) => (path: string) => writeFile(path, bytes)
    it.each<[string, (path: string) => Promise<unknown>]>([
      ['random bytes', overwrite(Buffer.from(Array.from({ length: 2000 }, () => Math.floor(random() * 256))))],
      ['a schema message of 16 bytes that are not one', overwrite(Buffer.concat([prefix(16), Buffer.alloc(16, 7)]))],
      ['a negative schema length', overwrite(Buffer.concat([prefix(-100), Buffer.alloc(64, 1)]))],
      ['an Arrow stream with no summary', overwrite(Buffer.from(tableToIPC(mixedTable(3))))],
      ['nothing', overwrite(Buffer.alloc(0))],
      // Served before kept files were checked: the summary at its head read well, the coordinates came short.
      ['the entry cut short', async (path) => truncate(path, (await stat(path)).size - 100)],
      ['bytes appended', (path) => appendFile(path, Buffer.alloc(64))],
      ['a byte of the summary edited', (path) => editByte(path, 'rows')],
      ['a FIFO in its place', async (path) => (await rm(path), execFileSync('mkfifo', [path]))],
      ['a symlink to /dev/zero in its place', async (path) => (await rm(path), await symlink('/dev/zero', path))],
      ['a folder in its place', async (path) => (await rm(path), await mkdir(path))],
    ])('%s: the map is made again and kept anew, and no job is left running', { timeout: 60_000 }, async (_what, damage) => {
      const first = await keptMap()
      expect(first.state).toBe('done')
      await damage(await entry())
      const again = await keptMap()
      expect(again.state).toBe('done')
      expect(again.cached).toBe(false)
      const made = (job: MapJobInfo) => ({ ...job.result, elapsedMs: 0, computedAt: 0 })
      expect(made(again)).toEqual(made(first))
      expect(coordsOf(value<Uint8Array>(await kept.dispatch('map/coords', { jobId: again.id })))).toEqual(coordsOf(value<Uint8Array>(await kept.dispatch('map/coords', { jobId: first.id }))))
      const third = value<MapJobInfo>(await start(kept))
      expect(third.state).toBe('done')
      expect(third.cached).toBe(true)
      expect(await runningMaps()).toEqual([])
    })

    it('coordinates edited past the summary: never served; the start makes the map again at once', async () => {
      // A map longer than the head the cache checks on its own (64 KiB): 5,916 rows of 12 bytes.
      const clusters = () => kept.dispatch('map/start', { connectionId: keptConnection.id, namespace: [], name: 'clusters', column: 'vec' })
      const first = await kept.maps.wait(value<MapJobInfo>(await clusters()).id)
      const good = coordsOf(value<Uint8Array>(await kept.dispatch('map/coords', { jobId: first.id })))
      expect(good[2]!.length * 12).toBeGreaterThan(64 * 1024)
      const path = (await readdir(join(cacheDir, 'map'))).map((n) => join(cacheDir, 'map', n))
      const before = await Promise.all(path.map((p) => stat(p).then((s) => s.size)))
      const file = path[before.indexOf(Math.max(...before))]!
      const bytes = await readFile(file)
      bytes[bytes.length - 20]! ^= 0x40
      await writeFile(file, bytes)
      // The summary at its head would still read well; the whole entry is checked before "kept" is answered, so the
      // map is made again (it was answered "kept" from its head once, and then its coordinates could not be drawn).
      const again = await kept.maps.wait(value<MapJobInfo>(await clusters()).id)
      expect(again.cached).toBe(false)
      expect(coordsOf(value<Uint8Array>(await kept.dispatch('map/coords', { jobId: again.id })))).toEqual(good)
      await rm(file)
    })

    it('an entry of another map moved onto this one: made again, not shown', async () => {
      const first = await keptMap()
      const path = await entry()
      const other = value<MapJobInfo>(await kept.dispatch('map/start', { connectionId: keptConnection.id, namespace: [], name: 'clusters', column: 'vec' }))
      expect((await kept.maps.wait(other.id)).state).toBe('done')
      const otherPath = (await readdir(join(cacheDir, 'map'))).map((n) => join(cacheDir, 'map', n)).find((p) => p !== path)!
      await rename(otherPath, path)
      const again = await keptMap()
      expect(again.cached).toBe(false)
      expect(again.result!.rows).toBe(first.result!.rows)
      await rm(otherPath, { force: true })
    })

    it('a cache that cannot be read fails the start in words and leaves no job; once readable, the map opens', async () => {
      const path = await entry()
      // A file where the kind's folder should be: reading under it fails (ENOTDIR), as an unreadable disk would.
      await rm(join(cacheDir, 'map'), { recursive: true })
      await writeFile(join(cacheDir, 'map'), 'not a folder')
      const refused = await start(kept)
      expect(refused.ok).toBe(false)
      if (!refused.ok) expect(refused.error.message).toMatch(/ENOTDIR|not a directory/i)
      expect(await runningMaps()).toEqual([])
      await rm(join(cacheDir, 'map'))
      const made = await keptMap()
      expect(made.state).toBe('done')
      expect(made.cached).toBe(false)
      expect(await entry()).toBe(path)
    })
  })
})
