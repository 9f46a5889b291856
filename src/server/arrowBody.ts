import * as arrow from 'apache-arrow'
import { AppError } from '../contract'
import { batchProblem, ipcFramingProblem } from '../core/arrow'
import type { DecodeGuard } from './decodeGuard'

const EOS = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])
const FILE_MAGIC = 'ARROW1'

/**
 * Read an Arrow IPC body strictly. A stream must end with the end-of-stream marker: apache-arrow's reader
 * stops quietly at a cut message boundary, and we must never create a table from a truncated upload.
 * File-format bodies are accepted too (their footer makes truncation evident to the reader).
 * Decoding is bounded: the framing is checked first, and with a `guard` the body is decoded once in a
 * worker under a deadline before this thread decodes it.
 */
export async function readArrowBody(body: unknown, guard?: DecodeGuard): Promise<arrow.Table> {
  if (!(body instanceof Uint8Array) || body.byteLength === 0) {
    throw new AppError('invalid_input', 'The request needs an Arrow IPC stream body (Content-Type: application/vnd.apache.arrow.stream)')
  }
  const isFile = new TextDecoder().decode(body.subarray(0, 6)) === FILE_MAGIC
  if (!isFile && !endsWithEos(body)) {
    throw new AppError('invalid_input', 'The Arrow IPC stream is truncated: it does not end with the end-of-stream marker', {
      hint: 'Send the whole stream, closed by its writer',
    })
  }
  // Framing first (bounded work): apache-arrow trusts every length it reads and can loop or allocate without end.
  const framing = ipcFramingProblem(body)
  if (framing) throw new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: framing })
  // Then one decode off the event loop, under a deadline (damage no check foresaw cannot stall the server).
  await guard?.check(body)
  let table: arrow.Table
  try {
    table = arrow.tableFromIPC(body)
  } catch (error) {
    throw new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: String(error instanceof Error ? error.message : error) })
  }
  // Then the buffers against the metadata, as Lance (arrow-rs) would check them mid-write.
  for (const [i, batch] of table.batches.entries()) {
    // arrow-rs needs every column exactly as long as its batch.
    const uneven = batch.data.children.findIndex((child) => child.length !== batch.numRows)
    const problem = uneven >= 0 ? `column ${uneven + 1} has ${batch.data.children[uneven]!.length} values for ${batch.numRows} rows` : batchProblem(batch)
    if (problem) throw new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: `record batch ${i + 1}: ${problem}` })
  }
  if (table.schema.fields.length === 0) throw new AppError('invalid_input', 'The Arrow stream has no columns')
  const names = new Set<string>()
  for (const f of table.schema.fields) {
    if (f.name === '' || names.has(f.name)) throw new AppError('invalid_input', `The Arrow stream has an empty or repeated column name "${f.name}"`)
    names.add(f.name)
  }
  return table
}

function endsWithEos(bytes: Uint8Array): boolean {
  // Only the modern marker: a bare 4-byte zero (pre-1.0) is indistinguishable from a cut inside zero padding.
  return bytes.byteLength >= 8 && EOS.every((b, i) => bytes[bytes.byteLength - 8 + i] === b)
}

/** Arrow IPC *file* bytes of a stream page (the query route answers the file format). */
export function streamToFile(stream: Uint8Array): Uint8Array {
  return arrow.tableToIPC(arrow.tableFromIPC(stream), 'file')
}
