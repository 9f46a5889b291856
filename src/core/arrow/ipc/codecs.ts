import * as zlib from 'node:zlib'
import { MAX_RATIO, RATIO_GRACE, bytesText } from '../../limits'
import { lz4Frame } from './lz4'

/**
 * A compressed part whose declared size is past the limits any compressed input is held to (the ratio past the
 * grace, see limits.ts): refused before anything is allocated for it. Readers say it with the file's name.
 */
export class DecodeLimit extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message)
  }
}

/**
 * Refuse `what` (e.g. "a record batch") when the sizes its compressed buffers or pages declare add up to more than
 * {@link RATIO_GRACE} and more than {@link MAX_RATIO} times the compressed bytes that hold them. Declared sizes are
 * what the decoders allocate, so this is checked before any of them runs.
 */
export function checkDeclared(declared: number, compressed: number, what: string, hint: string): void {
  if (declared > RATIO_GRACE && declared > MAX_RATIO * Math.max(1, compressed)) {
    throw new DecodeLimit(
      `has ${what} whose compressed ${bytesText(compressed)} declare ${bytesText(declared)} (more than ${MAX_RATIO.toLocaleString('en')} times), which no ordinary data does: import refuses such files (decompression bombs)`,
      hint,
    )
  }
}

type Zstd = (input: Uint8Array, outputLength: number) => Uint8Array

const native = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array, o?: { maxOutputLength?: number }) => Buffer }).zstdDecompressSync

// zstddec (the zstd reference decoder in wasm) is ESM-only: loaded lazily, once, by dynamic import.
type Decoder = { decode(input: Uint8Array, outputLength: number): Uint8Array }
let wasm: Decoder | null = null
let loading: Promise<void> | null = null

/**
 * Make {@link zstd} ready: Node's zlib has ZSTD from 22.15 (Electron); elsewhere (Node 20) the wasm
 * decoder is loaded. Call before reading (readers do, when they open a file).
 */
export function initZstd(): Promise<void> {
  if (native || wasm) return Promise.resolve()
  loading ??= import('zstddec').then(async ({ ZSTDDecoder }) => {
    const decoder = new ZSTDDecoder()
    await decoder.init()
    wasm = decoder
  })
  return loading
}

/** Whether ZSTD decodes natively here (Node ≥ 22.15, Electron); else through wasm. */
export const nativeZstd = native !== undefined

/** ZSTD-decode `input` whose decoded size is known; the size is checked by the callers. */
export const zstd: Zstd = (input, outputLength) => {
  if (native) {
    const out = native(input, { maxOutputLength: Math.max(outputLength, 1) })
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength)
  }
  if (!wasm) throw new Error('the ZSTD decoder is not loaded (initZstd was not awaited)')
  return wasm.decode(input, outputLength)
}

/** Arrow IPC `CompressionType`: 0 = LZ4_FRAME, 1 = ZSTD. */
export function decompressIpc(codec: number, input: Uint8Array, outputLength: number): Uint8Array {
  const out = codec === 0 ? lz4Frame(input, outputLength) : codec === 1 ? zstd(input, outputLength) : null
  if (!out) throw new Error(`unknown buffer compression (codec ${codec})`)
  if (out.length !== outputLength) throw new Error(`a compressed buffer decodes to ${out.length} bytes instead of ${outputLength}`)
  return out
}
