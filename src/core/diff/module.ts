import type { DiffJobInfo, Input, TableRef } from '../../contract'
import { toAppError } from '../errors'
import { JobRegistry, JobsOfKind, type Job } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import { diffVersions } from './run'

export interface DiffModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** The session's jobs; a private registry when absent. */
  jobs?: JobRegistry
  progressIntervalMs?: number
}

/** Finished comparisons kept for `diff/get` (their keys are held with them). */
export const DIFF_HISTORY = 20

/**
 * Version comparisons as jobs (`diff/start`, `diff/get`): each one streams both versions (src/core/diff/run.ts)
 * and keeps only a finished result; a cancelled or failed one has none.
 */
export class DiffModule extends JobsOfKind<'diff'> {
  constructor(private readonly deps: DiffModuleDeps) {
    super('diff', deps.jobs ?? new JobRegistry({ history: { diff: DIFF_HISTORY } }))
  }

  async start(input: Input<'diff/start'>): Promise<DiffJobInfo> {
    const client = this.deps.client(input.connectionId)
    const table: TableRef = { connectionId: input.connectionId, namespace: [...input.namespace], name: input.name }
    const job = this.jobs.create(
      'diff',
      (id, now) => ({ id, kind: 'diff', state: 'running', table, from: input.from, to: input.to, key: input.key, createdAt: now, finishedAt: null, progress: { rows: 0, totalRows: null }, error: null, result: null }),
      { copy },
    )
    void this.run(job, client)
    job.publish()
    return job.snapshot()
  }

  private async run(job: Job<DiffJobInfo>, client: NamespaceClient): Promise<void> {
    // Let `start` return (and publish "running") before the scan begins.
    await Promise.resolve()
    const { info, signal } = job
    try {
      signal.throwIfAborted()
      const result = await diffVersions(client, info.table, info.from, info.to, info.key, {
        signal,
        progressIntervalMs: this.deps.progressIntervalMs,
        onProgress: (progress) => {
          if (info.state !== 'running') return
          info.progress = progress
          job.publish()
        },
      })
      signal.throwIfAborted()
      info.result = result
      info.progress = { rows: result.rows.from + result.rows.to, totalRows: result.rows.from + result.rows.to }
      job.finish('done')
    } catch (error) {
      const e = toAppError(error)
      if (signal.aborted || e.code === 'cancelled') job.finish('cancelled')
      else job.finish('failed', e)
    }
  }

  readonly handlers = {
    'diff/start': (input: Input<'diff/start'>) => this.start(input),
    'diff/get': async ({ jobId }: Input<'diff/get'>) => this.get(jobId),
  }
}

/** The result is shared (never changed once made); the job's own fields are copied. */
function copy(info: DiffJobInfo): DiffJobInfo {
  return { ...info, table: { ...info.table, namespace: [...info.table.namespace] }, progress: { ...info.progress } }
}
