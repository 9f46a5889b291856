import { constants, type Stats } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { AppError } from '../../contract'
import { decodeSample, detectEncoding, type TextEncoding } from './readers/text'
import { parseJsonLine } from './readers/jsonLine'

/** The file formats import understands, told apart by their bytes (never by the extension). */
export type ImportFormat = 'arrow-file' | 'arrow-stream' | 'parquet' | 'csv' | 'jsonl' | 'json' | 'xlsx'

export const FORMAT_LABELS: Record<ImportFormat, string> = {
  'arrow-file': 'Arrow IPC file',
  'arrow-stream': 'Arrow IPC stream',
  parquet: 'Parquet',
  csv: 'CSV',
  jsonl: 'JSON lines',
  json: 'JSON',
  xlsx: 'Excel workbook',
}

/** How many leading bytes sniffing looks at: enough for a text header line and a first JSON record. */
export const SNIFF_BYTES = 64 * 1024

const ARROW_MAGIC = Buffer.from('ARROW1')
const PARQUET_MAGIC = Buffer.from('PAR1')

/**
 * Decide the format of a file from its first bytes and its size.
 * Binary formats by magic numbers; text by content (a first record that is a JSON object means
 * JSON lines, otherwise CSV). Anything else is refused with a message naming what is accepted.
 */
export function sniffBytes(head: Uint8Array, size: number, fileName = 'The file'): ImportFormat {
  return sniffContent(head, size, fileName).format
}

/**
 * The format of a file's content (decompressed already), and for text its encoding. `size` is the content's
 * size when known (a compressed file's content size is not: pass Infinity).
 */
export function sniffContent(head: Uint8Array, size: number, fileName = 'The file'): { format: ImportFormat; encoding: TextEncoding | null } {
  const binaryFormat = (format: ImportFormat) => ({ format, encoding: null })
  if (size === 0 || head.length === 0) {
    throw new AppError('invalid_input', `${fileName} is empty (0 bytes)`, { hint: 'Choose a file that holds data' })
  }
  const buf = Buffer.from(head.buffer, head.byteOffset, head.byteLength)
  // A few bytes that begin a binary magic are a binary file cut short, not a one-word CSV.
  if (size <= 8 && [ARROW_MAGIC, PARQUET_MAGIC, Buffer.from([0xff, 0xff, 0xff, 0xff])].some((m) => m.subarray(0, buf.length).equals(buf))) {
    throw new AppError('corrupt', `${fileName} is only ${size} bytes: a file cut short`, { hint: 'Export or copy the file again' })
  }
  if (buf.length >= 6 && buf.subarray(0, 6).equals(ARROW_MAGIC)) return binaryFormat('arrow-file')
  if (buf.length >= 4 && buf.subarray(0, 4).equals(PARQUET_MAGIC)) return binaryFormat('parquet')
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0xffffffff) return binaryFormat('arrow-stream')
  if (looksLikeLegacyArrowStream(buf, size)) return binaryFormat('arrow-stream')
  if (looksLikeXlsx(buf, fileName)) return binaryFormat('xlsx')
  const known = knownOther(buf)
  if (known) {
    throw new AppError('unsupported', `${fileName} is ${known.what}, which import does not read`, { hint: known.hint })
  }
  const encoding = detectEncoding(buf, head.length < size)
  if (encoding === null) {
    throw new AppError('unsupported', `${fileName} is not a format import understands`, {
      hint: 'Import reads Arrow IPC files and streams, Parquet, CSV/TSV, JSON and JSON lines (also gzip- or zstd-compressed) and Excel workbooks (.xlsx)',
      detail: `first bytes: ${buf.subarray(0, 16).toString('hex')}`,
    })
  }
  const first = decodeSample(buf, encoding).trimStart()
  if (first.length === 0) {
    throw new AppError('invalid_input', `${fileName} holds only whitespace`, { hint: 'Choose a file that holds data' })
  }
  if (first.startsWith('[')) return { format: 'json', encoding }
  if (first.startsWith('{')) return { format: jsonShape(first, head.length >= size), encoding }
  return { format: 'csv', encoding }
}

/**
 * `{` starts JSON lines (a complete object on the first line, more after it) or one JSON document: an
 * object pretty-printed over many lines, or a single object holding an array of records (`{"data": […]}`).
 */
const RECORDS_UNDER_FIRST_KEY = /^\{\s*"(?:[^"\\]|\\.)*"\s*:\s*\[\s*\{/

function jsonShape(text: string, whole: boolean): ImportFormat {
  const newline = text.indexOf('\n')
  const firstLine = newline === -1 ? text : text.slice(0, newline)
  let value: unknown
  try {
    value = parseJsonLine(firstLine)
  } catch {
    // A first line cut off by the sample's end: one object holding an array of records under its first key
    // (`{"data": [{…`, as DuckDB and many APIs write it, on one line), else one long JSON line.
    if (newline === -1 && !whole) return RECORDS_UNDER_FIRST_KEY.test(text) ? 'json' : 'jsonl'
    return 'json'
  }
  const rest = newline === -1 ? '' : text.slice(newline + 1).trim()
  if (rest === '' && whole && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const holdsRecords = Object.values(value).some((v) => Array.isArray(v) && v.length > 0 && v[0] !== null && typeof v[0] === 'object' && !Array.isArray(v[0]))
    if (holdsRecords) return 'json'
  }
  return 'jsonl'
}

/**
 * An Excel workbook is a zip whose entries live under `xl/` (Office Open XML): the first entries' names are
 * in the head (each local header names its entry before its data). A zip named `.xlsx` whose head shows no
 * entry names (one huge first entry) is taken at its word.
 */
function looksLikeXlsx(buf: Buffer, fileName: string): boolean {
  if (buf.length < 4 || !buf.subarray(0, 4).equals(Buffer.from('PK\x03\x04'))) return false
  return buf.includes('xl/workbook.xml') || buf.includes('xl/worksheets/') || /\.xlsx$/i.test(fileName)
}

/** Formats people drop by mistake, named so the message says what to do. */
function knownOther(buf: Buffer): { what: string; hint: string } | null {
  const starts = (bytes: number[] | string) => {
    const magic = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes)
    return buf.length >= magic.length && buf.subarray(0, magic.length).equals(magic)
  }
  // Text could begin with these letters ("ORCID,name"): only a binary file counts.
  const binary = buf.includes(0)
  if (starts('FEA1') && binary) return { what: 'a Feather v1 file', hint: 'Save it again as Feather v2 / Arrow IPC (e.g. pyarrow.feather.write_feather)' }
  // Import reads one layer of compression: these are met inside an already decompressed file.
  if (starts([0x1f, 0x8b])) return { what: 'gzip-compressed twice', hint: 'Decompress it once (gunzip), then import the result' }
  if (starts([0x28, 0xb5, 0x2f, 0xfd])) return { what: 'zstd-compressed twice', hint: 'Decompress it once (unzstd), then import the result' }
  if (starts('PK\x03\x04')) return { what: 'a zip archive', hint: 'Unzip it first, then import the files inside' }
  if (starts([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { what: 'an Excel 97–2003 workbook (.xls) or another OLE document', hint: 'Save it as .xlsx or CSV first' }
  if (starts('ORC') && binary) return { what: 'an ORC file', hint: 'Convert it to Parquet or Arrow first' }
  if (starts([0x4f, 0x62, 0x6a, 0x01])) return { what: 'an Avro file', hint: 'Convert it to Parquet or Arrow first' }
  return null
}

/**
 * Pre-0.15 Arrow streams start with a little-endian int32 metadata length (no 0xFFFFFFFF marker) followed by
 * a flatbuffer. Text never looks like that: its first 4 bytes read as a huge number.
 */
function looksLikeLegacyArrowStream(buf: Buffer, size: number): boolean {
  if (buf.length < 8) return false
  const length = buf.readInt32LE(0)
  return length >= 8 && length % 8 === 0 && length < 16 * 1024 * 1024 && length + 4 <= size && buf[4] !== undefined && buf.subarray(0, 4).some((b) => b === 0)
}

export async function readHead(path: string, bytes = SNIFF_BYTES): Promise<{ head: Buffer; size: number }> {
  // A FIFO, device or socket is refused before it is read: opening a FIFO blocks a thread-pool thread
  // until a writer appears, and a device never ends. Stat first; then open without blocking and check
  // the opened file too (the path may have been swapped in between).
  refuseSpecial(await stat(path), path)
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const stats = await handle.stat()
    refuseSpecial(stats, path)
    const { size } = stats
    const head = Buffer.alloc(Math.min(bytes, size))
    let filled = 0
    while (filled < head.length) {
      const { bytesRead } = await handle.read(head, filled, head.length - filled, filled)
      if (bytesRead === 0) break
      filled += bytesRead
    }
    return { head: head.subarray(0, filled), size }
  } finally {
    await handle.close()
  }
}

function refuseSpecial(stats: Stats, path: string): void {
  if (stats.isFile()) return
  if (stats.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path} is a directory`), { code: 'EISDIR' })
  const kind = stats.isFIFO() ? 'a named pipe (FIFO)' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : stats.isSocket() ? 'a socket' : 'not a regular file'
  throw new AppError('invalid_input', `${basename(path)} is ${kind}, not a regular file`, { hint: 'Import a regular file' })
}

export async function sniffFile(path: string, fileName?: string): Promise<{ format: ImportFormat; size: number }> {
  const { head, size } = await readHead(path)
  return { format: sniffBytes(head, size, fileName), size }
}
