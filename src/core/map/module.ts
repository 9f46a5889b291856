import type { Input, MapJobInfo, MapSummary, TableRef } from '../../contract'
import { AppError, UMAP_SAMPLE } from '../../contract'
import { copyScanInfo, JobRegistry, JobsOfKind, runScan, type Job } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import { MemorySideCache, type SideCache } from '../sideCache'
import { decodeSummary, encodeMap, mapColumn } from './run'
import { umapColumn } from './umap'

export interface MapModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** Where the connection's catalog lives (the cache key); undefined for a connection that has none (kept by session id then). */
  location: (connectionId: string) => string | undefined
  sideCache?: SideCache
  jobs?: JobRegistry
  progressIntervalMs?: number
  /** Rows the components are fitted on (tests make it small). */
  sampleRows?: number
  /** UMAP optimisation epochs (tests make it small). */
  umapEpochs?: number
}

type MapJob = Job<MapJobInfo>

export const MAP_HISTORY = 50
const KIND = 'map'
/** How long the checked bytes of a kept map wait for the `map/coords` call that follows its `map/start`. */
const HAND_OVER_MS = 60_000

/**
 * Embedding maps as the service exposes them: one job per column and version, the finished coordinates kept in
 * the side cache under the catalog's location, the table, the version, that version's commit time and the column
 * (a table dropped and made again restarts at version 1; its commit time differs). Only a finished map is kept.
 */
export class MapModule extends JobsOfKind<'map'> {
  /** The side-cache key of each job (for `map/coords`). */
  private readonly keys = new Map<string, unknown[]>()
  private readonly cache: SideCache

  constructor(private readonly deps: MapModuleDeps) {
    super('map', deps.jobs ?? new JobRegistry({ history: { map: MAP_HISTORY } }))
    this.cache = deps.sideCache ?? new MemorySideCache()
  }

  async start(input: Input<'map/start'>): Promise<MapJobInfo> {
    const client = this.deps.client(input.connectionId)
    const table: TableRef = { connectionId: input.connectionId, namespace: [...input.namespace], name: input.name }
    const id = { namespace: table.namespace, name: table.name }
    const version = input.version ?? (await client.latestVersion(id))
    const versions = await client.listVersions(id)
    const committed = versions.find((v) => v.version === version)
    if (!committed) throw new AppError('not_found', `${table.name} has no version ${version} (it may have been cleaned up)`, { hint: 'Open the latest version and make the map again' })
    const key: unknown[] = [this.deps.location(input.connectionId) ?? `session:${input.connectionId}`, table.namespace, table.name, version, committed.timestamp, input.column]
    // A UMAP map is kept beside the PCA one (whose key is as it was before there was a choice), one per sample size.
    const umapSample = input.method === 'umap' ? (input.sample ?? UMAP_SAMPLE.default) : null
    if (umapSample !== null) key.push('umap', umapSample)
    // Read before a job exists: a cache that cannot be read then fails this call in words, and never leaves a job
    // 'running' that every later start of the same map would return.
    const kept = await this.kept(key)
    const same = JSON.stringify(key)
    for (const [jobId, k] of this.keys) {
      if (JSON.stringify(k) !== same || !this.jobs.has(jobId)) continue
      const running = this.jobs.job(jobId, 'map')
      if (running.live && !running.signal.aborted) return running.snapshot()
    }
    const job = this.jobs.create(
      'map',
      (jobId, now) => ({ id: jobId, kind: 'map', state: 'running', table, version, column: input.column, method: umapSample === null ? 'pca' : 'umap', sample: umapSample, cached: false, createdAt: now, finishedAt: null, progress: { rows: 0, totalRows: null }, error: null, result: null }),
      { copy: copyScanInfo },
    )
    const { info } = job
    this.keys.set(info.id, key)
    for (const jobId of this.keys.keys()) if (!this.jobs.has(jobId)) this.keys.delete(jobId)
    if (kept) {
      info.cached = true
      info.result = kept.summary
      info.progress = { rows: info.result.rows, totalRows: info.result.rows }
      this.handOver(info.id, kept.bytes)
      job.finish('done')
      return job.snapshot()
    }
    void this.run(job, key, client, umapSample)
    job.publish()
    return job.snapshot()
  }

  /**
   * A kept map, read whole: the side cache checks the entry against its checksum only when it reads all of it, and a
   * map answered "kept" from a checked head whose coordinates then failed their check could not be drawn. The bytes
   * read are handed to the `map/coords` call that follows (see {@link handOver}), so a reopen still reads the 12 MB of
   * a 1M-row map once. An entry that does not check or decode counts as absent: the map is made again and overwrites
   * it. An error reading the cache is thrown: the map could not be kept nor answered from it.
   */
  private async kept(key: unknown[]): Promise<{ summary: MapSummary; bytes: Uint8Array } | null> {
    const bytes = await this.cache.read(KIND, key)
    const summary = bytes && decodedOrNull(bytes)
    return summary && bytes ? { summary, bytes } : null
  }

  /** Checked bytes of kept maps just answered by `map/start`, for the `map/coords` call that follows; dropped after a minute. */
  private readonly handedOver = new Map<string, Uint8Array>()

  private handOver(jobId: string, bytes: Uint8Array): void {
    this.handedOver.set(jobId, bytes)
    setTimeout(() => this.handedOver.delete(jobId), HAND_OVER_MS).unref?.()
  }

  /** A finished map's coordinates (Arrow IPC: x, y, row). */
  async coords(jobId: string): Promise<Uint8Array> {
    const info = this.get(jobId)
    const key = this.keys.get(jobId)
    if (info.state !== 'done' || !key) throw new AppError('invalid_input', info.state === 'running' ? 'The map is still being made' : 'This map job has no coordinates (it did not finish)')
    const handed = this.handedOver.get(jobId)
    this.handedOver.delete(jobId)
    const bytes = handed ?? (await this.cache.read(KIND, key))
    if (!bytes) throw new AppError('not_found', 'The kept map was dropped from the cache', { hint: 'Open the map again to make it afresh' })
    return bytes
  }

  private run(job: MapJob, key: unknown[], client: NamespaceClient, umapSample: number | null): Promise<void> {
    return runScan(job, async ({ signal, progress }) => {
      const { info } = job
      const common = { signal, progressIntervalMs: this.deps.progressIntervalMs, onProgress: progress }
      const result =
        umapSample === null
          ? await mapColumn(client, info.table, info.version, info.column, { ...common, sampleRows: this.deps.sampleRows })
          : await umapColumn(client, info.table, info.version, info.column, { ...common, sample: umapSample, epochs: this.deps.umapEpochs })
      signal.throwIfAborted()
      // The coordinates are answered from the cache (`map/coords`): a map that cannot be kept fails in words.
      await this.cache.write(KIND, key, encodeMap(result))
      info.result = result.summary
      info.progress = { rows: result.summary.rows, totalRows: result.summary.rows }
    })
  }

  readonly handlers = {
    'map/start': (input: Input<'map/start'>) => this.start(input),
    'map/get': async ({ jobId }: Input<'map/get'>) => this.get(jobId),
    'map/coords': ({ jobId }: Input<'map/coords'>) => this.coords(jobId),
  }
}

function decodedOrNull(bytes: Uint8Array): MapSummary | null {
  try {
    return decodeSummary(bytes)
  } catch {
    return null
  }
}
