import { Transform, type TransformCallback } from 'node:stream'
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { AppError } from '../../../contract'
import { MAX_DECOMPRESSED, MAX_RATIO, RATIO_GRACE, bytesText } from './limits'
import type { Compression } from './text'
import { ZstdFrameGuard } from './zstdFrames'

type ZstdDecompressor = () => Transform
/** Node's own zstd (22.15+, Electron) when there, else fzstd (pure JS, streaming) — Node 20 has none. */
const nativeZstd = (zlib as unknown as { createZstdDecompress?: ZstdDecompressor }).createZstdDecompress

/**
 * A streaming zstd decoder on fzstd, as a Node Transform. fzstd decodes a pushed chunk whole, synchronously: the
 * {@link ZstdFrameGuard} in front of it cuts the input into pieces that decode to ~1 MiB at most, so the Transform's
 * own backpressure (the next piece waits while the output is unread) bounds what is held.
 */
class FzstdTransform extends Transform {
  private readonly inner = new Decompress((chunk) => {
    this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  })

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      this.inner.push(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength))
      done()
    } catch (error) {
      done(error as Error)
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      this.inner.push(new Uint8Array(0), true)
      done()
    } catch (error) {
      done(error as Error)
    }
  }
}

/**
 * Counts what a decoder makes and stops the stream once it passes a limit: more than {@link MAX_DECOMPRESSED} in
 * all, or — past the first {@link RATIO_GRACE} — more than {@link MAX_RATIO} times the compressed bytes the decoder
 * has taken. The decoders themselves hold to backpressure (zlib's streams, and fzstd fed bounded pieces), so the
 * check runs as the output is made, before much more than the limit exists.
 */
class InflateWatch extends Transform {
  private out = 0

  constructor(
    private readonly fileName: string,
    private readonly compression: Compression,
    private readonly bytesIn: () => number,
  ) {
    super()
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.out += chunk.length
    if (this.out > MAX_DECOMPRESSED) return done(this.tooBig())
    if (this.out > RATIO_GRACE && this.out > MAX_RATIO * Math.max(1, this.bytesIn())) return done(this.tooDense())
    done(null, chunk)
  }

  private tooBig(): AppError {
    return new AppError('unsupported', `${this.fileName} decompresses to more than ${bytesText(MAX_DECOMPRESSED)}, the most import reads from one ${this.compression} file`, {
      hint: `Decompress it first (${tool(this.compression)}) and import the decompressed file: plain files have no such limit`,
    })
  }

  private tooDense(): AppError {
    return new AppError(
      'unsupported',
      `${this.fileName} decompresses to more than ${MAX_RATIO.toLocaleString('en')} times its size (its first ${bytesText(this.bytesIn())} made ${bytesText(this.out)}), which no ordinary data does: import refuses such files (decompression bombs)`,
      { hint: `If the file is genuine, decompress it first (${tool(this.compression)}) and import the decompressed file` },
    )
  }
}

function tool(compression: Compression): string {
  return compression === 'gzip' ? 'gunzip -k' : 'unzstd'
}

/**
 * The stages that turn a compressed file's bytes into its content, each limit held as the bytes pass: zstd frames
 * checked at their headers (window size, see ZstdFrameGuard), then the decoder, then the output watched by size and
 * ratio. Pipe them in order; an error of any stage is the reader's error.
 */
export function inflateStages(compression: Compression, fileName: string): Transform[] {
  if (compression === 'gzip') {
    const gunzip = zlib.createGunzip()
    return [gunzip, new InflateWatch(fileName, compression, () => gunzip.bytesWritten)]
  }
  const guard = new ZstdFrameGuard(fileName)
  const decoder = nativeZstd ? nativeZstd() : new FzstdTransform()
  return [guard, decoder, new InflateWatch(fileName, compression, () => guard.bytesIn)]
}
