import * as zlib from 'node:zlib'
import type { Compressors } from 'hyparquet'

/**
 * Parquet codecs beyond hyparquet's built-in Snappy, from Node's own zlib (no extra package):
 * GZIP, BROTLI, ZSTD (where the runtime has it: Node ≥ 22.15, so Electron, not Node 20), and a
 * small LZ4 block decoder for LZ4_RAW. Hadoop-framed LZ4 stays unsupported (a clear error).
 */
export function parquetCompressors(): Compressors {
  const compressors: Compressors = {
    GZIP: (input) => new Uint8Array(zlib.gunzipSync(input)),
    BROTLI: (input) => new Uint8Array(zlib.brotliDecompressSync(input)),
    LZ4_RAW: (input, outputLength) => lz4Block(input, outputLength),
  }
  const zstd = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync
  if (zstd) compressors.ZSTD = (input) => new Uint8Array(zstd(input))
  return compressors
}

/** Decode one LZ4 block (the raw format, no frame). Throws on malformed input instead of reading out of bounds. */
export function lz4Block(input: Uint8Array, outputLength: number): Uint8Array {
  const out = new Uint8Array(outputLength)
  let i = 0
  let o = 0
  const fail = () => {
    throw new Error('LZ4 data is damaged')
  }
  while (i < input.length) {
    const token = input[i++]!
    let literals = token >> 4
    if (literals === 15) {
      let b: number
      do {
        if (i >= input.length) fail()
        b = input[i++]!
        literals += b
      } while (b === 255)
    }
    if (i + literals > input.length || o + literals > outputLength) fail()
    out.set(input.subarray(i, i + literals), o)
    i += literals
    o += literals
    if (i >= input.length) break
    if (i + 2 > input.length) fail()
    const offset = input[i]! | (input[i + 1]! << 8)
    i += 2
    if (offset === 0 || offset > o) fail()
    let length = token & 15
    if (length === 15) {
      let b: number
      do {
        if (i >= input.length) fail()
        b = input[i++]!
        length += b
      } while (b === 255)
    }
    length += 4
    if (o + length > outputLength) fail()
    for (let k = 0; k < length; k++, o++) out[o] = out[o - offset]!
  }
  if (o !== outputLength) fail()
  return out
}
