import { createReadStream } from 'node:fs'
import { Readable, Transform, type TransformCallback } from 'node:stream'
import { TextDecoder } from 'node:util'
import { AppError } from '../../../contract'
import { inflateStages } from './inflate'

/** How a text file's bytes are packed: plain, or compressed as a whole with gzip or zstd. */
export type Compression = 'gzip' | 'zstd'
/** The text encodings import reads; anything that is not UTF-8 but plausible 8-bit text is Windows-1252. */
export type TextEncoding = 'utf-8' | 'windows-1252'

export const COMPRESSION_LABELS: Record<Compression, string> = { gzip: 'gzip', zstd: 'zstd' }

export function compressionOf(head: Uint8Array): Compression | null {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip'
  if (head.length >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) return 'zstd'
  return null
}

/**
 * The first `bytes` bytes of a compressed file's content (fewer when it is shorter), for sniffing.
 * A damaged stream is a clear error naming the file.
 */
export async function decompressedHead(path: string, compression: Compression, fileName: string, bytes: number): Promise<Buffer> {
  const file = createReadStream(path, { highWaterMark: 64 * 1024 })
  const stages = inflateStages(compression, fileName)
  const parts: Buffer[] = []
  let have = 0
  try {
    let out: Readable = file
    for (const stage of stages) {
      const from = out
      from.on('error', (error) => stage.destroy(error))
      out = from.pipe(stage)
    }
    for await (const chunk of out as AsyncIterable<Buffer>) {
      parts.push(chunk)
      have += chunk.length
      if (have >= bytes) break
    }
  } catch (error) {
    throw damaged(fileName, compression, error)
  } finally {
    file.destroy()
    for (const stage of stages) stage.destroy()
  }
  return Buffer.concat(parts).subarray(0, bytes)
}

function damaged(fileName: string, compression: Compression, error: unknown): AppError {
  if (error instanceof AppError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('corrupt', `${fileName} is not a valid ${COMPRESSION_LABELS[compression]} file: ${message}`, {
    detail: message,
    hint: `The file may be truncated or damaged; check it with ${compression === 'gzip' ? 'gzip -t' : 'zstd -t'} and copy it again`,
    cause: error,
  })
}

/**
 * Bytes to text, chunk by chunk: UTF-8 (checked: a byte sequence that is not UTF-8 stops the read with its
 * position, never a silent U+FFFD) or Windows-1252 (every byte is a character). A UTF-8 BOM is dropped.
 */
class DecodeTransform extends Transform {
  private readonly decoder: TextDecoder
  private offset = 0

  constructor(
    private readonly encoding: TextEncoding,
    private readonly fileName: string,
  ) {
    super({ readableObjectMode: false, decodeStrings: true, encoding: 'utf8' })
    this.decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' })
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      const text = this.decoder.decode(chunk, { stream: true })
      this.offset += chunk.length
      done(null, text)
    } catch {
      done(this.notUtf8(chunk))
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      done(null, this.decoder.decode())
    } catch {
      done(this.notUtf8(Buffer.alloc(0)))
    }
  }

  private notUtf8(chunk: Buffer): AppError {
    // Where in the chunk: the first replacement character a lenient decode makes.
    const lenient = new TextDecoder('utf-8').decode(chunk)
    const at = lenient.indexOf('\uFFFD')
    const byte = this.offset + (at < 0 ? 0 : Buffer.byteLength(lenient.slice(0, at)))
    return new AppError('invalid_input', `${this.fileName} is not valid UTF-8 at byte ${byte.toLocaleString('en')}`, {
      hint: 'The start of the file read as UTF-8; save the whole file as UTF-8 (or all of it in one 8-bit encoding) and import it again',
    })
  }
}

export interface TextStream {
  /** Decoded text chunks. */
  readonly text: Readable
  /** Bytes of the file read so far (compressed bytes for a compressed file). */
  bytesRead(): number
  destroy(): void
}

/**
 * A text file as a stream of strings: decompressed (gzip, zstd) and decoded (UTF-8 or Windows-1252) on the
 * way, never held whole. Errors of any stage reach whoever reads `text`.
 */
export function openTextStream(path: string, options: { fileName: string; compression: Compression | null; encoding: TextEncoding }): TextStream {
  const file = createReadStream(path, { highWaterMark: 1024 * 1024 })
  const { compression, fileName } = options
  const inflate = compression ? inflateStages(compression, fileName) : []
  const decode = new DecodeTransform(options.encoding, fileName)
  const stages: (Readable | Transform)[] = [file, ...inflate, decode]
  for (let i = 0; i + 1 < stages.length; i++) {
    const from = stages[i]!
    const to = stages[i + 1] as Transform
    from.pipe(to)
    const compressed = compression !== null && i > 0
    from.on('error', (error) => to.destroy(compressed ? damaged(fileName, compression, error) : error))
  }
  return {
    text: decode,
    bytesRead: () => file.bytesRead,
    destroy: () => {
      for (const s of stages) s.destroy()
    },
  }
}

/**
 * The encoding of a text sample: UTF-8 when it decodes as such (a character cut at the sample's end
 * aside), else Windows-1252 when it looks like 8-bit text (no NUL bytes, few control characters), else
 * null (binary).
 */
export function detectEncoding(sample: Uint8Array, cut: boolean): TextEncoding | null {
  if (sample.includes(0)) return null
  const text = new TextDecoder('utf-8').decode(sample)
  const bad = (cut ? text.slice(0, -4) : text).includes('\uFFFD')
  if (!bad) return 'utf-8'
  let controls = 0
  for (const b of sample) if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) controls++
  // Bytes 0x81, 0x8D, 0x8F, 0x90, 0x9D are unassigned in Windows-1252: real text does not hold them.
  for (const b of sample) if (b === 0x81 || b === 0x8d || b === 0x8f || b === 0x90 || b === 0x9d) controls++
  return controls <= sample.length / 1000 ? 'windows-1252' : null
}

/** The sample as text in `encoding` (without a BOM). */
export function decodeSample(sample: Uint8Array, encoding: TextEncoding): string {
  return new TextDecoder(encoding).decode(sample).replace(/^\uFEFF/, '')
}
