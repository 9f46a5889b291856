import type { ExportFormat, ExportJobInfo, TableRef, TableViewSpec } from '../../contract'
import { toAppError } from '../errors'
import { JobsOfKind, type Job, type JobRegistry } from '../jobs'
import type { NamespaceClient } from '../namespace/client'
import { exportView } from './run'

export interface ExportJobSpec {
  client: NamespaceClient
  source: TableRef
  view: TableViewSpec
  format: ExportFormat
  /** The file to write. */
  path: string
  fileName: string
  download: boolean
}

/**
 * Export jobs: each runs as soon as the session's budget has a slot for it (queued until then; exports read, so
 * they do not wait for imports as such) and lives in the session's job registry (src/core/jobs), which publishes its throttled progress and keeps it in the
 * history when it ends.
 */
export class ExportJobs extends JobsOfKind<'export'> {
  private readonly specs = new Map<string, ExportJobSpec>()

  constructor(private readonly options: { jobs?: JobRegistry; progressIntervalMs?: number; onSettled?: (job: ExportJobInfo) => void } = {}) {
    super('export', options.jobs)
  }

  start(spec: ExportJobSpec): ExportJobInfo {
    const job = this.jobs.create(
      'export',
      (id, now) => ({
        id,
        kind: 'export',
        state: 'running',
        format: spec.format,
        fileName: spec.fileName,
        source: { connectionId: spec.source.connectionId, namespace: [...spec.source.namespace], name: spec.source.name },
        download: spec.download,
        createdAt: now,
        startedAt: now,
        finishedAt: null,
        progress: { rows: 0, totalRows: null, bytesWritten: 0, rowsPerSecond: 0, bytesPerSecond: 0 },
        error: null,
        result: null,
      }),
      { copy, onSettled: (info) => this.options.onSettled?.(info) },
    )
    this.specs.set(job.info.id, spec)
    // Forget the specs of exports the history no longer holds.
    for (const id of this.specs.keys()) if (!this.jobs.has(id)) this.specs.delete(id)
    void this.run(job, spec)
    job.publish()
    return job.snapshot()
  }

  spec(jobId: string): ExportJobSpec {
    this.jobs.job(jobId, 'export')
    return this.specs.get(jobId)!
  }

  private async run(job: Job<ExportJobInfo>, spec: ExportJobSpec): Promise<void> {
    // Let `start` return (and publish its record) before the first await of the export.
    await Promise.resolve()
    const { info, signal } = job
    try {
      // Queued until the session's budget has a slot (src/core/jobs/budget.ts).
      await job.slot()
      signal.throwIfAborted()
      const result = await exportView(spec.client, spec.source, spec.view, spec.format, spec.path, {
        signal,
        progressIntervalMs: this.options.progressIntervalMs,
        onProgress: (progress) => {
          if (info.state !== 'running') return
          info.progress = progress
          job.publish()
        },
      })
      info.result = result
      info.progress = { ...info.progress, rows: result.rows, bytesWritten: result.bytes }
      job.finish('done')
    } catch (error) {
      const e = toAppError(error)
      if (signal.aborted || e.code === 'cancelled') job.finish('cancelled')
      else job.finish('failed', e)
    }
  }
}

function copy(info: ExportJobInfo): ExportJobInfo {
  return { ...info, source: { ...info.source, namespace: [...info.source.namespace] }, progress: { ...info.progress }, result: info.result ? { ...info.result } : null }
}
