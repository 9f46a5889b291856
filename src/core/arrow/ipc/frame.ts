/**
 * An Arrow IPC *file* made of record-batch messages copied byte for byte from another IPC file or stream,
 * for lancedb's native `add` (arrow-rs decodes it: buffer compression and view types included). Nothing is
 * decoded or re-encoded here: only the footer is new. Its schema is the source's own Schema flatbuffer
 * table, copied verbatim (flatbuffer offsets are relative, so a copied subtree stays valid), so types
 * apache-arrow 18 cannot express (Utf8View, BinaryView) reach arrow-rs as the file wrote them.
 */

/** A Schema table inside a flatbuffer: the buffer (its root at byte 0) and the table's position in it. */
export interface SchemaRef {
  bytes: Uint8Array
  pos: number
}

/** One record-batch message: continuation + metadata length + metadata + body, as in the source. */
export interface RawMessage {
  bytes: Uint8Array
  /** Metadata length including its 4- or 8-byte prefix (the footer block's `metaDataLength`). */
  metaDataLength: number
}

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31] // "ARROW1"
const pad8 = (n: number) => (n + 7) & ~7

/** Bytes a footer for `blocks` record batches takes, with the footer length and the closing magic. */
export function footerRoom(schema: SchemaRef, blocks: number): number {
  return pad8(32 + schema.bytes.length) + 8 + blocks * 24 + 4 + 6
}

/**
 * Buffers to read one message each into, at {@link MESSAGE_AT}, with room around it for the file's magic and
 * footer, so that {@link ipcFile} frames a lone message where it lies, without a copy. A buffer handed back
 * (`release`, once Lance is done with it) is reused for a later message that fits: a fresh 30 MB buffer per
 * record batch costs its allocation and page faults every time.
 */
export class MessageBuffers {
  private readonly free: ArrayBuffer[] = []
  private readonly ours = new WeakSet<ArrayBuffer>()

  constructor(private readonly schema: SchemaRef) {}

  /** A buffer for a message of `length` bytes; the message goes at {@link MESSAGE_AT}. */
  take(length: number): Uint8Array {
    const need = messageBufferLength(this.schema, length)
    // Reuse only a buffer of about the right size: a small message must not pin a big buffer. New ones get
    // 1/16 to spare, so that batches of slightly different sizes (compressed ones) share them.
    const i = this.free.findIndex((b) => b.byteLength >= need && b.byteLength <= need * 1.25 + 4096)
    const buffer = i >= 0 ? this.free.splice(i, 1)[0]! : new ArrayBuffer(need + (need >> 4))
    this.ours.add(buffer)
    return new Uint8Array(buffer, 0, need)
  }

  /** Hand back the buffers of messages Lance has finished with (at most two are kept). */
  release(messages: RawMessage[]): void {
    for (const m of messages) {
      const buffer = m.bytes.buffer as ArrayBuffer
      if (this.ours.has(buffer) && this.free.length < 2 && !this.free.includes(buffer)) this.free.push(buffer)
    }
  }

  /** The IPC file holding `messages` (in order) under the schema: see {@link ipcFile}. */
  frame(messages: RawMessage[]): Uint8Array {
    const only = messages.length === 1 ? messages[0]! : null
    if (only && only.bytes.byteOffset === MESSAGE_AT && this.ours.has(only.bytes.buffer as ArrayBuffer)) return frameInPlace(this.schema, only)
    return ipcFile(this.schema, messages)
  }
}

const messageBufferLength = (schema: SchemaRef, length: number) => MESSAGE_AT + pad8(length) + footerRoom(schema, 1)

export const MESSAGE_AT = 8

/** A lone message read into a {@link MessageBuffers} buffer, framed around it. */
function frameInPlace(schema: SchemaRef, only: RawMessage): Uint8Array {
  const out = new Uint8Array(only.bytes.buffer, 0, messageBufferLength(schema, only.bytes.length))
  const at = MESSAGE_AT + pad8(only.bytes.length)
  const footer = footerBytes(schema, [{ offset: MESSAGE_AT, meta: only.metaDataLength, body: only.bytes.length - only.metaDataLength }])
  out.fill(0, MESSAGE_AT + only.bytes.length, at)
  out.set(MAGIC, 0)
  out.set(footer, at)
  new DataView(out.buffer).setInt32(at + footer.length, footer.length, true)
  out.set(MAGIC, at + footer.length + 4)
  return out
}

/** The IPC file holding `messages` (in order) under `schema`. */
export function ipcFile(schema: SchemaRef, messages: RawMessage[]): Uint8Array {
  let at = 8
  const blocks = messages.map((m) => {
    const block = { offset: at, meta: m.metaDataLength, body: m.bytes.length - m.metaDataLength }
    at = pad8(at + m.bytes.length)
    return block
  })
  const footer = footerBytes(schema, blocks)
  const out = new Uint8Array(at + footer.length + 4 + 6)
  out.set(MAGIC, 0)
  messages.forEach((m, i) => out.set(m.bytes, blocks[i]!.offset))
  out.set(footer, at)
  const dv = new DataView(out.buffer)
  dv.setInt32(at + footer.length, footer.length, true)
  out.set(MAGIC, at + footer.length + 4)
  return out
}

/**
 * A `Footer` flatbuffer (version V5, schema, record batch blocks; no dictionaries), written by hand:
 *   0   root offset → table at 16
 *   4   vtable: [12, 16, version @12, schema @4, dictionaries absent, recordBatches @8]
 *   16  table: soffset to vtable, schema uoffset, recordBatches uoffset, version (int16)
 *   32  the source's schema flatbuffer, verbatim (8-aligned, as it was in its own buffer)
 *   …   recordBatches: length, then 24-byte Block structs (8-aligned)
 */
function footerBytes(schema: SchemaRef, blocks: { offset: number; meta: number; body: number }[]): Uint8Array {
  const schemaAt = 32
  let vectorAt = schemaAt + schema.bytes.length
  vectorAt = pad8(vectorAt) + 4 // length at ≡ 4 (mod 8): the structs start 8-aligned
  const out = new Uint8Array(vectorAt + 4 + blocks.length * 24)
  const dv = new DataView(out.buffer)
  dv.setUint32(0, 16, true)
  for (const [i, v] of [12, 16, 12, 4, 0, 8].entries()) dv.setUint16(4 + i * 2, v, true)
  dv.setInt32(16, 16 - 4, true)
  dv.setUint32(20, schemaAt + schema.pos - 20, true)
  dv.setUint32(24, vectorAt - 24, true)
  dv.setInt16(28, 4, true) // MetadataVersion.V5
  out.set(schema.bytes, schemaAt)
  dv.setUint32(vectorAt, blocks.length, true)
  blocks.forEach((b, i) => {
    const at = vectorAt + 4 + i * 24
    dv.setBigInt64(at, BigInt(b.offset), true)
    dv.setInt32(at + 8, b.meta, true)
    dv.setBigInt64(at + 16, BigInt(b.body), true)
  })
  return out
}

const ZSTD_BLOCK_MAX = 1 << 17

/**
 * An upper bound of what `bytes` decodes to, if it is exactly one ZSTD frame (and, when the frame declares
 * its size, declares `size`); else null. Checked before a compressed buffer goes to arrow-rs undecoded, which
 * reads a frame to its end whatever the batch header claims: the bound keeps what it can allocate to what the
 * caller allows. Walks the block headers only (work proportional to the block count, never to the content):
 * a raw or RLE block decodes to its stated size, a compressed one to at most 128 KiB (ZSTD's block maximum;
 * libzstd refuses more, and refuses a frame whose content differs from its declared size).
 */
export function zstdFrameBound(bytes: Uint8Array, size: number): number | null {
  if (bytes.length < 6) return null
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (dv.getUint32(0, true) !== 0xfd2fb528) return null
  const fhd = bytes[4]!
  const fcsFlag = fhd >> 6
  const single = (fhd >> 5) & 1
  const checksum = (fhd >> 2) & 1
  const dictBytes = [0, 1, 2, 4][fhd & 3]!
  if ((fhd >> 3) & 1 || dictBytes > 0) return null // reserved bit; a dictionary arrow-rs would not have
  let at = 5 + (single ? 0 : 1)
  const fcsBytes = fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag]!
  if (at + fcsBytes > bytes.length) return null
  if (fcsBytes > 0) {
    let declared: number
    if (fcsBytes === 1) declared = bytes[at]!
    else if (fcsBytes === 2) declared = dv.getUint16(at, true) + 256
    else if (fcsBytes === 4) declared = dv.getUint32(at, true)
    else declared = Number(dv.getBigUint64(at, true))
    if (declared !== size) return null
  }
  at += fcsBytes
  let bound = 0
  for (;;) {
    if (at + 3 > bytes.length) return null
    const header = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)
    const type = (header >> 1) & 3
    const blockSize = header >>> 3
    if (type === 3 || (type !== 2 && blockSize > ZSTD_BLOCK_MAX)) return null
    bound += type === 2 ? ZSTD_BLOCK_MAX : blockSize
    at += 3 + (type === 1 ? 1 : blockSize)
    if (header & 1) break
  }
  if (at + (checksum ? 4 : 0) !== bytes.length) return null
  return fcsBytes > 0 ? size : bound
}
