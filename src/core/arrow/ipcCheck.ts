import { Message, MessageHeader, type DataType, type Field, type Schema } from 'apache-arrow'
import { createRequire } from 'node:module'
import { guardFlatbuffers } from './flatbufferGuard'

guardFlatbuffers()

interface FooterBlock {
  offset: number
  metaDataLength: number
  bodyLength: number
}
interface Footer {
  schema: Schema
  recordBatches(): Iterable<FooterBlock>
  dictionaryBatches(): Iterable<FooterBlock>
}
/** apache-arrow's footer decoder (not exported by the package root), from the same copy as everything else. */
const { Footer } = createRequire(require.resolve('apache-arrow'))('./ipc/metadata/file.js') as { Footer: { decode(bytes: Uint8Array): Footer } }

export interface IpcLimits {
  /** Largest flatbuffer metadata of one message, bytes. */
  maxMetadataBytes: number
  /** Deepest field nesting (struct of list of …). */
  maxDepth: number
  /** Most columns, counting nested fields. */
  maxFields: number
  /** Rows a batch may claim beyond what its bytes can hold (columns of type Null carry no bytes). */
  maxRowsWithoutBytes: number
}

export const DEFAULT_IPC_LIMITS: IpcLimits = {
  maxMetadataBytes: 16 * 1024 * 1024,
  maxDepth: 32,
  maxFields: 10_000,
  maxRowsWithoutBytes: 1_000_000,
}

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31] // "ARROW1"
const CONTINUATION = 0xffffffff

/**
 * Check the framing of Arrow IPC bytes (stream or file format) before apache-arrow decodes them:
 * apache-arrow trusts every length it reads, so a damaged length can make it loop or allocate without
 * end. This walk does work proportional to the metadata only (never to a claimed length): each message's
 * continuation marker and metadata length fit the bytes, its flatbuffer header decodes (lists bounded by
 * `guardFlatbuffers`), its body fits, every buffer of a record or dictionary batch lies inside its body,
 * and no batch claims more rows than its bytes can hold. Returns the first problem, or null.
 */
export function ipcFramingProblem(bytes: Uint8Array, limits: IpcLimits = DEFAULT_IPC_LIMITS): string | null {
  try {
    return framingProblem(bytes, limits)
  } catch (error) {
    // Damaged metadata can break apache-arrow's decoders in many ways; each is a damaged body.
    return `damaged metadata (${error instanceof Error ? error.message : String(error)})`
  }
}

function framingProblem(bytes: Uint8Array, limits: IpcLimits): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let pos = 0
  let end = bytes.byteLength
  const isFile = bytes.byteLength >= 6 && MAGIC.every((b, i) => bytes[i] === b)
  let footer: Footer | null = null
  let schema: Schema | null = null
  if (isFile) {
    if (bytes.byteLength < 6 + 2 + 4 + 6 || !MAGIC.every((b, i) => bytes[bytes.byteLength - 6 + i] === b)) return 'the Arrow file does not end with its magic bytes (truncated?)'
    const footerLength = view.getInt32(bytes.byteLength - 10, true)
    if (footerLength <= 0 || footerLength > bytes.byteLength - 18 || footerLength > limits.maxMetadataBytes) return 'the Arrow file footer length is out of range'
    end = bytes.byteLength - 10 - footerLength
    pos = 8 // magic padded to 8 bytes
    try {
      footer = Footer.decode(bytes.subarray(end, end + footerLength))
      schema = footer.schema
    } catch (error) {
      return `the Arrow file footer is damaged (${error instanceof Error ? error.message : String(error)})`
    }
    if (!schema) return 'the Arrow file footer has no schema'
    const problem = schemaProblem(schema, limits)
    if (problem) return problem
  }
  // Where each message starts → its metadata and body sizes (a file's footer must point at these).
  const starts = new Map<number, { metaDataLength: number; bodyLength: number }>()
  let messages = 0
  const done = (): string | null => (footer ? footerProblem(footer, starts) : schema ? null : 'the stream has no schema message')
  for (;;) {
    if (pos === end) return isFile ? done() : 'the stream ends without its end-of-stream marker'
    if (pos + 4 > end) return `a message header is cut at byte ${pos}`
    let metaLength = view.getUint32(pos, true)
    let start = pos + 4
    if (metaLength === CONTINUATION) {
      if (pos + 8 > end) return `a message header is cut at byte ${pos}`
      metaLength = view.getUint32(pos + 4, true)
      start = pos + 8
    }
    if (metaLength === 0) {
      // End-of-stream: a stream must end right here; a file's stream part may end before its footer.
      if (!isFile && start !== end) return `bytes follow the end-of-stream marker at byte ${pos}`
      return done()
    }
    if (metaLength > limits.maxMetadataBytes) return `message metadata of ${metaLength} bytes at byte ${pos} is larger than allowed`
    if (start + metaLength > end) return `message metadata at byte ${pos} runs past the end of the body`
    let message: Message
    try {
      message = Message.decode(bytes.subarray(start, start + metaLength))
    } catch (error) {
      return `message ${messages + 1} has damaged metadata (${error instanceof Error ? error.message : String(error)})`
    }
    const bodyLength = message.bodyLength
    const bodyStart = start + metaLength
    if (!Number.isSafeInteger(bodyLength) || bodyLength < 0 || bodyLength > end - bodyStart) return `message ${messages + 1} claims a body of ${bodyLength} bytes; ${end - bodyStart} remain`
    if (messages === 0 && !isFile && message.headerType !== MessageHeader.Schema) return 'the first message is not a schema'
    starts.set(pos, { metaDataLength: bodyStart - pos, bodyLength })
    try {
      if (message.headerType === MessageHeader.Schema) {
        if (messages > 0) return 'a second schema message'
        if (bodyLength !== 0) return 'the schema message has a body'
        schema = message.header() as Schema
        const problem = schemaProblem(schema, limits)
        if (problem) return problem
      } else if (message.headerType === MessageHeader.RecordBatch || message.headerType === MessageHeader.DictionaryBatch) {
        const header = message.header() as unknown as BatchHeader
        const problem = batchFramingProblem(header, bodyLength, limits)
        if (problem) return `message ${messages + 1}: ${problem}`
      } else {
        return `message ${messages + 1} has an unknown type (${message.headerType})`
      }
    } catch (error) {
      return `message ${messages + 1} has damaged metadata (${error instanceof Error ? error.message : String(error)})`
    }
    messages++
    pos = bodyStart + bodyLength
  }
}

/** Every block of a file's footer must be one of the messages the walk found, with the same sizes. */
function footerProblem(footer: Footer, starts: Map<number, { metaDataLength: number; bodyLength: number }>): string | null {
  let blocks: FooterBlock[]
  try {
    blocks = [...footer.dictionaryBatches(), ...footer.recordBatches()]
  } catch (error) {
    return `the Arrow file footer is damaged (${error instanceof Error ? error.message : String(error)})`
  }
  for (const block of blocks) {
    const found = starts.get(Number(block.offset))
    if (!found || found.metaDataLength !== block.metaDataLength || found.bodyLength !== Number(block.bodyLength))
      return `the file footer points at a message that is not there (offset ${block.offset})`
  }
  return null
}

interface BatchHeader {
  length: number
  nodes: { length: number; nullCount: number }[]
  buffers: { offset: number; length: number }[]
  data?: unknown
  compression?: unknown
}

function batchFramingProblem(header: BatchHeader, bodyLength: number, limits: IpcLimits): string | null {
  const { length, nodes, buffers } = header
  if (!Number.isSafeInteger(length) || length < 0) return `a batch length of ${length}`
  if (length > limits.maxRowsWithoutBytes + bodyLength * 8) return `a batch claims ${length} rows in ${bodyLength} bytes`
  for (const b of buffers) {
    if (!Number.isSafeInteger(b.offset) || !Number.isSafeInteger(b.length) || b.offset < 0 || b.length < 0 || b.offset + b.length > bodyLength)
      return `a buffer (offset ${b.offset}, length ${b.length}) lies outside the ${bodyLength}-byte body`
  }
  for (const n of nodes) {
    if (!Number.isSafeInteger(n.length) || n.length < 0 || n.length > limits.maxRowsWithoutBytes + bodyLength * 8) return `a column claims ${n.length} values in ${bodyLength} bytes`
    if (!Number.isSafeInteger(n.nullCount) || n.nullCount < 0 || n.nullCount > n.length) return `a column claims ${n.nullCount} nulls of ${n.length} values`
  }
  return null
}

function schemaProblem(schema: Schema, limits: IpcLimits): string | null {
  let count = 0
  const walk = (fields: readonly Field[], depth: number): string | null => {
    if (depth > limits.maxDepth) return `the schema nests deeper than ${limits.maxDepth} levels`
    for (const f of fields) {
      if (!f?.type) return 'the schema has a field without a type'
      if (++count > limits.maxFields) return `the schema has more than ${limits.maxFields} fields`
      const children = (f.type as DataType).children ?? []
      const problem = walk(children, depth + 1)
      if (problem) return problem
    }
    return null
  }
  return walk(schema.fields, 1)
}
