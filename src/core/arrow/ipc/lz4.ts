/** LZ4 decoders: the raw block format (Parquet LZ4_RAW) and the frame format (Arrow IPC LZ4_FRAME). */

const damaged = (): never => {
  throw new Error('LZ4 data is damaged')
}

/**
 * Decode LZ4 block sequences from `input` into `out` starting at `o`; matches may reach back into
 * earlier output (linked frame blocks). Returns the new output position. Never reads or writes
 * out of bounds: malformed input throws.
 */
function decodeBlock(input: Uint8Array, out: Uint8Array, o: number, limit: number): number {
  let i = 0
  while (i < input.length) {
    const token = input[i++]!
    let literals = token >> 4
    if (literals === 15) {
      let b: number
      do {
        if (i >= input.length) damaged()
        b = input[i++]!
        literals += b
      } while (b === 255)
    }
    if (i + literals > input.length || o + literals > limit) damaged()
    out.set(input.subarray(i, i + literals), o)
    i += literals
    o += literals
    if (i >= input.length) break
    if (i + 2 > input.length) damaged()
    const offset = input[i]! | (input[i + 1]! << 8)
    i += 2
    if (offset === 0 || offset > o) damaged()
    let length = token & 15
    if (length === 15) {
      let b: number
      do {
        if (i >= input.length) damaged()
        b = input[i++]!
        length += b
      } while (b === 255)
    }
    length += 4
    if (o + length > limit) damaged()
    if (offset >= length) out.copyWithin(o, o - offset, o - offset + length)
    else for (let k = 0; k < length; k++) out[o + k] = out[o + k - offset]!
    o += length
  }
  return o
}

/** Decode one LZ4 block (the raw format, no frame) of known decoded size. */
export function lz4Block(input: Uint8Array, outputLength: number): Uint8Array {
  const out = new Uint8Array(outputLength)
  if (decodeBlock(input, out, 0, outputLength) !== outputLength) damaged()
  return out
}

const FRAME_MAGIC = 0x184d2204

/**
 * Decode an LZ4 frame (possibly several concatenated) whose decoded size is known (Arrow IPC stores
 * it before each compressed buffer). Checksums are skipped, not verified: Arrow's own readers
 * do the same, and the decoded length is checked.
 */
export function lz4Frame(input: Uint8Array, outputLength: number): Uint8Array {
  const out = new Uint8Array(outputLength)
  const view = new DataView(input.buffer, input.byteOffset, input.byteLength)
  let i = 0
  let o = 0
  while (i < input.length) {
    if (i + 7 > input.length) damaged()
    const magic = view.getUint32(i, true)
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      // Skippable frame.
      if (i + 8 > input.length) damaged()
      i += 8 + view.getUint32(i + 4, true)
      continue
    }
    if (magic !== FRAME_MAGIC) damaged()
    const flg = input[i + 4]!
    if (flg >> 6 !== 1) damaged()
    const blockChecksum = (flg & 0x10) !== 0
    const hasSize = (flg & 0x08) !== 0
    const contentChecksum = (flg & 0x04) !== 0
    const hasDict = (flg & 0x01) !== 0
    if (hasDict) throw new Error('LZ4 frames with a dictionary are not supported')
    i += 6 + (hasSize ? 8 : 0) + 1 // FLG, BD, [content size], header checksum
    for (;;) {
      if (i + 4 > input.length) damaged()
      const word = view.getUint32(i, true)
      i += 4
      if (word === 0) break
      const size = word & 0x7fffffff
      if (i + size > input.length) damaged()
      const block = input.subarray(i, i + size)
      if (word & 0x80000000) {
        if (o + size > outputLength) damaged()
        out.set(block, o)
        o += size
      } else {
        o = decodeBlock(block, out, o, outputLength)
      }
      i += size + (blockChecksum ? 4 : 0)
    }
    if (contentChecksum) i += 4
  }
  if (o !== outputLength) damaged()
  return out
}
