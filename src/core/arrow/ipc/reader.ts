import { open, type FileHandle } from 'node:fs/promises'
import { makeVector, type RecordBatch, type Schema, type Vector } from 'apache-arrow'
import { loadBatchAsync, loadDictionary } from './batch'
import { initZstd } from './codecs'
import { readAhead } from './zstdPool'
import { fbFile, fbMessage, flatbuffers, type FbRecordBatch } from './fb'
import { decodeSchema, type Conversion, type DecodedSchema } from './schema'

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
  close(): Promise<void>
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
    if (at < 0 || length < 0 || at + length > this.size) throw new Error('it ends in the middle of a message (truncated)')
    // A fresh ArrayBuffer per read: 8-aligned, so typed arrays over it need no copies.
    const out = new Uint8Array(length)
    let done = 0
    while (done < length) {
      const { bytesRead } = await this.handle.read(out, done, length - done, at + done)
      if (bytesRead === 0) throw new Error('it ends in the middle of a message (truncated)')
      done += bytesRead
    }
    return out
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
    return { message, bodyAt, bodyLength, end: bodyAt + bodyLength }
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
  return {
    schema: decoded.schema,
    conversions: decoded.conversions,
    unsupported: decoded.unsupported,
    rowCount: rows,
    size,
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
  return {
    schema: decoded.schema,
    conversions: decoded.conversions,
    unsupported: decoded.unsupported,
    rowCount: null,
    size: m.size,
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
