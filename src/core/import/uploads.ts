import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { AppError } from '../../contract'
import { makeTempFolder, removeStaleTempFolders } from '../tempFolders'

/** `lcb-uploads-<pid>-XXXXXX` in the temp folder: the pid tells a crashed run's folder from a live one. */
const UPLOADS_PREFIX = 'lcb-uploads-'

/** Delete the staged-upload folders of processes that are gone; returns their paths. */
export function removeStaleUploads(dir = tmpdir()): Promise<string[]> {
  return removeStaleTempFolders(UPLOADS_PREFIX, dir)
}

export interface StagedUpload {
  uploadId: string
  fileName: string
  bytes: number
}

/**
 * Bytes that arrive without a path (the harness: an HTTP body from the browser) are spooled to a
 * private temp file with backpressure, never held in memory. Preview and import then read it by
 * path like any dropped file (Arrow files and Parquet need random access anyway).
 */
export class UploadStore {
  private dir: Promise<string> | null = null
  private readonly files = new Map<string, { path: string; fileName: string; bytes: number }>()

  constructor(private readonly maxBytes = Number.MAX_SAFE_INTEGER) {}

  private folder(): Promise<string> {
    this.dir ??= makeTempFolder(UPLOADS_PREFIX)
    return this.dir
  }

  /** Spool `body` to a temp file. `size`, when given (Content-Length), must match what arrives. */
  async stage(body: Readable, info: { fileName: string; size?: number; signal?: AbortSignal }): Promise<StagedUpload> {
    const fileName = basename(info.fileName || 'upload')
    if (info.size !== undefined && info.size > this.maxBytes) {
      throw new AppError('invalid_input', `${fileName} is too large to upload here`, { hint: `The limit is ${this.maxBytes} bytes` })
    }
    const uploadId = `u${randomBytes(9).toString('base64url')}`
    const path = join(await this.folder(), uploadId)
    let received = 0
    const limit = this.maxBytes
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length
        if (received > limit) done(new AppError('invalid_input', `${fileName} is too large to upload here`))
        else done(null, chunk)
      },
    })
    try {
      await pipeline(body, counter, createWriteStream(path, { flags: 'wx' }), { signal: info.signal })
      if (info.size !== undefined && received !== info.size) {
        throw new AppError('invalid_input', `The upload of ${fileName} ended early (${received} of ${info.size} bytes)`, {
          hint: 'Try the upload again',
        })
      }
    } catch (error) {
      await rm(path, { force: true })
      if (error instanceof AppError) throw error
      if ((error as Error).name === 'AbortError') throw new AppError('cancelled', `The upload of ${fileName} was cancelled`)
      throw new AppError('unavailable', `The upload of ${fileName} failed: ${(error as Error).message}`, { cause: error })
    }
    const bytes = (await stat(path)).size
    this.files.set(uploadId, { path, fileName, bytes })
    return { uploadId, fileName, bytes }
  }

  resolve(uploadId: string): { path: string; fileName: string } {
    const file = this.files.get(uploadId)
    if (!file) throw new AppError('not_found', 'That upload is gone (it was imported or discarded)', { hint: 'Drop the file again' })
    return file
  }

  async discard(uploadId: string): Promise<void> {
    const file = this.files.get(uploadId)
    this.files.delete(uploadId)
    if (file) await rm(file.path, { force: true })
  }

  async discardAll(): Promise<void> {
    this.files.clear()
    if (this.dir) await rm(await this.dir, { recursive: true, force: true })
    this.dir = null
  }
}
