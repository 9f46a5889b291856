import { isLiveJob, type IndexJobInfo, type IndexSpec, type TableRef } from '../../contract'
import { toAppError } from '../errors'
import { JobsOfKind, type Job, type JobRegistry } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { indexExists } from '../namespace/errors'
import { retryConflicts, TableWrites } from './tableWrites'

export interface IndexJobSpec {
  client: NamespaceClient
  table: TableRef
  index: IndexSpec & { name: string }
}

/**
 * Index builds as jobs in the session's job registry (src/core/jobs). Lance cannot stop a build once started
 * (lancedb 0.31 has no abort and no progress), so a cancel (the job's AbortSignal) marks the job `cancelling`, the
 * build step runs to its end, and the new index is dropped again: the table ends with the indexes it had (plus
 * versions that change no data).
 */
export class IndexJobs extends JobsOfKind<'index'> {
  private readonly writes: TableWrites

  constructor(options: { jobs?: JobRegistry; writes?: TableWrites } = {}) {
    super('index', options.jobs)
    this.writes = options.writes ?? new TableWrites()
  }

  /** Checks the name up front (an existing index is refused before any job exists), then builds in the background. */
  async start(spec: IndexJobSpec): Promise<IndexJobInfo> {
    const id = tableId(spec.table)
    if (!spec.index.replace && (await spec.client.listIndexes(id)).some((x) => x.name === spec.index.name)) throw indexExists(spec.index.name)
    if (this.list().some((j) => isLiveJob(j) && sameTable(j.table, spec.table) && j.index.name === spec.index.name)) throw indexExists(spec.index.name)
    const job = this.jobs.create(
      'index',
      (jobId, now) => ({
        id: jobId,
        kind: 'index',
        state: 'running',
        table: { connectionId: spec.table.connectionId, namespace: [...spec.table.namespace], name: spec.table.name },
        index: { name: spec.index.name, type: spec.index.type, column: spec.index.column },
        cancelling: false,
        createdAt: now,
        startedAt: now,
        finishedAt: null,
        error: null,
      }),
      { copy },
    )
    job.signal.addEventListener('abort', () => {
      if (job.info.state !== 'running') return
      job.info.cancelling = true
      job.publish()
    })
    void this.run(job, spec)
    job.publish()
    return job.snapshot()
  }

  private async run(job: Job<IndexJobInfo>, spec: IndexJobSpec): Promise<void> {
    // Let `start` return (and publish its record) before the build begins.
    await Promise.resolve()
    const id = tableId(spec.table)
    const { info } = job
    try {
      // Queued until the session's budget has a slot (src/core/jobs/budget.ts); a cancel meanwhile ends it there.
      await job.slot()
      // One write per table at a time (TableWrites): a build queued behind another says what it waits for.
      await this.writes.build(
        spec.table,
        spec.index.name,
        async () => {
          if (info.waiting !== undefined) {
            delete info.waiting
            info.startedAt = Date.now()
            job.publish()
          }
          if (info.cancelling) return
          // Another writer's commit (outside the app) can preempt the build; Lance then asks for a retry.
          await retryConflicts(`the build of index ${spec.index.name}`, async (attempt) => {
            if (attempt > 1) {
              info.attempts = attempt
              job.publish()
            }
            if (info.cancelling) return
            await spec.client.createIndex(id, spec.index)
          })
          if (info.cancelling) await spec.client.dropIndex(id, spec.index.name).catch(() => undefined)
        },
        (what) => {
          info.waiting = `Waiting for ${what} to finish on this table`
          job.publish()
        },
      )
      job.finish(info.cancelling ? 'cancelled' : 'done')
    } catch (error) {
      job.finish(info.cancelling ? 'cancelled' : 'failed', info.cancelling ? null : toAppError(error))
    }
  }
}

const tableId = (t: TableRef): TableId => ({ namespace: [...t.namespace], name: t.name })
const sameTable = (a: TableRef, b: TableRef) => a.connectionId === b.connectionId && a.name === b.name && a.namespace.join('\u0000') === b.namespace.join('\u0000')
const copy = (info: IndexJobInfo): IndexJobInfo => ({ ...info, table: { ...info.table, namespace: [...info.table.namespace] }, index: { ...info.index }, error: info.error ? { ...info.error } : null })
