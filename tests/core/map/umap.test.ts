import { join } from 'node:path'
import { Float32, tableFromIPC, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, Result } from '../../../src/contract'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../../src/core/arrow'
import { MapModule } from '../../../src/core/map'
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

describe('UMAP map (core, real Lance table)', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  let maps: MapModule
  const ref = () => ({ connectionId: connection.id, namespace: [] as string[], name: 'clusters' })

  beforeAll(async () => {
    base = await makeTempDir('lcb-umap-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'clusters', data: clustersTable(N) }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    // The service's own module with fewer epochs: the layout settles enough for three clusters, the test stays short.
    maps = new MapModule({ client: (id) => service.client(id), location: () => root, umapEpochs: 80 })
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

  // Through the service: the bound is checked where requests come in.
  it('refuses a sample size out of bounds, in words', async () => {
    for (const sample of [50, 1_000_000, 1500.5]) {
      const result = await service.dispatch('map/start', { ...ref(), column: 'vec', method: 'umap', sample })
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/UMAP sample is a whole number of rows from 1,000 to 20,000/) })
    }
  })
})
