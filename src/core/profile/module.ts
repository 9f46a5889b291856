import { randomBytes } from 'node:crypto'
import { AppError, type Input, type ProfileJobInfo, type TableProfile, type TableRef } from '../../contract'
import { toAppError } from '../errors'
import type { NamespaceClient } from '../namespace/client'
import { profileView } from './run'

export interface ProfileModuleDeps {
  client: (connectionId: string) => NamespaceClient
  emit: (job: ProfileJobInfo) => void
  progressIntervalMs?: number
}

interface Job {
  info: ProfileJobInfo
  key: string
  controller: AbortController
  settled: Promise<ProfileJobInfo>
}

/** Jobs kept for `profile/get` (finished ones beyond this are forgotten, oldest first). */
const HISTORY_LIMIT = 100
/** Finished profiles kept (a version's profile never changes, so a kept one is always right). */
const CACHE_LIMIT = 50

function keyOf(table: TableRef, version: number, filter: string | null): string {
  return JSON.stringify([table.connectionId, table.namespace, table.name, version, filter])
}

/**
 * Column profiles as the service exposes them (CatalogService spreads {@link handlers}). A profile is
 * computed once per table version and filter and kept in memory for this session (a version's rows never
 * change, so the kept answer stays right; a newer version is a new key). Only a finished scan is kept: a
 * cancelled or failed one leaves nothing behind.
 */
export class ProfileModule {
  private readonly jobs: Job[] = []
  private readonly cache = new Map<string, TableProfile>()

  constructor(private readonly deps: ProfileModuleDeps) {}

  async start(input: Input<'profile/start'>): Promise<ProfileJobInfo> {
    const client = this.deps.client(input.connectionId)
    const table: TableRef = { connectionId: input.connectionId, namespace: [...input.namespace], name: input.name }
    const id = { namespace: table.namespace, name: table.name }
    // A view without a version reads the latest; the profile names the version it read.
    const version = input.view.version ?? (await client.latestVersion(id))
    const filter = input.view.filter?.trim() || null
    const key = keyOf(table, version, filter)
    // One scan per view at a time (a second Summary of the same view follows the first), unless that one is being cancelled.
    const running = this.jobs.find((j) => j.key === key && j.info.state === 'running' && !j.controller.signal.aborted)
    if (running) return this.copy(running.info)
    const info: ProfileJobInfo = {
      id: `p${randomBytes(6).toString('base64url')}`,
      kind: 'profile',
      state: 'running',
      table,
      version,
      filter,
      cached: false,
      createdAt: Date.now(),
      finishedAt: null,
      progress: { rows: 0, totalRows: null },
      error: null,
      result: null,
    }
    const controller = new AbortController()
    const job: Job = { info, key, controller, settled: Promise.resolve(info) }
    this.jobs.push(job)
    this.trim()
    const kept = this.cache.get(key)
    if (kept) {
      // Most recently used last, so the oldest is dropped first.
      this.cache.delete(key)
      this.cache.set(key, kept)
      info.cached = true
      info.result = kept
      info.progress = { rows: kept.rows, totalRows: kept.rows }
      this.finish(job, 'done', null)
      return this.copy(info)
    }
    job.settled = this.run(job, client)
    this.publish(job)
    return this.copy(info)
  }

  get(jobId: string): ProfileJobInfo {
    return this.copy(this.find(jobId).info)
  }

  wait(jobId: string): Promise<ProfileJobInfo> {
    return this.find(jobId).settled
  }

  cancel(jobId: string): void {
    const job = this.find(jobId)
    if (job.info.state === 'running') job.controller.abort()
  }

  async close(): Promise<void> {
    for (const job of this.jobs) if (job.info.state === 'running') job.controller.abort()
    await Promise.allSettled(this.jobs.map((j) => j.settled))
  }

  private async run(job: Job, client: NamespaceClient): Promise<ProfileJobInfo> {
    // Let `start` return (and publish "running") before the scan begins.
    await Promise.resolve()
    const { info, controller } = job
    try {
      controller.signal.throwIfAborted()
      const result = await profileView(client, info.table, info.version, info.filter, {
        signal: controller.signal,
        progressIntervalMs: this.deps.progressIntervalMs,
        onProgress: (progress) => {
          if (info.state !== 'running') return
          info.progress = progress
          this.publish(job)
        },
      })
      this.cache.set(job.key, result)
      while (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!)
      info.result = result
      info.progress = { rows: result.rows, totalRows: result.rows }
      this.finish(job, 'done', null)
    } catch (error) {
      const e = toAppError(error)
      if (controller.signal.aborted || e.code === 'cancelled') this.finish(job, 'cancelled', null)
      else this.finish(job, 'failed', e)
    }
    return this.copy(info)
  }

  private find(jobId: string): Job {
    const job = this.jobs.find((j) => j.info.id === jobId)
    if (!job) throw new AppError('not_found', 'There is no such summary job', { hint: 'Open the Summary again' })
    return job
  }

  private finish(job: Job, state: 'done' | 'failed' | 'cancelled', error: AppError | null): void {
    job.info.state = state
    job.info.finishedAt = Date.now()
    job.info.error = error ? error.toData() : null
    this.publish(job)
  }

  private publish(job: Job): void {
    try {
      this.deps.emit(this.copy(job.info))
    } catch {
      // A broken listener must not break the job.
    }
  }

  /** The profile itself is shared (never changed once made); the job's own fields are copied. */
  private copy(info: ProfileJobInfo): ProfileJobInfo {
    return { ...info, table: { ...info.table, namespace: [...info.table.namespace] }, progress: { ...info.progress } }
  }

  private trim(): void {
    while (this.jobs.length > HISTORY_LIMIT) {
      const index = this.jobs.findIndex((j) => j.info.finishedAt !== null)
      if (index < 0) break
      this.jobs.splice(index, 1)
    }
  }

  readonly handlers = {
    'profile/start': (input: Input<'profile/start'>) => this.start(input),
    'profile/get': async ({ jobId }: Input<'profile/get'>) => this.get(jobId),
    'profile/cancel': async ({ jobId }: Input<'profile/cancel'>) => {
      this.cancel(jobId)
      return null
    },
  }
}
