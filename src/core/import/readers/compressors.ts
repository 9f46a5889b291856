import * as zlib from 'node:zlib'
import type { Compressors } from 'hyparquet'
import { checkDeclared, zstd } from '../../arrow/ipc/codecs'
import { lz4Block } from '../../arrow/ipc/lz4'

/**
 * Parquet codecs beyond hyparquet's built-in Snappy: GZIP and BROTLI from Node's zlib, ZSTD from
 * zlib where the runtime has it (Node ≥ 22.15, Electron) and from `zstddec` (wasm) elsewhere (Node 20;
 * the reader awaits `initZstd()` first), and
 * a small LZ4 block decoder for LZ4_RAW. Hadoop-framed LZ4 stays unsupported (a clear error).
 * Every codec, Snappy too (hyparquet's own decoder, passed in), is held to the size its page declares — refused
 * before decoding past the ratio limit (checkDeclared), never making more than declared.
 */
export function parquetCompressors(snappy?: (input: Uint8Array, output: Uint8Array) => void): Compressors {
  const held =
    (decode: (input: Uint8Array, outputLength: number) => Uint8Array) =>
    (input: Uint8Array, outputLength: number): Uint8Array => {
      checkDeclared(outputLength, input.length, 'a page', PAGE_HINT)
      return decode(input, outputLength)
    }
  const limit = (outputLength: number) => ({ maxOutputLength: Math.max(1, outputLength) })
  const compressors: Compressors = {
    GZIP: held((input, outputLength) => new Uint8Array(zlib.gunzipSync(input, limit(outputLength)))),
    BROTLI: held((input, outputLength) => new Uint8Array(zlib.brotliDecompressSync(input, limit(outputLength)))),
    LZ4_RAW: held((input, outputLength) => lz4Block(input, outputLength)),
    ZSTD: held((input, outputLength) => zstd(input, outputLength)),
  }
  if (snappy) {
    compressors.SNAPPY = held((input, outputLength) => {
      const out = new Uint8Array(outputLength)
      snappy(input, out)
      return out
    })
  }
  return compressors
}

const PAGE_HINT = 'If the file is genuine, write it with dictionary encoding or without compression (as Parquet writers do by default), and import that'
