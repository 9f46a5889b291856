import { randomBytes } from 'node:crypto'
import { AppError, type IndexJobInfo, type IndexSpec, type TableRef } from '../../contract'
import { toAppError } from '../errors'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { indexExists } from '../namespace/errors'
import { retryConflicts, TableWrites } from './tableWrites'

export interface IndexJobSpec {
  client: NamespaceClient
  table: TableRef
  index: IndexSpec & { name: string }
}

interface Job {
  info: IndexJobInfo
  settled: Promise<IndexJobInfo>
}

const HISTORY_LIMIT = 200

/**
 * Index builds as jobs. Lance cannot stop a build once started (lancedb 0.31 has no abort and no progress),
 * so Cancel marks the job, the build step runs to its end, and the new index is dropped again: the table
 * ends with the indexes it had (plus versions that change no data).
 */
export class IndexJobs {
  private readonly jobs: Job[] = []

  private readonly writes: TableWrites

  constructor(private readonly options: { emit: (job: IndexJobInfo) => void; writes?: TableWrites }) {
    this.writes = options.writes ?? new TableWrites()
  }

  /** Checks the name up front (an existing index is refused before any job exists), then builds in the background. */
  async start(spec: IndexJobSpec): Promise<IndexJobInfo> {
    const id = tableId(spec.table)
    if (!spec.index.replace && (await spec.client.listIndexes(id)).some((x) => x.name === spec.index.name)) throw indexExists(spec.index.name)
    if (this.jobs.some((j) => j.info.state === 'running' && sameTable(j.info.table, spec.table) && j.info.index.name === spec.index.name)) throw indexExists(spec.index.name)
    const now = Date.now()
    const info: IndexJobInfo = {
      id: `i${randomBytes(6).toString('base64url')}`,
      kind: 'index',
      state: 'running',
      table: { connectionId: spec.table.connectionId, namespace: [...spec.table.namespace], name: spec.table.name },
      index: { name: spec.index.name, type: spec.index.type, column: spec.index.column },
      cancelling: false,
      createdAt: now,
      startedAt: now,
      finishedAt: null,
      error: null,
    }
    const job: Job = { info, settled: Promise.resolve(info) }
    job.settled = this.run(job, spec)
    this.jobs.push(job)
    this.trim()
    this.publish(job)
    return copy(info)
  }

  list(): IndexJobInfo[] {
    return this.jobs.map((j) => copy(j.info))
  }

  wait(jobId: string): Promise<IndexJobInfo> {
    return this.find(jobId).settled
  }

  cancel(jobId: string): void {
    const job = this.find(jobId)
    if (job.info.state !== 'running' || job.info.cancelling) return
    job.info.cancelling = true
    this.publish(job)
  }

  async close(): Promise<void> {
    for (const job of this.jobs) if (job.info.state === 'running') job.info.cancelling = true
    await Promise.allSettled(this.jobs.map((j) => j.settled))
  }

  private find(jobId: string): Job {
    const job = this.jobs.find((j) => j.info.id === jobId)
    if (!job) throw new AppError('not_found', 'There is no such index job', { hint: 'It may have been removed from the history' })
    return job
  }

  private async run(job: Job, spec: IndexJobSpec): Promise<IndexJobInfo> {
    // Let `start` return (and publish "running") before the build begins.
    await Promise.resolve()
    const id = tableId(spec.table)
    try {
      // One write per table at a time (TableWrites): a build queued behind another says what it waits for.
      await this.writes.build(
        spec.table,
        spec.index.name,
        async () => {
          if (job.info.waiting !== undefined) {
            delete job.info.waiting
            job.info.startedAt = Date.now()
            this.publish(job)
          }
          if (job.info.cancelling) return
          // Another writer's commit (outside the app) can preempt the build; Lance then asks for a retry.
          await retryConflicts(`the build of index ${spec.index.name}`, async (attempt) => {
            if (attempt > 1) {
              job.info.attempts = attempt
              this.publish(job)
            }
            if (job.info.cancelling) return
            await spec.client.createIndex(id, spec.index)
          })
          if (job.info.cancelling) await spec.client.dropIndex(id, spec.index.name).catch(() => undefined)
        },
        (what) => {
          job.info.waiting = `Waiting for ${what} to finish on this table`
          this.publish(job)
        },
      )
      this.finish(job, job.info.cancelling ? 'cancelled' : 'done', null)
    } catch (error) {
      this.finish(job, job.info.cancelling ? 'cancelled' : 'failed', job.info.cancelling ? null : toAppError(error))
    }
    return copy(job.info)
  }

  private finish(job: Job, state: 'done' | 'failed' | 'cancelled', error: AppError | null): void {
    job.info.state = state
    job.info.finishedAt = Date.now()
    job.info.error = error ? error.toData() : null
    this.publish(job)
  }

  private publish(job: Job): void {
    try {
      this.options.emit(copy(job.info))
    } catch {
      // A broken listener must not break the build.
    }
  }

  private trim(): void {
    while (this.jobs.length > HISTORY_LIMIT) {
      const index = this.jobs.findIndex((j) => j.info.finishedAt !== null)
      if (index < 0) break
      this.jobs.splice(index, 1)
    }
  }
}

const tableId = (t: TableRef): TableId => ({ namespace: [...t.namespace], name: t.name })
const sameTable = (a: TableRef, b: TableRef) => a.connectionId === b.connectionId && a.name === b.name && a.namespace.join('\u0000') === b.namespace.join('\u0000')
const copy = (info: IndexJobInfo): IndexJobInfo => ({ ...info, table: { ...info.table, namespace: [...info.table.namespace] }, index: { ...info.index }, error: info.error ? { ...info.error } : null })
