import type { DiffJobInfo, Input, TableRef } from '../../contract'
import { copyScanInfo, JobRegistry, JobsOfKind, runScan, type Job } from '../jobs'
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
      { copy: copyScanInfo },
    )
    void this.run(job, client)
    job.publish()
    return job.snapshot()
  }

  private run(job: Job<DiffJobInfo>, client: NamespaceClient): Promise<void> {
    return runScan(job, async ({ signal, progress }) => {
      const { info } = job
      const result = await diffVersions(client, info.table, info.from, info.to, info.key, { signal, progressIntervalMs: this.deps.progressIntervalMs, onProgress: progress })
      signal.throwIfAborted()
      info.result = result
      info.progress = { rows: result.rows.from + result.rows.to, totalRows: result.rows.from + result.rows.to }
    })
  }

  readonly handlers = {
    'diff/start': (input: Input<'diff/start'>) => this.start(input),
    'diff/get': async ({ jobId }: Input<'diff/get'>) => this.get(jobId),
  }
}

