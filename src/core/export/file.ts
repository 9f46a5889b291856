import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { lstat, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, parse, resolve, sep } from 'node:path'
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
  // Checked again here (the export module checks at start): the target may have changed while the job waited.
  await checkExportTarget(target)
  const folder = dirname(target)
  const temporary = join(folder, temporaryName(basename(target)))
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

/** The longest file name most file systems take (ext4, APFS, NTFS: 255 bytes or UTF-16 units). */
const MAX_NAME_BYTES = 255

/**
 * Refuse, in words and before anything is written, a target that cannot become the export's file: the file system
 * root, a name ending in a separator, a folder, a symlink to a folder, anything that is not a regular file (a
 * device such as /dev/null, a FIFO, a socket), a name longer than 255 bytes, a parent that is missing or not a
 * folder (one that is not writable fails as the temporary file is opened, also before a byte is written). An existing regular file is replaced (the save dialog asked); so is a symlink to a file
 * or a dangling one — the link itself, never the file it points to (the rename replaces the name).
 */
export async function checkExportTarget(target: string): Promise<void> {
  const path = resolve(target)
  if (parse(path).root === path) throw new AppError('invalid_input', `Cannot export to ${path}: it is the root of the file system, not a file`, { hint: 'Choose a file name inside a folder' })
  // On the path as given: resolving drops a trailing separator (`/tmp/out/` would become a file `out` in /tmp).
  if (target.endsWith('/') || (sep === '\\' && target.endsWith(sep))) throw new AppError('invalid_input', `Cannot export to ${target}: it names a folder, not a file`, { hint: 'Add a file name' })
  const name = basename(path)
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new AppError('invalid_input', `Cannot export to ${name.slice(0, 40)}…: the file name is ${Buffer.byteLength(name)} bytes long, more than the ${MAX_NAME_BYTES} a file system takes`, { hint: 'Choose a shorter name' })
  await assertFolder(dirname(path))
  let info
  try {
    info = await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw folderError(error, dirname(path))
  }
  if (info.isDirectory()) throw new AppError('invalid_input', `Cannot export to ${path}: it is a folder`, { hint: 'Choose a file name inside it, or another name' })
  if (info.isSymbolicLink()) {
    const linked = await stat(path).catch(() => null) // null: a dangling link, replaced like a file
    if (linked?.isDirectory()) throw new AppError('invalid_input', `Cannot export to ${path}: it is a link to a folder`, { hint: 'Choose a file name inside the folder, or another name' })
    return
  }
  if (!info.isFile()) throw new AppError('invalid_input', `Cannot export to ${path}: it is not a regular file (a device, a pipe or a socket)`, { hint: 'Choose a file name in a folder' })
}

/** `.<name>.<random>.part` beside the target, shortened so that it fits a file name as the target does. */
function temporaryName(name: string): string {
  const suffix = `.${randomBytes(4).toString('hex')}.part`
  let stem = name
  while (Buffer.byteLength(`.${stem}${suffix}`) > MAX_NAME_BYTES) stem = stem.slice(0, -1)
  return `.${stem}${suffix}`
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
  if (code === 'EISDIR') return new AppError('invalid_input', `Cannot write into ${folder}: the chosen name is a folder`, { hint: 'Choose another name', cause: error })
  if (code === 'ENAMETOOLONG') return new AppError('invalid_input', `Cannot write into ${folder}: the path is too long`, { hint: 'Choose a shorter name or folder', cause: error })
  if (code === 'ENOSPC') return new AppError('internal', `The disk is full: the export to ${folder} stopped`, { hint: 'Free some space and export again', cause: error })
  return toAppError(error)
}
