import { randomBytes } from 'node:crypto'
import { AppError, type ExportFormat, type ExportJobInfo, type TableRef, type TableViewSpec } from '../../contract'
import { toAppError } from '../errors'
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

interface Job {
  info: ExportJobInfo
  spec: ExportJobSpec
  controller: AbortController
  settled: Promise<ExportJobInfo>
}

const HISTORY_LIMIT = 200

/**
 * Export jobs: each runs as soon as it is started (exports read; they do not queue behind imports),
 * publishes throttled progress through `emit`, and stays in the history when it ends.
 */
export class ExportJobs {
  private readonly jobs: Job[] = []

  constructor(private readonly options: { emit: (job: ExportJobInfo) => void; progressIntervalMs?: number; onSettled?: (job: ExportJobInfo) => void }) {}

  start(spec: ExportJobSpec): ExportJobInfo {
    const info: ExportJobInfo = {
      id: `x${randomBytes(6).toString('base64url')}`,
      kind: 'export',
      state: 'running',
      format: spec.format,
      fileName: spec.fileName,
      source: { connectionId: spec.source.connectionId, namespace: [...spec.source.namespace], name: spec.source.name },
      download: spec.download,
      createdAt: Date.now(),
      startedAt: Date.now(),
      finishedAt: null,
      progress: { rows: 0, totalRows: null, bytesWritten: 0, rowsPerSecond: 0, bytesPerSecond: 0 },
      error: null,
      result: null,
    }
    const controller = new AbortController()
    const job: Job = { info, spec, controller, settled: Promise.resolve(info) }
    job.settled = this.run(job)
    this.jobs.push(job)
    this.trim()
    this.publish(job)
    return this.copy(info)
  }

  list(): ExportJobInfo[] {
    return this.jobs.map((j) => this.copy(j.info))
  }

  get(jobId: string): ExportJobInfo {
    return this.copy(this.find(jobId).info)
  }

  wait(jobId: string): Promise<ExportJobInfo> {
    return this.find(jobId).settled
  }

  spec(jobId: string): ExportJobSpec {
    return this.find(jobId).spec
  }

  cancel(jobId: string): void {
    const job = this.find(jobId)
    if (job.info.state === 'running' || job.info.state === 'queued') job.controller.abort()
  }

  async close(): Promise<void> {
    for (const job of this.jobs) if (job.info.state === 'running') job.controller.abort()
    await Promise.allSettled(this.jobs.map((j) => j.settled))
  }

  private find(jobId: string): Job {
    const job = this.jobs.find((j) => j.info.id === jobId)
    if (!job) throw new AppError('not_found', 'There is no such export', { hint: 'It may have been removed from the history' })
    return job
  }

  private async run(job: Job): Promise<ExportJobInfo> {
    // Let `start` return (and publish "running") before the first await of the export.
    await Promise.resolve()
    const { info, spec, controller } = job
    try {
      const result = await exportView(spec.client, spec.source, spec.view, spec.format, spec.path, {
        signal: controller.signal,
        progressIntervalMs: this.options.progressIntervalMs,
        onProgress: (progress) => {
          if (info.state !== 'running') return
          info.progress = progress
          this.publish(job)
        },
      })
      info.result = result
      info.progress = { ...info.progress, rows: result.rows, bytesWritten: result.bytes }
      this.finish(job, 'done', null)
    } catch (error) {
      const e = toAppError(error)
      if (controller.signal.aborted || e.code === 'cancelled') this.finish(job, 'cancelled', null)
      else this.finish(job, 'failed', e)
    }
    return this.copy(info)
  }

  private finish(job: Job, state: 'done' | 'failed' | 'cancelled', error: AppError | null): void {
    job.info.state = state
    job.info.finishedAt = Date.now()
    job.info.error = error ? error.toData() : null
    this.publish(job)
    try {
      this.options.onSettled?.(this.copy(job.info))
    } catch {
      // cleanup hooks must not break the job
    }
  }

  private publish(job: Job): void {
    try {
      this.options.emit(this.copy(job.info))
    } catch {
      // A broken listener must not break the export.
    }
  }

  private copy(info: ExportJobInfo): ExportJobInfo {
    return { ...info, source: { ...info.source, namespace: [...info.source.namespace] }, progress: { ...info.progress }, result: info.result ? { ...info.result } : null }
  }

  private trim(): void {
    while (this.jobs.length > HISTORY_LIMIT) {
      const index = this.jobs.findIndex((j) => j.info.finishedAt !== null)
      if (index < 0) break
      this.jobs.splice(index, 1)
    }
  }
}
