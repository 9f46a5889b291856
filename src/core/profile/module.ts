import { type Input, type ProfileJobInfo, type TableProfile, type TableRef } from '../../contract'
import { toAppError } from '../errors'
import { JobRegistry, JobsOfKind, type Job } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import { profileView } from './run'

export interface ProfileModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** The session's jobs, where profiles are listed, cancelled and published; a private one when absent. */
  jobs?: JobRegistry
  progressIntervalMs?: number
}

type ProfileJob = Job<ProfileJobInfo>

/** Jobs kept for `profile/get` (finished ones beyond this are forgotten, oldest first). */
export const PROFILE_HISTORY = 100
/** Finished profiles kept (a version's profile never changes, so a kept one is always right). */
const CACHE_LIMIT = 50

function keyOf(table: TableRef, version: number, filter: string | null): string {
  return JSON.stringify([table.connectionId, table.namespace, table.name, version, filter])
}

/**
 * Column profiles as the service exposes them (CatalogService spreads {@link handlers}). A profile is
 * computed once per table version and filter and kept in memory for this session (a version's rows never
 * change, so the kept answer stays right; a newer version is a new key). Only a finished scan is kept: a
 * cancelled or failed one leaves nothing behind. The jobs live in the session's job registry (src/core/jobs).
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
    const key = keyOf(table, version, filter)
    // One scan per view at a time (a second Summary of the same view follows the first), unless that one is being cancelled.
    for (const [jobId, k] of this.keys) {
      if (k !== key || !this.jobs.has(jobId)) continue
      const running = this.jobs.job(jobId, 'profile')
      if (running.live && !running.signal.aborted) return running.snapshot()
    }
    const job = this.jobs.create(
      'profile',
      (jobId, now) => ({ id: jobId, kind: 'profile', state: 'running', table, version, filter, cached: false, createdAt: now, finishedAt: null, progress: { rows: 0, totalRows: null }, error: null, result: null }),
      { copy },
    )
    const { info } = job
    this.keys.set(info.id, key)
    // Forget the keys of jobs the history no longer holds.
    for (const jobId of this.keys.keys()) if (!this.jobs.has(jobId)) this.keys.delete(jobId)
    const kept = this.cache.get(key)
    if (kept) {
      // Most recently used last, so the oldest is dropped first.
      this.cache.delete(key)
      this.cache.set(key, kept)
      info.cached = true
      info.result = kept
      info.progress = { rows: kept.rows, totalRows: kept.rows }
      job.finish('done')
      return job.snapshot()
    }
    void this.run(job, key, client)
    job.publish()
    return job.snapshot()
  }

  private async run(job: ProfileJob, key: string, client: NamespaceClient): Promise<void> {
    // Let `start` return (and publish "running") before the scan begins.
    await Promise.resolve()
    const { info, signal } = job
    try {
      signal.throwIfAborted()
      const result = await profileView(client, info.table, info.version, info.filter, {
        signal,
        progressIntervalMs: this.deps.progressIntervalMs,
        onProgress: (progress) => {
          if (info.state !== 'running') return
          info.progress = progress
          job.publish()
        },
      })
      this.cache.set(key, result)
      while (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!)
      info.result = result
      info.progress = { rows: result.rows, totalRows: result.rows }
      job.finish('done')
    } catch (error) {
      const e = toAppError(error)
      if (signal.aborted || e.code === 'cancelled') job.finish('cancelled')
      else job.finish('failed', e)
    }
  }

  readonly handlers = {
    'profile/start': (input: Input<'profile/start'>) => this.start(input),
    'profile/get': async ({ jobId }: Input<'profile/get'>) => this.get(jobId),
  }
}

/** The profile itself is shared (never changed once made); the job's own fields are copied. */
function copy(info: ProfileJobInfo): ProfileJobInfo {
  return { ...info, table: { ...info.table, namespace: [...info.table.namespace] }, progress: { ...info.progress } }
}
