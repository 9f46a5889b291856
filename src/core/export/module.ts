import { randomBytes } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { basename, isAbsolute, join } from 'node:path'
import { AppError, EXPORT_FORMATS, type ExportJobInfo, type Input } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { checkExportTarget } from './file'
import { ExportJobs } from './jobs'
import type { JobRegistry } from '../jobs'
import { makeTempFolder, TEMP_PREFIXES } from '../tempFolders'

export interface ExportModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** The session's jobs (listed, cancelled and published there); a private one when absent. */
  jobs?: JobRegistry
  progressIntervalMs?: number
}

/**
 * Export as the service exposes it (CatalogService spreads {@link handlers}). With a `path` the file
 * goes there (Electron's save dialog chose it); without one it is a download: written into this
 * module's temporary folder and handed out once by {@link takeDownload} (the harness streams it).
 */
export class ExportModule {
  readonly jobs: ExportJobs
  private downloads: Promise<string> | null = null
  /** Download exports already handed out (each is served once, then deleted). */
  private readonly taken = new Set<string>()

  constructor(private readonly deps: ExportModuleDeps) {
    this.jobs = new ExportJobs({
      jobs: deps.jobs,
      progressIntervalMs: deps.progressIntervalMs,
      onSettled: (job) => {
        if (job.download && job.state !== 'done') void this.discardDownload(job.id)
      },
    })
  }

  private downloadFolder(): Promise<string> {
    this.downloads ??= makeTempFolder(TEMP_PREFIXES.exports)
    return this.downloads
  }

  async start(input: Input<'export/start'>): Promise<ExportJobInfo> {
    if (input.path !== undefined && !isAbsolute(input.path)) throw new AppError('invalid_input', 'The export path must be absolute', { hint: 'Choose the file with the save dialog' })
    // A folder, the root, a device…: refused in words before a job exists (writeFileAtomically checks again).
    if (input.path !== undefined) await checkExportTarget(input.path)
    const client = this.deps.client(input.connectionId)
    const extension = EXPORT_FORMATS[input.format].extension
    const download = input.path === undefined
    const path = input.path ?? join(await this.downloadFolder(), `${randomBytes(8).toString('hex')}.${extension}`)
    return this.jobs.start({
      client,
      source: { connectionId: input.connectionId, namespace: input.namespace, name: input.name },
      view: input.view,
      format: input.format,
      path,
      fileName: download ? `${input.name}.${extension}` : basename(path),
      download,
    })
  }

  /**
   * The finished file of a download export, once: the caller streams it and then calls `release`
   * (which deletes it).
   */
  takeDownload(jobId: string): { path: string; fileName: string; release: () => Promise<void> } {
    const job = this.jobs.get(jobId)
    if (!job.download) throw new AppError('invalid_input', 'This export was written to a file, not a download')
    if (job.state !== 'done') throw new AppError('invalid_input', 'This export has not finished')
    if (this.taken.has(jobId)) throw new AppError('not_found', 'This export was already downloaded', { hint: 'Export again' })
    this.taken.add(jobId)
    const spec = this.jobs.spec(jobId)
    return { path: spec.path, fileName: job.fileName, release: () => this.discardDownload(jobId) }
  }

  private async discardDownload(jobId: string): Promise<void> {
    await rm(this.jobs.spec(jobId).path, { force: true }).catch(() => undefined)
  }

  async close(): Promise<void> {
    await this.jobs.close()
    if (this.downloads) await rm(await this.downloads, { recursive: true, force: true }).catch(() => undefined)
  }

  readonly handlers = {
    'export/start': (input: Input<'export/start'>) => this.start(input),
  }
}
