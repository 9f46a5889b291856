import * as zlib from 'node:zlib'
import type { Compressors } from 'hyparquet'
import { zstd } from '../../arrow/ipc/codecs'
import { lz4Block } from '../../arrow/ipc/lz4'

/**
 * Parquet codecs beyond hyparquet's built-in Snappy: GZIP and BROTLI from Node's zlib, ZSTD from
 * zlib where the runtime has it (Node ≥ 22.15, Electron) and from `zstddec` (wasm) elsewhere (Node 20;
 * the reader awaits `initZstd()` first), and
 * a small LZ4 block decoder for LZ4_RAW. Hadoop-framed LZ4 stays unsupported (a clear error).
 */
export function parquetCompressors(): Compressors {
  const compressors: Compressors = {
    GZIP: (input) => new Uint8Array(zlib.gunzipSync(input)),
    BROTLI: (input) => new Uint8Array(zlib.brotliDecompressSync(input)),
    LZ4_RAW: (input, outputLength) => lz4Block(input, outputLength),
    ZSTD: (input, outputLength) => zstd(input, outputLength),
  }
  return compressors
}
