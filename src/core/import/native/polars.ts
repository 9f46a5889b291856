import { constants as fsConstants } from 'node:fs'
import { mkdtemp, open, rm, type FileHandle } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { DataType, RecordBatchReader, Schema, Utf8, makeData, type Data, type LargeUtf8, type RecordBatch } from 'apache-arrow'
import { batchFromData } from '../build'

/* eslint-disable @typescript-eslint/no-explicit-any */
/** nodejs-polars, typed loosely: only a handful of its calls are used, and it is optional at run time. */
export type Polars = any
export type LazyFrame = any
/* eslint-enable @typescript-eslint/no-explicit-any */

let loaded: Polars | null | undefined

/**
 * nodejs-polars (a native addon) when it loads on this platform, else null: the JS readers read instead.
 * `LCB_IMPORT_NATIVE=0` turns the native readers off (to compare the two paths, or as an escape hatch).
 */
export function loadPolars(): Polars | null {
  if (process.env.LCB_IMPORT_NATIVE === '0') return null
  if (loaded !== undefined) return loaded
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('nodejs-polars') as Polars
  } catch {
    loaded = null
  }
  return loaded
}

const FILE_MAGIC_BYTES = 8

/**
 * Runs a polars lazy query in its streaming engine, sunk as Arrow IPC into a named pipe that is read here batch by
 * batch: polars parses on its own threads while Lance writes, and memory stays bounded by the pipe (the writer
 * blocks when it is full) instead of the whole result being collected. Strings arrive as LargeUtf8 and are handed
 * on as Utf8 (what the JS readers make). `batches` yields until polars has finished; a failure of polars is thrown
 * (as a plain Error) after the batches it did deliver. Breaking off the iteration stops polars.
 */
export async function* sinkBatches(query: LazyFrame): AsyncGenerator<RecordBatch> {
  const dir = await mkdtemp(join(tmpdir(), 'lcb-native-'))
  const fifo = join(dir, 'batches.arrow')
  let handle: FileHandle | null = null
  let polarsDone = false
  let collecting: Promise<unknown> | null = null
  try {
    await promisify(execFile)('mkfifo', ['-m', '600', fifo])
    // A file, not a stream, is what polars sinks; its bytes are the stream format after an 8-byte magic.
    collecting = Promise.resolve(query.sinkIpc(fifo, { compatLevel: 'oldest', compression: 'uncompressed', syncOnClose: 'none', mkdir: false }).collect()).finally(() => {
      polarsDone = true
    })
    // If polars fails before it opens the pipe, the open below would wait forever: open the writing end
    // ourselves (and close it), which lets it return and read end-of-file.
    collecting.catch(() => unblockReader(fifo))
    handle = await open(fifo, 'r')
    const reader = await RecordBatchReader.from(pipeBytes(handle))
    for await (const batch of reader as AsyncIterable<RecordBatch>) {
      if (batch.numRows === 0) continue
      yield withPlainStrings(batch)
    }
    await collecting
  } finally {
    // Stopped early (an error downstream, a cancel): closing the read end makes polars' next write fail,
    // which ends its query; its error is expected then and not reported.
    await handle?.close().catch(() => undefined)
    if (collecting && !polarsDone) await collecting.catch(() => undefined)
    await rm(dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

async function unblockReader(fifo: string): Promise<void> {
  try {
    const w = await open(fifo, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK)
    await w.close()
  } catch {
    // Nobody is waiting to read (ENXIO) or the pipe is gone: nothing to unblock.
  }
}

/** The pipe's bytes after the IPC file magic, through to its end (the footer after the stream is read and dropped). */
async function* pipeBytes(handle: FileHandle): AsyncGenerator<Uint8Array> {
  let skip = FILE_MAGIC_BYTES
  let ended = false
  try {
    for (;;) {
      const buf = new Uint8Array(1 << 20)
      const { bytesRead } = await handle.read(buf, 0, buf.length, null)
      if (bytesRead === 0) {
        ended = true
        return
      }
      let chunk = buf.subarray(0, bytesRead)
      if (skip > 0) {
        const n = Math.min(skip, chunk.length)
        skip -= n
        chunk = chunk.subarray(n)
        if (chunk.length === 0) continue
      }
      yield chunk
    }
  } finally {
    // The Arrow reader stops at the end-of-stream marker; the file footer follows. Reading it to the end lets
    // polars close its file cleanly.
    if (!ended) {
      const rest = new Uint8Array(1 << 16)
      try {
        while ((await handle.read(rest, 0, rest.length, null)).bytesRead > 0) {
          // draining is the point
        }
      } catch {
        // The handle was closed because the import stopped.
      }
    }
  }
}

/** The batch with its LargeUtf8 columns as Utf8 (32-bit offsets); other columns as they are. */
export function withPlainStrings(batch: RecordBatch): RecordBatch {
  if (!batch.schema.fields.some((f) => DataType.isLargeUtf8(f.type))) return batch
  const fields = batch.schema.fields.map((f) => (DataType.isLargeUtf8(f.type) ? f.clone({ type: new Utf8() }) : f))
  const children = batch.data.children.map((child) => (DataType.isLargeUtf8(child.type) ? toUtf8(child as Data<LargeUtf8>) : child))
  return batchFromData(new Schema(fields, batch.schema.metadata), children, batch.numRows)
}

function toUtf8(data: Data<LargeUtf8>): Data<Utf8> {
  const large = data.valueOffsets as unknown as BigInt64Array
  const first = Number(large[0] ?? 0n)
  const last = Number(large[data.length] ?? 0n)
  if (last > 0x7fffffff) throw new Error('a batch holds more than 2 GiB of text in one column')
  // Every offset is below 2^31: its low 32-bit word (little-endian) is the offset; no BigInt per row.
  const words = new Int32Array(large.buffer, large.byteOffset, (data.length + 1) * 2)
  const offsets = new Int32Array(data.length + 1)
  for (let i = 0; i <= data.length; i++) offsets[i] = words[2 * i]! - first
  const values = data.values.subarray(first, last)
  return makeData({ type: new Utf8(), length: data.length, nullCount: data.nullCount, nullBitmap: data.nullBitmap, valueOffsets: offsets, data: values })
}
