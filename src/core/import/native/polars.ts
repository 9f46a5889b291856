import { closeSync, constants as fsConstants, openSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { Socket } from 'node:net'
import { join } from 'node:path'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { DataType, Schema, Utf8, makeData, tableFromIPC, type Data, type LargeUtf8, type RecordBatch } from 'apache-arrow'
import { batchFromData } from '../build'
import { fbMessage, flatbuffers } from '../../arrow/ipc/fb'
import { makeTempFolder, removeStaleTempFolders } from '../../tempFolders'

/* eslint-disable @typescript-eslint/no-explicit-any */
/** nodejs-polars, typed loosely: only a handful of its calls are used, and it is optional at run time. */
export type Polars = any
export type LazyFrame = any
/* eslint-enable @typescript-eslint/no-explicit-any */

let loaded: Polars | null | undefined

/** `lcb-native-<pid>-XXXXXX` in the temp folder: the named pipe of one native read. */
const PIPES_PREFIX = 'lcb-native-'

/** Delete the pipe folders of processes that are gone (a kill -9 during a native read leaves its folder); returns their paths. */
export function removeStalePipes(dir?: string): Promise<string[]> {
  return removeStaleTempFolders(PIPES_PREFIX, dir)
}

/** Rows the native readers handed out since start-up (tests see which reader read a file). */
export const nativeRows = { csv: 0, parquet: 0 }
/** Why polars did not read a file the native path was asked to (the JS readers read it instead), newest last. */
export const nativeDeclined: string[] = []

export function noteNativeDeclined(reason: string): void {
  nativeDeclined.push(reason)
  if (nativeDeclined.length > 20) nativeDeclined.shift()
}

/**
 * nodejs-polars (a native addon) when it loads on this platform, else null: the JS readers read instead.
 * `LCB_IMPORT_NATIVE=0` turns the native readers off (to compare the two paths, or as an escape hatch).
 */
export function loadPolars(): Polars | null {
  // The batches come through a named pipe (mkfifo), which Windows does not have.
  if (process.env.LCB_IMPORT_NATIVE === '0' || process.platform === 'win32') return null
  if (loaded !== undefined) return loaded
  boundPolarsMemory()
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require('nodejs-polars') as Polars
  } catch {
    loaded = null
  }
  return loaded
}

/**
 * polars' streaming engine keeps morsels of ~100k rows in flight in every stage (sources prefetching row groups, each
 * thread's morsel, the sink's queue) however slowly the pipe is read: a 3M-row Parquet file read into a pipe that is
 * only drained held ~250 MiB in polars. Morsels of 10k rows, one in flight at the sink and one row group prefetched
 * bound that to ~100 MiB (measured in the same minutes) without slowing the import (Lance is the slower side). Set
 * before polars first runs (it reads them once); a value set in the environment is kept.
 */
const POLARS_MEMORY_BOUNDS: Record<string, string> = {
  POLARS_IDEAL_MORSEL_SIZE: '10000',
  POLARS_IDEAL_SINK_MORSEL_SIZE_ROWS: '10000',
  POLARS_INFLIGHT_SINK_MORSEL_LIMIT: '1',
  POLARS_ROW_GROUP_PREFETCH_SIZE: '1',
}

/**
 * polars checks a timestamp's zone (from a Parquet file's Arrow schema) against its zone database and, on one it does
 * not know (`+05:30`, `+0530`, `UTC+01`, `Mars/Olympus`), panics in a function that cannot unwind: the whole process
 * aborts. Import never asks polars to compute in a zone: it only hands the instants on (the zone is the Parquet
 * reader's to keep or normalise to UTC, readers/parquet.ts), so the check is turned off and such files stay on the
 * native path. A value set in the environment is kept (`0` turns the check, and the abort, back on).
 */
const POLARS_ZONES: Record<string, string> = { POLARS_IGNORE_TIMEZONE_PARSE_ERROR: '1' }

function boundPolarsMemory(): void {
  for (const [name, value] of Object.entries({ ...POLARS_MEMORY_BOUNDS, ...POLARS_ZONES })) process.env[name] ??= value
}

/**
 * Runs a polars lazy query in its streaming engine, sunk as Arrow IPC into a named pipe that is read here batch by
 * batch: polars parses on its own threads while Lance writes, and memory stays bounded by the pipe (the writer
 * blocks when it is full) instead of the whole result being collected. Strings arrive as LargeUtf8 and are handed
 * on as Utf8 (what the JS readers make). `batches` yields until polars has finished; a failure of polars is thrown
 * (as a plain Error) after the batches it did deliver. Breaking off the iteration stops polars.
 */
export async function* sinkBatches(query: LazyFrame, folder?: string): AsyncGenerator<RecordBatch> {
  // A caller's folder (one read of many queries) is the caller's to remove; only this query's pipe is.
  const dir = folder ?? (await makeTempFolder(PIPES_PREFIX))
  const fifo = join(dir, `batches-${++pipeCount}.arrow`)
  let pipe: PipeReader | null = null
  let polarsDone = false
  let collecting: Promise<unknown> | null = null
  try {
    await promisify(execFile)('mkfifo', ['-m', '600', fifo])
    pipe = new PipeReader(fifo)
    const reader = pipe
    // A file, not a stream, is what polars sinks; its bytes are the stream format after an 8-byte magic.
    collecting = Promise.resolve(query.sinkIpc(fifo, { compatLevel: 'oldest', compression: 'uncompressed', syncOnClose: 'none', mkdir: false }).collect()).finally(() => {
      polarsDone = true
      // Nothing more will be written: the pipe ends once what polars wrote has been read.
      reader.writersDone()
    })
    // Its failure is thrown where it is awaited below; until then it must not count as unhandled (polars can fail
    // while the magic is being read, before anything awaits it).
    collecting.catch(() => undefined)
    const magic = new Uint8Array(8)
    const got = await reader.fill(magic, 0, magic.length)
    if (got === 0) {
      await collecting
      throw new Error('polars wrote nothing')
    }
    if (got < magic.length) throw new Error('polars stopped in the middle of the file magic')
    try {
      for await (const batch of pipeBatches(reader)) {
        if (batch.numRows === 0) continue
        yield withPlainStrings(batch)
      }
    } catch (error) {
      // The pipe ended early because polars failed: its error says why.
      reader.close()
      if (error instanceof NativeTypeMismatch) await collecting.catch(() => undefined)
      else await collecting
      throw error
    }
    await collecting
  } finally {
    // Stopped early (an error downstream, a cancel): closing the read end makes polars' next write fail,
    // which ends its query; its error is expected then and not reported.
    pipe?.close()
    if (collecting && !polarsDone) await collecting.catch(() => undefined)
    await rm(folder ? fifo : dir, { recursive: true, force: true }).catch(() => undefined)
  }
}

let pipeCount = 0

/** A temp folder for the files of one native read (removed by removeStalePipes if the process is killed). */
export function makeNativeFolder(): Promise<string> {
  return makeTempFolder(PIPES_PREFIX)
}

/** The pipes open in this process: closed at exit (see PipeReader). */
const openPipes = new Set<PipeReader>()
process.once('exit', () => {
  for (const pipe of openPipes) pipe.close()
})

/**
 * The reading end of the named pipe polars writes into, read without any thread ever blocking on it. Both ends are
 * opened at once, non-blocking, on this thread: the reading end becomes a socket (read by the event loop when the
 * pipe has bytes), and a writing end of our own keeps the pipe from reporting its end while polars has not opened
 * it yet, or has closed it to open it again (it may) — until `writersDone`, once polars has finished.
 *
 * Why not a file handle: its `open` and `read` wait in the thread pool, and a process exiting (the window closed during
 * an import) waits for polars' threads. A polars thread blocked on a full pipe, whose reading end this process held
 * open unknowingly (opened by the thread pool, not yet handed to JS), then held the exit for ever (seen in a desktop
 * flow, and in 1 of 15 exits in the middle of a CSV import). Here every descriptor is known from the first moment,
 * and closed at exit: polars' write then fails (EPIPE) and its thread ends.
 */
class PipeReader {
  private readonly socket: Socket
  private readonly chunks: AsyncIterator<Buffer>
  private keepAlive: number | null
  private rest: Buffer | null = null
  private closed = false

  constructor(fifo: string) {
    const fd = openSync(fifo, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK)
    try {
      this.keepAlive = openSync(fifo, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK)
    } catch (error) {
      closeSync(fd)
      throw error
    }
    this.socket = new Socket({ fd, readable: true, writable: false })
    // A failure shows in the reads (the iterator throws it); without a listener it would also be thrown here.
    this.socket.on('error', () => undefined)
    this.chunks = this.socket[Symbol.asyncIterator]()
    openPipes.add(this)
  }

  /**
   * Fill `buf[at, at + length)`; the number of bytes filled, less than `length` only at the pipe's end (after
   * `writersDone`, once polars closed its end).
   */
  async fill(buf: Uint8Array, at: number, length: number): Promise<number> {
    let done = 0
    while (done < length) {
      if (!this.rest || this.rest.length === 0) {
        const next = await this.chunks.next()
        if (next.done) break
        this.rest = next.value
      }
      const take = Math.min(this.rest!.length, length - done)
      buf.set(this.rest!.subarray(0, take), at + done)
      this.rest = this.rest!.subarray(take)
      done += take
    }
    return done
  }

  /** polars has finished: drop our writing end, so the pipe ends once polars' own end is closed and read to the end. */
  writersDone(): void {
    if (this.keepAlive === null) return
    const fd = this.keepAlive
    this.keepAlive = null
    try {
      closeSync(fd)
    } catch {
      // already closed
    }
  }

  /** Close both ends (synchronously: also run at exit). */
  close(): void {
    if (this.closed) return
    this.closed = true
    openPipes.delete(this)
    this.writersDone()
    this.socket.destroy()
  }
}

const EOS = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])
const MAX_METADATA = 64 * 1024 * 1024

/**
 * The record batches of the IPC file being written into the pipe (past its magic), read message by message: each
 * batch's body is copied straight from the pipe into a buffer that already holds the schema message (and gets the
 * end-of-stream marker), so apache-arrow decodes it without copying the values again. (apache-arrow's own async
 * stream reader gathers the pipe's reads into messages several times slower than polars writes them.) The footer
 * after the end-of-stream marker is read and dropped, which lets polars close its file.
 */
async function* pipeBatches(pipe: PipeReader): AsyncGenerator<RecordBatch> {
  const readExact = async (buf: Uint8Array, at: number, length: number): Promise<boolean> => {
    const got = await pipe.fill(buf, at, length)
    if (got === length) return true
    if (got === 0) return false
    throw new Error('polars stopped in the middle of a message')
  }
  const word = new Uint8Array(8)
  const int32 = (at: number) => new DataView(word.buffer).getInt32(at, true)
  let schemaMessage: Uint8Array | null = null
  for (;;) {
    if (!(await readExact(word, 0, 4))) throw new Error('polars stopped before the end of its batches')
    let length = int32(0)
    if (length === -1) {
      if (!(await readExact(word, 0, 4))) throw new Error('polars stopped in the middle of a message')
      length = int32(0)
    }
    if (length === 0) break
    if (length < 0 || length > MAX_METADATA) throw new Error('polars wrote a message header of an impossible length')
    const meta = new Uint8Array(length)
    await readExact(meta, 0, length)
    const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(meta))
    const bodyLength = Number(message.bodyLength())
    const prefix: number = schemaMessage?.length ?? 0
    // [schema message] [this message: marker, length, metadata, body] [end-of-stream]
    const bytes: Uint8Array = new Uint8Array(prefix + 8 + length + bodyLength + EOS.length)
    if (schemaMessage) bytes.set(schemaMessage, 0)
    new DataView(bytes.buffer).setInt32(prefix, -1, true)
    new DataView(bytes.buffer).setInt32(prefix + 4, length, true)
    bytes.set(meta, prefix + 8)
    await readExact(bytes, prefix + 8 + length, bodyLength)
    bytes.set(EOS, bytes.length - EOS.length)
    const type = message.headerType()
    if (type === fbMessage.MessageHeader.Schema) {
      schemaMessage = bytes.subarray(0, 8 + length + bodyLength)
      continue
    }
    if (type === fbMessage.MessageHeader.DictionaryBatch) throw new NativeTypeMismatch('polars wrote a dictionary-encoded (categorical) column')
    if (type !== fbMessage.MessageHeader.RecordBatch || !schemaMessage) throw new Error('polars wrote a message other than a schema and record batches')
    yield* tableFromIPC(bytes).batches
  }
  const rest = new Uint8Array(1 << 16)
  while ((await pipe.fill(rest, 0, rest.length)) > 0) {
    // the file footer: draining it is the point
  }
}

/** polars read the file, but into other column types than the JS readers make (e.g. Float16 as Float32). */
export class NativeTypeMismatch extends Error {}


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
