import { basename } from 'node:path'
import { AppError } from '../../contract'
import { openArrowFile, openArrowStream } from './readers/arrow'
import { openCsv } from './readers/csv'
import { openJsonLines } from './readers/jsonl'
import { openParquet } from './readers/parquet'
import { readHead, sniffBytes, type ImportFormat } from './sniff'
import type { BatchSource, OpenOptions } from './source'

/** Sniff a file's format from its bytes and open the matching streaming reader. */
export async function openSource(path: string, options: Partial<OpenOptions> = {}): Promise<BatchSource> {
  const fileName = options.fileName ?? basename(path)
  const { head, format } = await sniffPath(path, fileName)
  const opts: OpenOptions = { ...options, fileName }
  switch (format) {
    case 'arrow-file':
      return openArrowFile(path, opts)
    case 'arrow-stream':
      return openArrowStream(path, opts)
    case 'parquet':
      return openParquet(path, opts)
    case 'csv':
      return openCsv(path, head, opts)
    case 'jsonl':
      return openJsonLines(path, opts)
  }
}

/** The file's first bytes, size and format; missing files, folders and unreadable files are clear errors. */
export async function sniffPath(path: string, fileName = basename(path)): Promise<{ head: Buffer; size: number; format: ImportFormat }> {
  // The OS cannot name such a file (Node throws a TypeError): the caller's path is wrong, not our reading.
  if (path.includes('\0')) throw new AppError('invalid_input', 'The file path contains a NUL byte, which no file name can hold')
  let head: Buffer
  let size: number
  try {
    ;({ head, size } = await readHead(path))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new AppError('not_found', `${fileName} does not exist (any more)`, { detail: path })
    if (code === 'EISDIR') throw new AppError('invalid_input', `${fileName} is a folder, not a file`, { hint: 'Drop the files inside it instead' })
    if (code === 'EACCES' || code === 'EPERM') throw new AppError('permission_denied', `${fileName} cannot be read (permission denied)`)
    throw error
  }
  return { head, size, format: sniffBytes(head, size, fileName) }
}
