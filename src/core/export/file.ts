import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { finished } from 'node:stream/promises'
import { AppError } from '../../contract'
import { toAppError } from '../errors'
import { FileSink } from './sink'

/**
 * Write a file all or nothing: into a hidden temporary file next to `target` (same folder, so the
 * final rename is atomic), renamed to `target` only when `write` succeeded. A failed or cancelled
 * write removes the temporary file: nothing is left under the chosen name, nor beside it.
 */
export async function writeFileAtomically(target: string, write: (sink: FileSink) => Promise<void>, signal?: AbortSignal): Promise<{ bytes: number }> {
  const folder = dirname(target)
  await assertFolder(folder)
  const temporary = join(folder, `.${basename(target)}.${randomBytes(4).toString('hex')}.part`)
  const stream = createWriteStream(temporary, { flags: 'wx' })
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve())
      stream.once('error', reject)
    })
  } catch (error) {
    throw folderError(error, folder)
  }
  const sink = new FileSink(stream)
  try {
    await write(sink)
    signal?.throwIfAborted()
    stream.end()
    await finished(stream)
    signal?.throwIfAborted()
    await rename(temporary, target)
    return { bytes: sink.bytes }
  } catch (error) {
    stream.destroy()
    await finished(stream).catch(() => undefined)
    await rm(temporary, { force: true }).catch(() => undefined)
    if (signal?.aborted) throw new AppError('cancelled', 'The export was cancelled')
    throw folderError(error, folder)
  }
}

async function assertFolder(folder: string): Promise<void> {
  let info
  try {
    info = await stat(folder)
  } catch (error) {
    throw folderError(error, folder)
  }
  if (!info.isDirectory()) throw new AppError('invalid_input', `Cannot write into ${folder}: it is not a folder`, { hint: 'Choose another folder' })
}

function folderError(error: unknown, folder: string): AppError {
  const code = (error as NodeJS.ErrnoException)?.code
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return new AppError('permission_denied', `Cannot write into ${folder}: permission denied`, { hint: 'Choose a folder you can write to', cause: error })
  if (code === 'ENOTDIR') return new AppError('invalid_input', `Cannot write into ${folder}: part of the path is a file, not a folder`, { hint: 'Choose another folder', cause: error })
  if (code === 'ENOENT') return new AppError('not_found', `Cannot write into ${folder}: the folder does not exist`, { hint: 'Choose another folder', cause: error })
  if (code === 'ENOSPC') return new AppError('internal', `The disk is full: the export to ${folder} stopped`, { hint: 'Free some space and export again', cause: error })
  return toAppError(error)
}
