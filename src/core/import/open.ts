import { basename } from 'node:path'
import { AppError } from '../../contract'
import { linearSchemaAssign } from '../arrow/linearSchema'
import { openArrowFile, openArrowStream } from './readers/arrow'
import { openCsv } from './readers/csv'
import { openJsonDocument, openJsonLines } from './readers/jsonl'
import { openParquet } from './readers/parquet'
import { openXlsx } from './readers/xlsx'
import { compressionOf, decompressedHead, type Compression, type TextEncoding } from './readers/text'
import { FORMAT_LABELS, SNIFF_BYTES, readHead, sniffContent, type ImportFormat } from './sniff'
import type { BatchSource, OpenOptions } from './source'

/** Sniff a file's format from its bytes and open the matching streaming reader. */
export async function openSource(path: string, options: Partial<OpenOptions> = {}): Promise<BatchSource> {
  linearSchemaAssign() // wide files: every record batch built would otherwise cost the square of the column count
  const fileName = options.fileName ?? basename(path)
  const { head, format, compression, encoding } = await sniffPath(path, fileName)
  const opts: OpenOptions = { ...options, fileName, compression, encoding: encoding ?? 'utf-8' }
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
    case 'json':
      return openJsonDocument(path, opts)
    case 'xlsx':
      return openXlsx(path, opts)
  }
}

export interface Sniffed {
  /** The content's first bytes (decompressed for a compressed file). */
  head: Buffer
  /** The file's size in bytes. */
  size: number
  format: ImportFormat
  compression: Compression | null
  /** Text formats: the encoding the sample was read in. */
  encoding: TextEncoding | null
}

/**
 * The file's format, told by its content: a gzip or zstd file is looked into (its content is sniffed);
 * missing files, folders and unreadable files are clear errors.
 */
export async function sniffPath(path: string, fileName = basename(path)): Promise<Sniffed> {
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
  const compression = compressionOf(head)
  if (!compression) return { head, size, compression, ...sniffContent(head, size, fileName) }
  const inner = await decompressedHead(path, compression, fileName, SNIFF_BYTES)
  const whole = inner.length < SNIFF_BYTES
  const { format, encoding } = sniffContent(inner, whole ? inner.length : Infinity, fileName)
  if (format !== 'csv' && format !== 'jsonl' && format !== 'json') {
    throw new AppError('unsupported', `${fileName} is a ${compression}-compressed ${FORMAT_LABELS[format]}, which import reads only uncompressed`, {
      hint: `Decompress it first (${compression === 'gzip' ? 'gunzip' : 'unzstd'}); Parquet, Arrow and Excel compress their data inside the file anyway`,
    })
  }
  return { head: inner, size, format, compression, encoding }
}
