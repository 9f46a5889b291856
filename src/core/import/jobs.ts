import { randomBytes } from 'node:crypto'
import { AppError, type ImportColumnType, type ImportFormat, type ImportJobInfo, type ImportMode, type ImportProgress } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { toAppError } from '../errors'
import { openSource } from './open'
import { writeSource } from './write'

export interface ImportJobSpec {
  connectionId: string
  client: NamespaceClient
  namespace: readonly string[]
  name: string
  mode: ImportMode
  path: string
  fileName: string
  vectorColumns?: string[]
  datesAsText?: boolean
  columnTypes?: Record<string, ImportColumnType>
  /** Known at queue time (sniffed), so a queued job already shows its size and format. */
  totalBytes?: number
  format?: ImportFormat
  /** Called once the job has ended, whatever the outcome (e.g. delete a staged upload). */
  onSettled?: () => Promise<void> | void
}

interface Job {
  info: ImportJobInfo
  spec: ImportJobSpec
  controller: AbortController
  settled: Promise<ImportJobInfo>
  resolve: (info: ImportJobInfo) => void
}

const HISTORY_LIMIT = 200

/**
 * The import queue: jobs run one at a time in the order they were queued (imports are
 * disk-write-bound; two at once would only share the disk). Each change is published through
 * `emit` (throttled progress comes from the writer). Finished jobs stay in the history.
 */
export class ImportJobs {
  private readonly jobs: Job[] = []
  private running: Job | null = null

  constructor(private readonly options: { emit: (job: ImportJobInfo) => void; progressIntervalMs?: number }) {}

  enqueue(spec: ImportJobSpec): ImportJobInfo {
    const id = `j${randomBytes(6).toString('base64url')}`
    let resolve!: (info: ImportJobInfo) => void
    const settled = new Promise<ImportJobInfo>((r) => (resolve = r))
    const info: ImportJobInfo = {
      id,
      kind: 'import',
      state: 'queued',
      fileName: spec.fileName,
      format: spec.format ?? null,
      mode: spec.mode,
      target: { connectionId: spec.connectionId, namespace: [...spec.namespace], name: spec.name },
      createdAt: Date.now(),
      startedAt: null,
      finishedAt: null,
      progress: { bytesRead: 0, totalBytes: spec.totalBytes ?? 0, rows: 0, totalRows: null, rowsPerSecond: 0, bytesPerSecond: 0, etaSeconds: null, phase: 'waiting' },
      error: null,
      result: null,
    }
    const job: Job = { info, spec, controller: new AbortController(), settled, resolve }
    this.jobs.push(job)
    this.trim()
    this.publish(job)
    void this.pump()
    return { ...info }
  }

  /** Add a finished `recovery` entry to the history (what opening a catalog cleaned up after a crash). */
  note(connectionId: string, catalog: string, text: string): ImportJobInfo {
    const now = Date.now()
    const info: ImportJobInfo = {
      id: `r${randomBytes(6).toString('base64url')}`,
      kind: 'recovery',
      state: 'done',
      fileName: 'Recovered after a crash',
      format: null,
      mode: 'create',
      target: { connectionId, namespace: [], name: catalog },
      createdAt: now,
      startedAt: now,
      finishedAt: now,
      progress: { bytesRead: 0, totalBytes: 0, rows: 0, totalRows: null, rowsPerSecond: 0, bytesPerSecond: 0, etaSeconds: 0, phase: 'finished' },
      error: null,
      result: null,
      note: text,
    }
    const job: Job = { info, spec: null as unknown as ImportJobSpec, controller: new AbortController(), settled: Promise.resolve(info), resolve: () => undefined }
    this.jobs.push(job)
    this.trim()
    this.publish(job)
    return { ...info }
  }

  list(): ImportJobInfo[] {
    return this.jobs.map((j) => this.copy(j.info))
  }

  get(jobId: string): ImportJobInfo {
    return this.copy(this.find(jobId).info)
  }

  /** Resolves with the job's final state (for callers that want to await an import). */
  wait(jobId: string): Promise<ImportJobInfo> {
    return this.find(jobId).settled
  }

  /** Cancel a queued or running job; a finished one is left as it is. */
  cancel(jobId: string): void {
    const job = this.find(jobId)
    if (job.info.state === 'queued') {
      this.finish(job, 'cancelled', null)
    } else if (job.info.state === 'running') {
      job.controller.abort()
    }
  }

  /** Cancel everything and wait for the running job's cleanup (app shutdown). */
  async close(): Promise<void> {
    for (const job of this.jobs) if (job.info.state === 'queued' || job.info.state === 'running') this.cancel(job.info.id)
    if (this.running) await this.running.settled
  }

  private find(jobId: string): Job {
    const job = this.jobs.find((j) => j.info.id === jobId)
    if (!job) throw new AppError('not_found', 'There is no such import job', { hint: 'It may have been removed from the history' })
    return job
  }

  private async pump(): Promise<void> {
    if (this.running) return
    const job = this.jobs.find((j) => j.info.state === 'queued')
    if (!job) return
    this.running = job
    try {
      await this.run(job)
    } finally {
      this.running = null
      void this.pump()
    }
  }

  private async run(job: Job): Promise<void> {
    const { spec, info, controller } = job
    info.state = 'running'
    info.startedAt = Date.now()
    info.progress = { ...info.progress, phase: 'reading' }
    this.publish(job)
    try {
      const source = await openSource(spec.path, { fileName: spec.fileName, signal: controller.signal, datesAsText: spec.datesAsText, columnTypes: spec.columnTypes })
      info.format = source.format as ImportFormat
      info.progress = { ...info.progress, totalBytes: source.size, totalRows: source.rowCount }
      const result = await writeSource(spec.client, { namespace: spec.namespace, name: spec.name }, source, {
        mode: spec.mode,
        signal: controller.signal,
        vectorColumns: spec.vectorColumns,
        stagingTag: info.id,
        progressIntervalMs: this.options.progressIntervalMs,
        onProgress: (progress: ImportProgress) => {
          if (info.state !== 'running') return
          info.progress = progress
          this.publish(job)
        },
      })
      info.result = { version: result.version, rowCount: result.rowCount }
      this.finish(job, 'done', null)
    } catch (error) {
      const e = toAppError(error)
      if (controller.signal.aborted || e.code === 'cancelled') this.finish(job, 'cancelled', null)
      else this.finish(job, 'failed', e)
    }
  }

  private finish(job: Job, state: 'done' | 'failed' | 'cancelled', error: AppError | null): void {
    const { info } = job
    info.state = state
    info.finishedAt = Date.now()
    info.error = error ? error.toData() : null
    info.progress = { ...info.progress, phase: 'finished', etaSeconds: state === 'done' ? 0 : null }
    this.publish(job)
    void Promise.resolve(job.spec.onSettled?.())
      .catch(() => undefined)
      .then(() => job.resolve(this.copy(info)))
  }

  private publish(job: Job): void {
    try {
      this.options.emit(this.copy(job.info))
    } catch {
      // A broken listener must not break the import.
    }
  }

  private copy(info: ImportJobInfo): ImportJobInfo {
    return { ...info, target: { ...info.target }, progress: { ...info.progress }, result: info.result ? { ...info.result } : null }
  }

  /** Keep the history bounded: drop the oldest finished jobs. */
  private trim(): void {
    while (this.jobs.length > HISTORY_LIMIT) {
      const index = this.jobs.findIndex((j) => j.info.finishedAt !== null)
      if (index < 0) break
      this.jobs.splice(index, 1)
    }
  }
}
