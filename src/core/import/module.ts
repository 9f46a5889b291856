import type { Readable } from 'node:stream'
import { basename } from 'node:path'
import { AppError, type ImportJobInfo, type ImportMode, type ImportPreview, type ImportSource, type Input, sheetLayoutOf } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { ImportJobs } from './jobs'
import type { JobRegistry } from '../jobs'
import { previewOf } from './preview'
import { ImportReaders, type ReaderOptions } from './reader/readers'
import type { FileRequest } from './reader/protocol'
import { removeStalePipes } from './native/polars'
import { removeStaleUploads, UploadStore, type StagedUpload } from './uploads'
import { describeOrNull } from './write'
import { formatNamespace } from '../namespace/path'
import { assertFormatChoosable } from '../namespace/dataFormats'

export interface ImportModuleDeps {
  /** The open connection's client (throws `not_found` for a closed one). */
  client: (connectionId: string) => NamespaceClient
  /** The session's jobs (listed, cancelled and published there); a private one when absent. */
  jobs?: JobRegistry
  progressIntervalMs?: number
  /** How files are read: reader processes, their ceilings and budgets (src/core/import/reader). */
  readers?: ReaderOptions
}

/**
 * Import as the service exposes it: preview, start (queue a job; `jobs/list` and `jobs/cancel` reach it
 * through the job registry), and staged uploads for hosts without file paths. CatalogService spreads {@link handlers} into its own.
 */
export class ImportModule {
  readonly uploads = new UploadStore()
  readonly jobs: ImportJobs
  /** Every byte of a dropped file is read in a reader process of its own (src/core/import/reader). */
  readonly readers: ImportReaders

  constructor(private readonly deps: ImportModuleDeps) {
    this.readers = new ImportReaders(deps.readers)
    this.jobs = new ImportJobs({ jobs: deps.jobs, progressIntervalMs: deps.progressIntervalMs, readers: this.readers })
    // Staged uploads of processes that are gone (a crash, kill -9) are deleted at start.
    void removeStaleUploads().then((removed) => {
      if (removed.length > 0) this.jobs.note('', 'temporary files', `Removed ${removed.length} staged upload folder(s) left by an interrupted run`)
    })
    // So are the scratch folders of native reads (polars' pipes, a reader's socket) whose process is gone: silently,
    // as they held nothing of the user's — a reader that died was reported by its own preview or job, a host that
    // died by the window — and with readers ending all the time, a note here would only repeat those.
    void removeStalePipes().catch(() => undefined)
  }

  /**
   * For the harness (no file paths in a browser): spool an HTTP body to a temp file and return an
   * `uploadId` to pass as `source: { uploadId }` to `import/preview` and `import/start`.
   * The file is deleted when its job ends or on `import/discardUpload`.
   */
  stageUpload(body: Readable, info: { fileName: string; size?: number; signal?: AbortSignal }): Promise<StagedUpload> {
    return this.uploads.stage(body, info)
  }

  /** Stage `body` and queue its import in one call; resolves with the queued job. */
  async importReadable(
    body: Readable,
    info: { fileName: string; size?: number; connectionId: string; namespace: string[]; name: string; mode?: ImportMode; vectorColumns?: string[] },
  ): Promise<ImportJobInfo> {
    const staged = await this.stageUpload(body, info)
    try {
      return await this.start({ ...info, mode: info.mode ?? 'create', source: { uploadId: staged.uploadId } })
    } catch (error) {
      await this.uploads.discard(staged.uploadId)
      throw error
    }
  }

  private resolveSource(source: ImportSource): { path: string; fileName: string; uploadId?: string } {
    if ('uploadId' in source) return { ...this.uploads.resolve(source.uploadId), uploadId: source.uploadId }
    return { path: source.path, fileName: basename(source.path) }
  }

  /** The file's side is read by a reader process (shared with `import/sample`); the catalog's side is answered here. */
  async preview(input: Input<'import/preview'>): Promise<ImportPreview> {
    const file = this.fileRequest(input)
    const inspection = await this.readers.inspect(file)
    return previewOf(inspection, { ...file, client: this.deps.client(input.connectionId), namespace: input.namespace, name: input.name, mode: input.mode }, inspection.schema)
  }

  async sample(input: Input<'import/sample'>): Promise<Uint8Array> {
    return (await this.readers.inspect(this.fileRequest(input))).sample
  }

  private fileRequest(input: Input<'import/sample'>): FileRequest {
    const { path, fileName } = this.resolveSource(input.source)
    return { path, fileName, vectorColumns: input.vectorColumns, datesAsText: input.datesAsText, sheet: input.sheet, layout: sheetLayoutOf(input), columnTypes: input.columnTypes }
  }

  /**
   * Queue an import. Checks what can be checked at once (the file exists and is a known format,
   * `create` does not hit an existing table) so the sheet shows the error instead of a failed job;
   * the job checks again when it runs.
   */
  async start(input: Input<'import/start'>): Promise<ImportJobInfo> {
    const { path, fileName, uploadId } = this.resolveSource(input.source)
    const client = this.deps.client(input.connectionId)
    assertFormatChoosable(client, input.dataFormat)
    const { size, format } = await this.readers.sniff(path, fileName)
    if (input.mode === 'create' && (await describeOrNull(client, { namespace: input.namespace, name: input.name }))) {
      throw new AppError('already_exists', `A table named "${input.name}" already exists in ${formatNamespace(input.namespace)}`, {
        hint: 'Choose another name, or import in overwrite or append mode',
      })
    }
    return this.jobs.enqueue({
      connectionId: input.connectionId,
      client,
      namespace: input.namespace,
      name: input.name,
      mode: input.mode,
      path,
      fileName,
      vectorColumns: input.vectorColumns,
      datesAsText: input.datesAsText,
      sheet: input.sheet,
      layout: sheetLayoutOf(input),
      columnTypes: input.columnTypes,
      dataFormat: input.dataFormat,
      totalBytes: size,
      format,
      // One job per sheet of a workbook: every job but the last keeps the staged file (jobs run one at a time, in order).
      onSettled: uploadId && !input.keepUpload ? () => this.uploads.discard(uploadId) : undefined,
    })
  }

  /** Put what opening a catalog recovered into the jobs history (a finished `recovery` entry). */
  noteRecovery(connectionId: string, catalog: string, notes: string[]): void {
    if (notes.length > 0) this.jobs.note(connectionId, catalog, notes.join('\n'))
  }

  async close(): Promise<void> {
    await this.jobs.close()
    await this.readers.close()
    await this.uploads.discardAll()
  }

  readonly handlers = {
    'import/preview': (input: Input<'import/preview'>) => this.preview(input),
    'import/sample': (input: Input<'import/sample'>) => this.sample(input),
    'import/start': (input: Input<'import/start'>) => this.start(input),
    'import/discardUpload': async ({ uploadId }: Input<'import/discardUpload'>) => {
      await this.uploads.discard(uploadId)
      return null
    },
  }
}
