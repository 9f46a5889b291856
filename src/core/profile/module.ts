import { type Input, type ProfileJobInfo, type TableProfile, type TableRef } from '../../contract'
import { copyScanInfo, JobRegistry, JobsOfKind, runScan, type Job } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import type { SideCache } from '../sideCache'
import { profileView } from './run'
import { PROFILE_CACHE_KIND, decodeProfile, encodeProfile, storedProfileKey } from './stored'

export interface ProfileModuleDeps {
  /** A client that resolves a view's row set (RowSetModule.readerOf), so a lasso's Summary is of its rows. */
  client: (connectionId: string) => NamespaceClient
  /** The session's jobs, where profiles are listed, cancelled and published; a private one when absent. */
  jobs?: JobRegistry
  progressIntervalMs?: number
  /** Where finished profiles outlive the session (kind `profile`); memory only when absent. */
  sideCache?: SideCache
  /** The catalog's location for a connection (the side-cache key names the catalog, not the session's id). */
  location?: (connectionId: string) => string | undefined
}

type ProfileJob = Job<ProfileJobInfo>

/** Jobs kept for `profile/get` (finished ones beyond this are forgotten, oldest first). */
export const PROFILE_HISTORY = 100
/** Finished profiles kept (a version's profile never changes, so a kept one is always right). */
const CACHE_LIMIT = 50

function keyOf(table: TableRef, version: number, filter: string | null, rowSet: string | null): string {
  return JSON.stringify([table.connectionId, table.namespace, table.name, version, filter, rowSet])
}

/**
 * Column profiles as the service exposes them (CatalogService spreads {@link handlers}). A profile is
 * computed once per table version and filter and kept — in memory for this session, and in the side cache
 * (src/core/sideCache.ts) across sessions, keyed by the catalog's location and the version's commit (a
 * version's rows never change, so the kept answer stays right; a newer version is a new key). Only a finished
 * scan is kept: a cancelled or failed one leaves nothing behind. The jobs live in the session's job registry.
 */
export class ProfileModule extends JobsOfKind<'profile'> {
  private readonly keys = new Map<string, string>()
  private readonly cache = new Map<string, TableProfile>()

  constructor(private readonly deps: ProfileModuleDeps) {
    super('profile', deps.jobs ?? new JobRegistry({ history: { profile: PROFILE_HISTORY } }))
  }

  async start(input: Input<'profile/start'>): Promise<ProfileJobInfo> {
    const client = this.deps.client(input.connectionId)
    const table: TableRef = { connectionId: input.connectionId, namespace: [...input.namespace], name: input.name }
    const id = { namespace: table.namespace, name: table.name }
    // A view without a version reads the latest; the profile names the version it read.
    const version = input.view.version ?? (await client.latestVersion(id))
    const filter = input.view.filter?.trim() || null
    const rowSet = input.view.rowSet ?? null
    const key = keyOf(table, version, filter, rowSet)
    // One scan per view at a time (a second Summary of the same view follows the first), unless that one is being cancelled.
    for (const [jobId, k] of this.keys) {
      if (k !== key || !this.jobs.has(jobId)) continue
      const running = this.jobs.job(jobId, 'profile')
      if (running.live && !running.signal.aborted) return running.snapshot()
    }
    const job = this.jobs.create(
      'profile',
      (jobId, now) => ({ id: jobId, kind: 'profile', state: 'running', table, version, filter, rowSet, cached: false, createdAt: now, finishedAt: null, progress: { rows: 0, totalRows: null }, error: null, result: null }),
      { copy: copyScanInfo },
    )
    const { info } = job
    this.keys.set(info.id, key)
    // Forget the keys of jobs the history no longer holds.
    for (const jobId of this.keys.keys()) if (!this.jobs.has(jobId)) this.keys.delete(jobId)
    void this.run(job, client)
    job.publish()
    return job.snapshot()
  }

  /**
   * Where a view's profile is kept. Both keys name the version's commit, not only its number: a table dropped
   * and made again restarts at version 1, and its version 1 holds other rows. The commit is named by the
   * client's cheap stamp where it has one (dir: a hash of the version's manifest, one small file), else by the
   * version's commit time from `listVersions` (which reads every version: ~15–40 ms at 100 versions). The
   * side-cache key names the catalog by its location (the connection id is this session's); it is null where
   * the location or the commit cannot be had, and the profile is then kept for this session only.
   */
  private async keysOf(client: NamespaceClient, info: ProfileJobInfo, signal: AbortSignal): Promise<{ memory: string; stored: unknown[] | null; stamp: string | null }> {
    const { table, version, filter, rowSet } = info
    const id = { namespace: table.namespace, name: table.name }
    const stamp = (await client.versionStamp?.(id, version, { signal }).catch(() => null)) ?? null
    signal.throwIfAborted()
    let commit: string | number | null = stamp
    if (commit === null) {
      const versions = await client.listVersions(id, { signal }).catch(() => null)
      signal.throwIfAborted()
      commit = versions?.find((v) => v.version === version)?.timestamp ?? null
    }
    const location = this.deps.location?.(table.connectionId)
    // A row set lives for this session only (its id names nothing in the next): a lasso's profile is kept in memory.
    const stored = this.deps.sideCache && location && commit !== null && rowSet === null ? storedProfileKey(location, table, version, commit, filter) : null
    return { memory: JSON.stringify([table.connectionId, table.namespace, table.name, version, commit, filter, rowSet]), stored, stamp }
  }

  private remember(key: string, profile: TableProfile): void {
    this.cache.delete(key)
    this.cache.set(key, profile)
    while (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!)
  }

  private run(job: ProfileJob, client: NamespaceClient): Promise<void> {
    return runScan(job, async ({ signal, progress }) => {
      const { info } = job
      const { memory, stored, stamp } = await this.keysOf(client, info, signal)
      let kept = this.cache.get(memory) ?? null
      if (!kept && stored) {
        const bytes = await this.deps.sideCache!.read(PROFILE_CACHE_KIND, stored).catch(() => null)
        kept = bytes ? decodeProfile(bytes, info.table) : null
        signal.throwIfAborted()
      }
      if (kept && kept.version === info.version) {
        // Most recently used last, so the oldest is dropped first.
        this.remember(memory, kept)
        info.cached = true
        info.result = kept
        info.progress = { rows: kept.rows, totalRows: kept.rows }
        return
      }
      // A kept answer costs nothing and took no slot; a scan waits for one (queued meanwhile).
      await job.slot()
      const result = await profileView(client, info.table, info.version, info.filter, { signal, rowSet: info.rowSet, progressIntervalMs: this.deps.progressIntervalMs, onProgress: progress })
      // Only a finished scan reaches here: a cancelled or failed one threw above and writes nothing.
      signal.throwIfAborted()
      // A cache that cannot be written (disk full, read-only folder) costs a rescan next time, not this answer.
      // The stamp read again (one small file): a table dropped and made again during the scan is not kept
      // under the commit read before it.
      const id = { namespace: info.table.namespace, name: info.table.name }
      const unchanged = stamp === null || (await client.versionStamp?.(id, info.version).catch(() => null)) === stamp
      if (stored && unchanged) await this.deps.sideCache!.write(PROFILE_CACHE_KIND, stored, encodeProfile(result)).catch(() => undefined)
      if (unchanged) this.remember(memory, result)
      info.result = result
      info.progress = { rows: result.rows, totalRows: result.rows }
    }, { slotInWork: true })
  }

  readonly handlers = {
    'profile/start': (input: Input<'profile/start'>) => this.start(input),
    'profile/get': async ({ jobId }: Input<'profile/get'>) => this.get(jobId),
  }
}

