import { Transform, type TransformCallback } from 'node:stream'
import * as zlib from 'node:zlib'
import { Decompress } from 'fzstd'
import { AppError } from '../../../contract'
import { MAX_DECOMPRESSED, MAX_RATIO, RATIO_GRACE, bytesText } from '../../limits'
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

/** What an {@link InflateWatch} watches: whose bytes, how to say it, and what to do past a limit. */
export interface WatchedOutput {
  fileName: string
  /** What decompresses, after the file's name: ` decompresses` or `: its part xl/worksheets/sheet1.xml inflates`. */
  makes: string
  /** Compressed bytes the decoder has taken so far (or the whole compressed size). */
  bytesIn: () => number
  /** The way past the limit. */
  hint: string
  /** The ratio past which output is refused ({@link MAX_RATIO} unless the format's own is lower). */
  maxRatio?: number
}

/**
 * Counts what a decoder makes and stops the stream once it passes a limit: more than {@link MAX_DECOMPRESSED} in
 * all, or — past the first {@link RATIO_GRACE} — more than {@link MAX_RATIO} times the compressed bytes the decoder
 * has taken. The decoders themselves hold to backpressure (zlib's streams, and fzstd fed bounded pieces), so the
 * check runs as the output is made, before much more than the limit exists.
 */
export class InflateWatch extends Transform {
  private out = 0

  constructor(private readonly watched: WatchedOutput) {
    super()
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.out += chunk.length
    const { fileName, makes, bytesIn, hint, maxRatio = MAX_RATIO } = this.watched
    if (this.out > MAX_DECOMPRESSED) {
      return done(new AppError('unsupported', `${fileName}${makes} to more than ${bytesText(MAX_DECOMPRESSED)}, the most import reads from one compressed file or part`, { hint }))
    }
    if (this.out > RATIO_GRACE && this.out > maxRatio * Math.max(1, bytesIn())) {
      const message = `${fileName}${makes} to more than ${maxRatio.toLocaleString('en')} times its size (${bytesText(this.out)} from ${bytesText(bytesIn())}), which no ordinary data does: import refuses such files (decompression bombs)`
      return done(new AppError('unsupported', message, { hint }))
    }
    done(null, chunk)
  }
}

function hint(compression: Compression): string {
  const tool = compression === 'gzip' ? 'gunzip -k' : 'unzstd'
  return `If the file is genuine, decompress it first (${tool}) and import the decompressed file: plain files have no such limit`
}

/**
 * The stages that turn a compressed file's bytes into its content, each limit held as the bytes pass: zstd frames
 * checked at their headers (window size, see ZstdFrameGuard), then the decoder, then the output watched by size and
 * ratio. Pipe them in order; an error of any stage is the reader's error.
 */
export function inflateStages(compression: Compression, fileName: string): Transform[] {
  if (compression === 'gzip') {
    const gunzip = zlib.createGunzip()
    return [gunzip, new InflateWatch({ fileName, makes: ' decompresses', bytesIn: () => gunzip.bytesWritten, hint: hint(compression) })]
  }
  const guard = new ZstdFrameGuard(fileName)
  const decoder = nativeZstd ? nativeZstd() : new FzstdTransform()
  return [guard, decoder, new InflateWatch({ fileName, makes: ' decompresses', bytesIn: () => guard.bytesIn, hint: hint(compression) })]
}
