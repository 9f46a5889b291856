import { MessageHeader, MessageReader, Table, tableFromIPC, tableToIPC, type Schema } from 'apache-arrow'

/** Arrow IPC **stream** bytes of `table` (what pages of rows travel as). */
export function toIpcStream(table: Table): Uint8Array {
  return tableToIPC(table, 'stream')
}

/** A page with no rows still carries the schema, so the grid can show the columns. */
export function emptyIpcStream(schema: Schema): Uint8Array {
  return tableToIPC(new Table(schema), 'stream')
}

/** Decode IPC bytes (stream or file format) back to a Table. */
export function fromIpc(bytes: Uint8Array): Table {
  return tableFromIPC(bytes)
}

const EOS = Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0)
const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31] // "ARROW1"

/**
 * Join Arrow IPC **file**-format buffers that each hold one record batch of the same schema (what
 * lancedb's native query iterator yields) into one IPC **stream**, without decoding them.
 *
 * The IPC file format is `ARROW1` + padding, then the stream format (schema, batches, end-of-stream
 * marker), then a footer (Arrow columnar spec, "IPC File Format"). So each buffer's middle part is already
 * a stream: we keep the first one's schema message, drop the others', and end with one marker.
 * Returns null when a buffer does not look as expected (the caller then takes the decoding path).
 */
export function fileBuffersToStream(buffers: readonly Uint8Array[]): Uint8Array | null {
  if (buffers.length === 0) return null
  const parts: Uint8Array[] = []
  for (let b = 0; b < buffers.length; b++) {
    const buf = buffers[b]!
    if (buf.byteLength < 32 || MAGIC.some((byte, i) => buf[i] !== byte)) return null
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
    const footerLength = view.getInt32(buf.byteLength - 10, true)
    let end = buf.byteLength - 10 - footerLength
    // Writers pad the magic to their alignment (8 in apache-arrow, 64 in arrow-rs) with zeros.
    let start = 6
    while (start < 128 && start < end && buf[start] === 0) start++
    if (end <= start + 8 || end > buf.byteLength || view.getUint32(start, true) !== 0xffffffff) return null
    if (view.getUint32(end - 8, true) === 0xffffffff && view.getInt32(end - 4, true) === 0) end -= 8
    // arrow-rs starts the stream with the schema message (<continuation> <metadata length> <metadata>, no body);
    // apache-arrow's JS writer keeps the schema only in the footer, and then this shortcut does not apply.
    if (!startsWithSchema(buf.subarray(start, end))) return null
    if (b > 0) start += 8 + view.getInt32(start + 4, true)
    if (start > end) return null
    parts.push(buf.subarray(start, end))
  }
  parts.push(EOS)
  if (parts.length === 2) {
    // One batch: a single copy instead of Buffer.concat's allocation plus copy.
    const out = new Uint8Array(parts[0]!.byteLength + EOS.byteLength)
    out.set(parts[0]!)
    out.set(EOS, parts[0]!.byteLength)
    return out
  }
  return Buffer.concat(parts)
}

function startsWithSchema(stream: Uint8Array): boolean {
  try {
    const first = new MessageReader(stream).readMessage()
    return first !== null && first.headerType === MessageHeader.Schema && first.bodyLength === 0
  } catch {
    return false
  }
}

/**
 * The bytes of a page as one ArrayBuffer of exactly their length, for a structured clone (Electron IPC):
 * a typed-array view is cloned with its whole backing buffer (a pooled Buffer drags its 8 KiB pool along),
 * and a clone of a bare ArrayBuffer arrives as a fresh, 8-byte-aligned buffer that apache-arrow decodes in
 * place (it copies every column buffer that is not aligned to its element size). No copy when `bytes`
 * already spans its buffer, as the pages we produce do.
 */
export function exactArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const { buffer, byteOffset, byteLength } = bytes
  if (buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength) return buffer
  return bytes.slice().buffer
}
