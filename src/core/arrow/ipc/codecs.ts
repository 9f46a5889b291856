import * as zlib from 'node:zlib'
import { decompress as fzstd } from 'fzstd'
import { lz4Frame } from './lz4'

type Zstd = (input: Uint8Array, outputLength: number) => Uint8Array

const native = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array, o?: { maxOutputLength?: number }) => Buffer }).zstdDecompressSync

/**
 * ZSTD from Node's zlib where the runtime has it (Node ≥ 22.15: Electron), else `fzstd` (pure JS,
 * about a third of the speed). Either way the decoded length is checked against the expected one.
 */
export const zstd: Zstd = native
  ? (input, outputLength) => {
      const out = native(input, { maxOutputLength: Math.max(outputLength, 1) })
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
    }
  : (input, outputLength) => fzstd(input, new Uint8Array(outputLength))

/** Arrow IPC `CompressionType`: 0 = LZ4_FRAME, 1 = ZSTD. */
export function decompressIpc(codec: number, input: Uint8Array, outputLength: number): Uint8Array {
  const out = codec === 0 ? lz4Frame(input, outputLength) : codec === 1 ? zstd(input, outputLength) : null
  if (!out) throw new Error(`unknown buffer compression (codec ${codec})`)
  if (out.length !== outputLength) throw new Error(`a compressed buffer decodes to ${out.length} bytes instead of ${outputLength}`)
  return out
}
