import { join } from 'node:path'
import { Float32, tableFromIPC, vectorFromArray } from 'apache-arrow'
import { UMAP } from 'umap-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mapProgressSchema, type ConnectionInfo, type JobInfo, type MapJobInfo, type MapPhase, type Result } from '../../../src/contract'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../../src/core/arrow'
import { JobRegistry } from '../../../src/core/jobs'
import { MapModule } from '../../../src/core/map'
import { GRAPH_SOURCE } from '../../../src/core/map/graphSource'
import { MemorySideCache } from '../../../src/core/sideCache'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { clusterCentres } from './clusters'

const N = 3000
const DIM = 16
const CLUSTERS = 3
/** The smallest sample a user may ask for: two thirds of the rows are then placed by their neighbours. */
const SAMPLE = 1000

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** Three well-separated clusters (row i belongs to cluster i % 3), spread enough inside that UMAP has structure to lay out. */
function clustersTable(rows: number) {
  const random = seededRandom(11)
  const centres = Array.from({ length: CLUSTERS }, () => Array.from({ length: DIM }, () => (random() - 0.5) * 40))
  const values = new Float32Array(rows * DIM)
  for (let i = 0; i < rows; i++) for (let k = 0; k < DIM; k++) values[i * DIM + k] = centres[i % CLUSTERS]![k]! + (random() - 0.5) * 2
  return tableOf([batchOf({ id: vectorFromArray(Array.from({ length: rows }, (_, i) => i), new Float32()), vec: float32Vectors(values, DIM) })])
}

/** The real memory cache, counting what is written to it. */
class CountingCache extends MemorySideCache {
  writes = 0
  override async write(kind: string, key: readonly unknown[], data: Uint8Array) {
    this.writes++
    await super.write(kind, key, data)
  }
}

/** A map module whose every progress event is heard (no throttle) and passed to `onEvent`. */
function heardModule(deps: Omit<ConstructorParameters<typeof MapModule>[0], 'jobs' | 'progressIntervalMs'>, onEvent?: (job: MapJobInfo, module: MapModule) => void) {
  const events: MapJobInfo[] = []
  const jobs = new JobRegistry({
    emit: (job: JobInfo) => {
      if (job.kind !== 'map') return
      events.push(job)
      onEvent?.(job, module)
    },
  })
  const module: MapModule = new MapModule({ ...deps, jobs, progressIntervalMs: 0 })
  return { module, events }
}

describe('UMAP map (core, real Lance table)', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  let maps: MapModule
  let events: MapJobInfo[]
  const ref = () => ({ connectionId: connection.id, namespace: [] as string[], name: 'clusters' })

  beforeAll(async () => {
    base = await makeTempDir('lcb-umap-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'clusters', data: clustersTable(N) }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    // The service's own module with fewer epochs: the layout settles enough for three clusters, the test stays short.
    ;({ module: maps, events } = heardModule({ client: (id) => service.client(id), location: () => root, umapEpochs: 80 }))
  })
  afterAll(async () => {
    await maps.close()
    await service.closeAll()
    await removeDir(base)
  })

  const start = (input: Record<string, unknown>) => maps.start({ ...ref(), column: 'vec', ...input })
  const coordsOf = async (jobId: string) => tableFromIPC(await maps.coords(jobId))

  it('lays the sample out with UMAP and places every other row with its cluster; kept beside the PCA map', async () => {
    const job = await maps.wait((await start({ method: 'umap', sample: SAMPLE })).id)
    expect(job.state).toBe('done')
    expect(job.result).toMatchObject({ method: 'umap', sample: SAMPLE, rows: N, projection: null })
    const coords = await coordsOf(job.id)
    const x = coords.getChild('x')!.toArray() as Float32Array
    const y = coords.getChild('y')!.toArray() as Float32Array
    const row = coords.getChild('row')!.toArray() as Uint32Array
    const centre = clusterCentres(x, y, row, CLUSTERS)
    // Every row, sampled or placed by its neighbours, is nearer its own cluster's centre than any other's.
    let strays = 0
    for (let i = 0; i < N; i++) {
      const own = row[i]! % CLUSTERS
      const d = centre.map((c) => Math.hypot(x[i]! - c.x, y[i]! - c.y))
      if (d.some((v, c) => c !== own && v <= d[own]!)) strays++
    }
    expect(strays).toBe(0)

    // On the way it said each step in order as it went: the sample read, the PCA, the neighbours, UMAP's graph,
    // every epoch of 80, then the rows placed; every event is what the contract says one is.
    const running = events.filter((e) => e.id === job.id && e.state === 'running')
    for (const e of running) expect(mapProgressSchema.safeParse(e.progress).success).toBe(true)
    const phases = running.map((e) => e.progress.phase).filter((p): p is MapPhase => p !== undefined)
    expect(phases.map((p) => p.name).filter((name, i, all) => name !== all[i - 1])).toEqual(['sample', 'basis', 'neighbours', 'graph', 'epochs', 'place'])
    const epochs = phases.filter((p) => p.name === 'epochs')
    expect(epochs.map((p) => p.done)).toEqual(Array.from({ length: 81 }, (_, i) => i))
    expect(new Set(epochs.map((p) => p.total))).toEqual(new Set([80]))
    expect(phases.filter((p) => p.name === 'sample').at(-1)).toEqual({ name: 'sample', done: SAMPLE, total: SAMPLE })
    const place = phases.filter((p) => p.name === 'place')
    expect(place.every((p, i) => p.total === N && p.done >= (place[i - 1]?.done ?? 0))).toBe(true)
    expect(running.at(-1)!.progress.totalRows).toBe(N)

    // The PCA map of the same version is kept apart, and each answers again from the side cache.
    const pca = await maps.wait((await start({})).id)
    expect(pca.result).toMatchObject({ method: 'pca' })
    expect((await start({})).cached).toBe(true)
    const again = await start({ method: 'umap', sample: SAMPLE })
    expect(again).toMatchObject({ cached: true, state: 'done', result: { method: 'umap', sample: SAMPLE } })
    expect(Buffer.from(await maps.coords(again.id)).equals(Buffer.from(await maps.coords(job.id)))).toBe(true)
  })

  it('a cancelled UMAP map keeps nothing', async () => {
    const started = await start({ method: 'umap', sample: 1200 })
    maps.cancel(started.id)
    expect((await maps.wait(started.id)).state).toBe('cancelled')
    await expect(maps.coords(started.id)).rejects.toThrow(/did not finish/)
    const again = await start({ method: 'umap', sample: 1200 })
    expect(again.cached).toBe(false)
    maps.cancel(again.id)
    await maps.wait(again.id)
  })

  it('a cancel during the UMAP fit stops the worker and keeps nothing', async () => {
    // A fit of a million epochs ends only if the cancel terminates the worker in the middle of it.
    const cache = new CountingCache()
    let cancelledAt: MapPhase | null = null
    const heard = heardModule({ client: (id) => service.client(id), location: () => 'cancel', sideCache: cache, umapEpochs: 1_000_000 }, (job, module) => {
      const phase = job.progress.phase
      if (job.state !== 'running' || phase?.name !== 'epochs' || phase.done < 2 || cancelledAt) return
      cancelledAt = phase
      queueMicrotask(() => module.cancel(job.id))
    })
    try {
      const started = await heard.module.start({ ...ref(), column: 'vec', method: 'umap', sample: SAMPLE })
      const ended = await heard.module.wait(started.id)
      expect(ended).toMatchObject({ state: 'cancelled', error: null, result: null })
      expect(cancelledAt).toMatchObject({ name: 'epochs', total: 1_000_000 })
      expect(heard.events.some((e) => e.progress.phase?.name === 'place')).toBe(false)
      expect(cache.writes).toBe(0)
      await expect(heard.module.coords(started.id)).rejects.toThrow(/did not finish/)
    } finally {
      await heard.module.close()
    }
  })

  // Through the service: the bound is checked where requests come in.
  it('refuses a sample size out of bounds, in words', async () => {
    for (const sample of [50, 1_000_000, 1500.5]) {
      const result = await service.dispatch('map/start', { ...ref(), column: 'vec', method: 'umap', sample })
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/UMAP sample is a whole number of rows from 1,000 to 20,000/) })
    }
  })
})

describe("the UMAP worker's fuzzy graph", () => {
  // The worker's source, run here as the worker runs it (a string; see graphSource.ts).
  const fuzzyGraph = new Function(`${GRAPH_SOURCE}\nreturn fuzzyGraph`)() as (umap: UMAP, n: number) => { getAll(): unknown[] }

  it('is umap-js\'s own graph, and lays out the very same points', () => {
    const n = 150
    const dim = 8
    const random = seededRandom(5)
    const points = Array.from({ length: n }, () => Array.from({ length: dim }, () => random()))
    const m = 15
    const indices: number[][] = []
    const distances: number[][] = []
    for (let i = 0; i < n; i++) {
      const near = points.map((p, j) => ({ j, d: Math.hypot(...p.map((v, q) => v - points[i]![q]!)) })).sort((a, b) => a.d - b.d || a.j - b.j)
      indices.push(near.slice(0, m).map((x) => x.j))
      distances.push(near.slice(0, m).map((x) => x.d))
    }
    const fitted = (ours: boolean) => {
      const umap = new UMAP({ nComponents: 2, nNeighbors: m, nEpochs: 20, random: seededRandom(9) })
      umap.setPrecomputedKNN(indices, distances)
      if (ours) (umap as unknown as { fuzzySimplicialSet: () => unknown }).fuzzySimplicialSet = () => fuzzyGraph(umap, n)
      const epochs = umap.initializeFit(points)
      const graph = (umap as unknown as { graph: { getAll(): unknown[] } }).graph.getAll()
      for (let e = 0; e < epochs; e++) umap.step()
      return { graph, embedding: umap.getEmbedding() }
    }
    const theirs = fitted(false)
    const ours = fitted(true)
    expect(ours.graph.length).toBeGreaterThan(n * m)
    expect(ours.graph).toEqual(theirs.graph)
    expect(ours.embedding).toEqual(theirs.embedding)
  })
})
