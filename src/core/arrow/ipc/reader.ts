import { open, type FileHandle } from 'node:fs/promises'
import { makeVector, type RecordBatch, type Schema, type Vector } from 'apache-arrow'
import { loadBatchAsync, loadDictionary } from './batch'
import { initZstd } from './codecs'
import { MAX_RATIO, RATIO_GRACE } from '../../limits'
import { readAhead } from './zstdPool'
import { fbFile, fbMessage, flatbuffers, type FbRecordBatch } from './fb'
import { decodeSchema, type Conversion, type DecodedSchema, type Layout } from './schema'
import { MessageBuffers, MESSAGE_AT, zstdFrameBound, type RawMessage as FramedMessage, type SchemaRef } from './frame'

/**
 * An Arrow IPC file or stream read message by message with positional reads (never the whole
 * file in memory), for every type and buffer compression current Arrow writers produce. See
 * batch.ts for what is rewritten. Errors are plain `Error`s describing the defect; the caller
 * names the file.
 */
export interface IpcReader {
  readonly schema: Schema
  readonly conversions: Conversion[]
  readonly unsupported: { column: string; type: string }[]
  /** Rows in the file (IPC file: from the footer's message headers), null for streams. */
  readonly rowCount: number | null
  readonly size: number
  /** Bytes consumed so far. */
  position(): number
  batches(): AsyncGenerator<RecordBatch>
  /**
   * Where the file's record batches can go to arrow-rs undecoded (no dictionaries; no conversion but views,
   * which Lance stores as their plain types itself): call instead of `batches()`. Null otherwise.
   */
  readonly passThrough: PassThrough | null
  close(): Promise<void>
}

/** A record batch left as its message bytes (see {@link PassThrough}). */
export interface RawBatch {
  readonly raw: true
  rows: number
  /** Bytes its buffers decode to (from the header and the compressed buffers' declared sizes). */
  bytes: number
  message: FramedMessage
}

export interface PassThrough {
  /**
   * Every record batch as its message bytes when it holds at most `limits` rows and bytes and its buffers are
   * stored plain or as well-formed ZSTD frames (see passBytes); any other batch (too big, LZ4) is decoded here.
   */
  batches(limits: { maxRows: number; maxBytes: number }): AsyncGenerator<RecordBatch | RawBatch>
  /** The Arrow IPC file (for lancedb's native `add`) holding these messages under the file's own schema. */
  frame(messages: FramedMessage[]): Uint8Array
  /** Messages whose framed file Lance has finished with: their buffers are reused for later batches. */
  release(messages: FramedMessage[]): void
}

const MAGIC = Buffer.from('ARROW1')
/**
 * Batches are read and decoded ahead of the one being consumed when their buffers are compressed (one per
 * ZSTD worker, see zstdPool.ts), so decoding overlaps the consumer's work. Uncompressed batches are not
 * read ahead: reading them is cheap and each held batch costs memory.
 */

/** A batch being loaded; its failure is seen when it is awaited, never as an unhandled rejection. */
function ahead<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined)
  return p
}
const MAX_METADATA = 64 * 1024 * 1024
const H = fbMessage.MessageHeader

interface RawMessage {
  message: InstanceType<typeof fbMessage.Message>
  /** Position of the message (its continuation marker or length prefix). */
  at: number
  bodyAt: number
  bodyLength: number
  /** Position after the body. */
  end: number
}

class Messages {
  constructor(
    readonly handle: FileHandle,
    readonly size: number,
  ) {}

  async bytes(at: number, length: number): Promise<Uint8Array> {
    // A fresh ArrayBuffer per read: 8-aligned, so typed arrays over it need no copies.
    return this.bytesInto(new Uint8Array(length), 0, at, length)
  }

  /** Read `length` bytes at `at` into `out` at `into`; returns that range of `out`. */
  async bytesInto(out: Uint8Array, into: number, at: number, length: number): Promise<Uint8Array> {
    if (at < 0 || length < 0 || at + length > this.size) throw new Error('it ends in the middle of a message (truncated)')
    let done = 0
    while (done < length) {
      const { bytesRead } = await this.handle.read(out, into + done, length - done, at + done)
      if (bytesRead === 0) throw new Error('it ends in the middle of a message (truncated)')
      done += bytesRead
    }
    return out.subarray(into, into + length)
  }

  /** The message at `at` (continuation marker or legacy length prefix); null at end-of-stream. */
  async at(at: number): Promise<RawMessage | null> {
    if (at + 4 > this.size) throw new Error('it ends without an end-of-stream marker (truncated)')
    const prefix = await this.bytes(at, Math.min(8, this.size - at))
    const dv = new DataView(prefix.buffer)
    let length = dv.getInt32(0, true)
    let start = at + 4
    if (length === -1) {
      if (prefix.length < 8) throw new Error('it ends in the middle of a message (truncated)')
      length = dv.getInt32(4, true)
      start = at + 8
    }
    if (length === 0) return null
    if (length < 0 || length > MAX_METADATA) throw new Error('a message header has an impossible length')
    const meta = await this.bytes(start, length)
    const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(meta))
    const bodyLength = Number(message.bodyLength())
    const bodyAt = start + length
    if (!(bodyLength >= 0) || bodyAt + bodyLength > this.size) throw new Error('a message body runs past the end of the file (truncated)')
    return { message, at, bodyAt, bodyLength, end: bodyAt + bodyLength }
  }
}

function schemaOf(raw: RawMessage): DecodedSchema {
  if (raw.message.headerType() !== H.Schema) throw new Error('it does not start with a schema message')
  const schema = raw.message.header(new fbMessage.Schema()) as InstanceType<typeof fbMessage.Schema> | null
  if (!schema) throw new Error('its schema message is empty')
  return decodeSchema(schema)
}

export async function openIpc(path: string, kind: 'file' | 'stream'): Promise<IpcReader> {
  await initZstd()
  const handle = await open(path, 'r')
  try {
    const size = (await handle.stat()).size
    const messages = new Messages(handle, size)
    return kind === 'file' ? await openFile(messages) : await openStream(messages)
  } catch (error) {
    await handle.close().catch(() => undefined)
    throw error
  }
}

async function openFile(m: Messages): Promise<IpcReader> {
  const { size } = m
  if (size < 18) throw new Error('it is too short to be an Arrow file')
  const tail = await m.bytes(size - 10, 10)
  if (!Buffer.from(tail.subarray(4)).equals(MAGIC)) throw new Error('its footer is missing (truncated)')
  const footerLength = new DataView(tail.buffer).getInt32(0, true)
  if (footerLength <= 0 || footerLength > size - 18) throw new Error('its footer has an impossible length')
  const footerBytes = await m.bytes(size - 10 - footerLength, footerLength)
  const footer = fbFile.Footer.getRootAsFooter(new flatbuffers.ByteBuffer(footerBytes))
  const fbSchema = footer.schema()
  if (!fbSchema) throw new Error('its footer has no schema')
  const decoded = decodeSchema(fbSchema)
  const blocks = (count: number, get: (i: number) => InstanceType<typeof fbFile.Block> | null) =>
    Array.from({ length: count }, (_, i) => {
      const b = get(i)
      if (!b) throw new Error('its footer lists a missing block')
      const offset = Number(b.offset())
      if (!(offset >= 8 && offset < size)) throw new Error('its footer points outside the file')
      return offset
    })
  const dictionaryBlocks = blocks(footer.dictionariesLength(), (i) => footer.dictionaries(i))
  const batchBlocks = blocks(footer.recordBatchesLength(), (i) => footer.recordBatches(i))
  // Row count from the batch headers (a few hundred bytes each), before any body is read.
  let rows = 0
  const headers: RawMessage[] = []
  for (const at of batchBlocks) {
    const raw = await m.at(at)
    if (!raw || raw.message.headerType() !== H.RecordBatch) throw new Error('its footer points at something that is not a record batch')
    rows += Number((raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch).length())
    headers.push(raw)
  }
  let done = 0
  const dictionaries = new Map<number, Vector>()
  const prepared = unsupportedFree(decoded)
    ? (async () => {
        for (const at of dictionaryBlocks) {
          const raw = await m.at(at)
          if (!raw) throw new Error('its footer points at the end-of-stream marker')
          await readDictionary(m, raw, decoded, dictionaries)
        }
      })
    : async () => undefined
  const schemaRef: SchemaRef = { bytes: footerBytes, pos: fbSchema.bb_pos }
  const passThrough = passable(decoded)
    ? passThroughOf(m, decoded, schemaRef, async function* () {
        for (const raw of headers) {
          yield raw
          done++
        }
      })
    : null
  return {
    schema: decoded.schema,
    conversions: decoded.conversions,
    unsupported: decoded.unsupported,
    rowCount: rows,
    size,
    passThrough,
    position: () => (headers.length === 0 ? size : Math.round((size * done) / headers.length)),
    async *batches() {
      try {
        await prepared()
        const load = async (raw: RawMessage) => {
          const body = await m.bytes(raw.bodyAt, raw.bodyLength)
          const header = raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch
          return loadBatchAsync(decoded.schema, decoded.layouts, header, body, dictionaries)
        }
        const pending: Promise<RecordBatch>[] = []
        let next = 0
        for (;;) {
          const depth = compressed(headers[next]) ? readAhead() : 1
          while (pending.length < depth && next < headers.length) pending.push(ahead(load(headers[next++]!)))
          const batch = pending.shift()
          if (!batch) return
          yield await batch
          done++
        }
      } finally {
        await m.handle.close().catch(() => undefined)
      }
    },
    close: () => m.handle.close().catch(() => undefined),
  }
}

function compressed(raw: RawMessage | undefined): boolean {
  return !!raw && (raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch).compression() !== null
}

function unsupportedFree(decoded: DecodedSchema): boolean {
  return decoded.unsupported.length === 0
}

async function readDictionary(m: Messages, raw: RawMessage, decoded: DecodedSchema, dictionaries: Map<number, Vector>): Promise<void> {
  if (raw.message.headerType() !== H.DictionaryBatch) throw new Error('a dictionary block holds something else')
  const header = raw.message.header(new fbMessage.DictionaryBatch()) as InstanceType<typeof fbMessage.DictionaryBatch>
  const id = Number(header.id())
  const target = decoded.dictionaries.get(id)
  if (!target) throw new Error(`a dictionary batch has the unknown id ${id}`)
  const data = header.data()
  if (!data) throw new Error('a dictionary batch is empty')
  const body = await m.bytes(raw.bodyAt, raw.bodyLength)
  const values = loadDictionary(target.field, target.layout, data, body, dictionaries)
  const previous = dictionaries.get(id)
  dictionaries.set(id, header.isDelta() && previous ? makeVector(previous.concat(values).data) : values)
}

async function openStream(m: Messages): Promise<IpcReader> {
  const first = await m.at(0)
  if (!first) throw new Error('it holds no schema (it is empty)')
  const decoded = schemaOf(first)
  let position = first.end
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await m.handle.close().catch(() => undefined)
  }
  const schemaTable = first.message.header(new fbMessage.Schema()) as InstanceType<typeof fbMessage.Schema>
  const passThrough = passable(decoded)
    ? passThroughOf(m, decoded, { bytes: first.message.bb!.bytes(), pos: schemaTable.bb_pos }, async function* () {
        try {
          let at = first.end
          for (;;) {
            const raw = await m.at(at)
            if (!raw) {
              at = await nextStream(m, at, decoded)
              position = at
              if (at < 0) return
              continue
            }
            const type = raw.message.headerType()
            if (type === H.Schema) throw new Error('it holds a second schema in the middle of a stream')
            // Without dictionaries in the schema, a dictionary batch is as unexpected as any other message.
            if (type !== H.RecordBatch) throw new Error(`it holds an unexpected message (type ${type})`)
            at = raw.end
            position = at
            yield raw
          }
        } finally {
          await close()
        }
      })
    : null
  return {
    schema: decoded.schema,
    conversions: decoded.conversions,
    unsupported: decoded.unsupported,
    rowCount: null,
    size: m.size,
    passThrough,
    position: () => position,
    async *batches() {
      try {
        const dictionaries = new Map<number, Vector>()
        let at = first.end
        /** The next record batch, its loading started; null at the end. Dictionaries are applied on the way. */
        const nextBatch = async (): Promise<{ batch: Promise<RecordBatch>; compressed: boolean } | null> => {
          for (;;) {
            const raw = await m.at(at)
            if (!raw) {
              // End-of-stream; another stream may follow (concatenated streams must agree).
              at += new DataView((await m.bytes(at, 4)).buffer).getInt32(0, true) === -1 ? 8 : 4
              position = at
              if (at >= m.size) return null
              const next = await m.at(at)
              if (!next) continue
              const schema = schemaOf(next).schema
              if (!sameSchema(schema, decoded.schema)) {
                throw new Error(`it holds Arrow streams whose schemas disagree (first: ${String(decoded.schema.fields)}; then: ${String(schema.fields)})`)
              }
              dictionaries.clear()
              at = next.end
              continue
            }
            const type = raw.message.headerType()
            if (type === H.DictionaryBatch) {
              await readDictionary(m, raw, decoded, dictionaries)
            } else if (type === H.RecordBatch) {
              const body = await m.bytes(raw.bodyAt, raw.bodyLength)
              const header = raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch
              at = raw.end
              position = at
              return { batch: ahead(loadBatchAsync(decoded.schema, decoded.layouts, header, body, dictionaries)), compressed: header.compression() !== null }
            } else if (type === H.Schema) {
              throw new Error('it holds a second schema in the middle of a stream')
            } else {
              throw new Error(`it holds an unexpected message (type ${type})`)
            }
            at = raw.end
            position = at
          }
        }
        // Read ahead only without dictionaries (a later dictionary batch may replace what a held batch uses)
        // and only while batches come compressed.
        const pending: Promise<RecordBatch>[] = []
        let ended = false
        let depth = 1
        for (;;) {
          while (!ended && pending.length < depth) {
            const p = await nextBatch()
            if (!p) ended = true
            else {
              pending.push(p.batch)
              if (p.compressed && decoded.dictionaries.size === 0) depth = readAhead()
            }
          }
          const batch = pending.shift()
          if (!batch) return
          yield await batch
        }
      } finally {
        await close()
      }
    },
    close,
  }
}

export function sameSchema(a: Schema, b: Schema): boolean {
  return a.fields.length === b.fields.length && a.fields.every((f, i) => f.name === b.fields[i]!.name && String(f.type) === String(b.fields[i]!.type))
}

/**
 * After the end-of-stream marker at `at`: the position of the next concatenated stream's first batch (its
 * schema checked against the first), or -1 at the end of the file.
 */
async function nextStream(m: Messages, at: number, decoded: DecodedSchema): Promise<number> {
  for (;;) {
    at += new DataView((await m.bytes(at, 4)).buffer).getInt32(0, true) === -1 ? 8 : 4
    if (at >= m.size) return -1
    const next = await m.at(at)
    if (!next) continue
    const nextDecoded = schemaOf(next)
    const schema = nextDecoded.schema
    // Its batches go to arrow-rs under the first stream's schema: the layouts must agree too (Utf8 vs Utf8View).
    if (!sameSchema(schema, decoded.schema) || JSON.stringify(nextDecoded.layouts) !== JSON.stringify(decoded.layouts)) {
      throw new Error(`it holds Arrow streams whose schemas disagree (first: ${String(decoded.schema.fields)}; then: ${String(schema.fields)})`)
    }
    return next.end
  }
}

/** Whether the file's batches can reach arrow-rs as they are: see {@link IpcReader.passThrough}. */
function passable(decoded: DecodedSchema): boolean {
  if (decoded.unsupported.length > 0 || decoded.dictionaries.size > 0) return false
  const plain = (l: Layout): boolean => l.kind === 'plain' && l.children.every(plain)
  if (!decoded.layouts.every((l) => l.kind === 'view' || plain(l))) return false
  return decoded.conversions.every((c) => c.from === 'Utf8View' || c.from === 'BinaryView')
}

function passThroughOf(m: Messages, decoded: DecodedSchema, schema: SchemaRef, walk: () => AsyncGenerator<RawMessage>): PassThrough {
  const decode = async (raw: RawMessage) => {
    const body = await m.bytes(raw.bodyAt, raw.bodyLength)
    return loadBatchAsync(decoded.schema, decoded.layouts, raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch, body, new Map())
  }
  const buffers = new MessageBuffers(schema)
  return {
    frame: (messages) => buffers.frame(messages),
    release: (messages) => buffers.release(messages),
    async *batches(limits) {
      for await (const raw of walk()) {
        const header = raw.message.header(new fbMessage.RecordBatch()) as FbRecordBatch
        const rows = Number(header.length())
        if (!(rows >= 0 && rows <= limits.maxRows) || raw.bodyLength > limits.maxBytes) {
          yield await decode(raw)
          continue
        }
        const bytes = await m.bytesInto(buffers.take(raw.end - raw.at), MESSAGE_AT, raw.at, raw.end - raw.at)
        const metaDataLength = raw.bodyAt - raw.at
        const decodedBytes = passBytes(header, bytes.subarray(metaDataLength), limits.maxBytes)
        if (decodedBytes === null || decodedBytes > limits.maxBytes) {
          buffers.release([{ bytes, metaDataLength }])
          yield await decode(raw)
        } else yield { raw: true, rows, bytes: decodedBytes, message: { bytes, metaDataLength } }
      }
    },
  }
}

/**
 * The bytes a batch's buffers decode to, or null when it must be decoded here: a buffer outside the body,
 * LZ4 (decoded here, as its frames need not bound their size), a ZSTD buffer that is not one well-formed frame,
 * or frames that could decode to more than twice `maxBytes`.
 */
function passBytes(header: FbRecordBatch, body: Uint8Array, maxBytes: number): number | null {
  const compression = header.compression()
  const codec = compression ? (compression.codec() as number) : null
  if (codec !== null && codec !== 1) return null
  let total = 0
  let bound = 0
  const dv = new DataView(body.buffer, body.byteOffset, body.byteLength)
  for (let i = 0; i < header.buffersLength(); i++) {
    const b = header.buffers(i)!
    const offset = Number(b.offset())
    const length = Number(b.length())
    if (!(offset >= 0 && length >= 0 && offset + length <= body.length)) return null
    if (codec === null || length === 0) {
      total += length
      continue
    }
    if (length < 8) return null
    const size = dv.getBigInt64(offset, true)
    if (size === -1n) {
      total += length - 8
      continue
    }
    if (size < 0n || size > 2n ** 31n) return null
    const most = zstdFrameBound(body.subarray(offset + 8, offset + length), Number(size))
    if (most === null || most < size) return null
    total += Number(size)
    bound += most
  }
  // arrow-rs decodes a frame whole before it compares the result with the claimed size: bound what it may make.
  // A batch past the ratio limit is decoded here, where it is refused before anything is allocated (checkDeclared).
  if (total > RATIO_GRACE && total > MAX_RATIO * Math.max(1, body.length)) return null
  return bound > 2 * maxBytes ? null : total
}
