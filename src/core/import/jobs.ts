import { type DataFormat, type ImportColumnType, type ImportFormat, type ImportJobInfo, type ImportMode, type ImportProgress, type SheetLayout } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { toAppError } from '../errors'
import { JobsOfKind, type Job, type JobRegistry } from '../jobs'
import { defaultChunkLimits } from './chunks'
import { ImportReaders } from './reader/readers'
import { takesIpc, writeChunks } from './write'

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
  sheet?: string
  layout?: SheetLayout
  columnTypes?: Record<string, ImportColumnType>
  /** The data file format of a new table; absent = the catalog's default (the client decides). */
  dataFormat?: DataFormat
  /** Known at queue time (sniffed), so a queued job already shows its size and format. */
  totalBytes?: number
  format?: ImportFormat
  /** Called once the job has ended, whatever the outcome (e.g. delete a staged upload). */
  onSettled?: () => Promise<void> | void
}

type ImportJob = Job<ImportJobInfo>

/**
 * The import queue: jobs run in the order they were queued, one at a time (the budget's limit for imports,
 * src/core/jobs/budget.ts: imports are disk-write-bound; two at once would only share the disk), and within the
 * session's limits on jobs of every kind. Jobs live in the session's job registry (src/core/jobs), which
 * publishes each change (throttled progress comes from the writer) and keeps the history.
 */
export class ImportJobs extends JobsOfKind<'import'> {
  /** Where each import's file is read: a reader process per job (src/core/import/reader). */
  private readonly readers: ImportReaders

  constructor(private readonly options: { jobs?: JobRegistry; progressIntervalMs?: number; readers?: ImportReaders } = {}) {
    super('import', options.jobs)
    this.readers = options.readers ?? new ImportReaders()
  }

  enqueue(spec: ImportJobSpec): ImportJobInfo {
    const job = this.jobs.create(
      'import',
      (id, now) => ({
        id,
        kind: 'import',
        state: 'queued',
        fileName: spec.fileName,
        format: spec.format ?? null,
        mode: spec.mode,
        target: { connectionId: spec.connectionId, namespace: [...spec.namespace], name: spec.name },
        createdAt: now,
        startedAt: null,
        finishedAt: null,
        progress: { bytesRead: 0, totalBytes: spec.totalBytes ?? 0, rows: 0, totalRows: null, rowsPerSecond: 0, bytesPerSecond: 0, etaSeconds: null, phase: 'waiting' },
        error: null,
        result: null,
      }),
      { copy, onSettled: () => spec.onSettled?.() },
    )
    // Cancelled while it waits: it ends at once (a running job stops through the same signal, in the writer).
    job.signal.addEventListener('abort', () => {
      if (job.info.state === 'queued') this.finish(job, 'cancelled')
    })
    // Started at once (nothing before it): it reads from the first record on.
    if (job.info.state === 'running') job.info.progress.phase = 'reading'
    job.publish()
    void this.run(job, spec)
    return job.snapshot()
  }

  /** Add a finished `recovery` entry to the history (what opening a catalog cleaned up after a crash). */
  note(connectionId: string, catalog: string, text: string): ImportJobInfo {
    const job = this.jobs.create(
      'recovery',
      (id, now) => ({
        id,
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
      }),
      { copy },
    )
    job.publish()
    return job.snapshot()
  }

  /** This session's imports and recovery notes, oldest first. */
  override list(): ImportJobInfo[] {
    return this.jobs.list().filter((j): j is ImportJobInfo => j.kind === 'import' || j.kind === 'recovery')
  }

  private async run(job: ImportJob, spec: ImportJobSpec): Promise<void> {
    const { info, signal } = job
    try {
      // Queued until the import before it (and the session's budget) lets it run; the budget marks it running.
      await job.slot()
      signal.throwIfAborted()
      info.progress = { ...info.progress, phase: 'reading' }
      job.publish()
      // The file is read in a reader process (src/core/import/reader); this process writes what it sends.
      const read = await this.readers.openImport({
        path: spec.path,
        fileName: spec.fileName,
        datesAsText: spec.datesAsText,
        columnTypes: spec.columnTypes,
        sheet: spec.sheet,
        layout: spec.layout,
        vectorColumns: spec.vectorColumns,
        mode: spec.mode,
        limits: defaultChunkLimits(),
        ipc: takesIpc(spec.client),
        signal,
      })
      let result: Awaited<ReturnType<typeof writeChunks>>
      try {
        info.format = read.format as ImportFormat
        info.progress = { ...info.progress, totalBytes: read.size, totalRows: read.rowCount }
        result = await writeChunks(spec.client, { namespace: spec.namespace, name: spec.name }, read, () => read.open(), {
          mode: spec.mode,
          signal,
          vectorColumns: spec.vectorColumns,
          dataFormat: spec.dataFormat,
          stagingTag: info.id,
          progressIntervalMs: this.options.progressIntervalMs,
          onProgress: (progress: ImportProgress) => {
            if (info.state !== 'running') return
            info.progress = progress
            job.publish()
          },
        })
      } finally {
        await read.close()
      }
      info.result = { version: result.version, rowCount: result.rowCount }
      this.finish(job, 'done')
    } catch (error) {
      const e = toAppError(error)
      if (signal.aborted || e.code === 'cancelled') this.finish(job, 'cancelled')
      else this.finish(job, 'failed', e)
    }
  }

  private finish(job: ImportJob, state: 'done' | 'failed' | 'cancelled', error: ReturnType<typeof toAppError> | null = null): void {
    if (!job.live) return
    job.info.progress = { ...job.info.progress, phase: 'finished', etaSeconds: state === 'done' ? 0 : null }
    job.finish(state, error)
  }
}

function copy(info: ImportJobInfo): ImportJobInfo {
  return { ...info, target: { ...info.target, namespace: [...info.target.namespace] }, progress: { ...info.progress }, result: info.result ? { ...info.result } : null }
}
