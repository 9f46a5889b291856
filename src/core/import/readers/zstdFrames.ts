import { Transform, type TransformCallback } from 'node:stream'
import { AppError } from '../../../contract'
import { MAX_ZSTD_WINDOW, bytesText } from '../../limits'

/** ZSTD's largest block (RFC 8878 3.1.1.2.3: Block_Maximum_Size is at most 128 KiB). */
const BLOCK_MAX = 128 * 1024
/** Input is cut into pieces that decode to at most about this much, so a decoder's output per piece is bounded. */
const PIECE_OUTPUT = 1024 * 1024

type State =
  | { at: 'magic' }
  | { at: 'skip'; left: number }
  | { at: 'skipSize' }
  | { at: 'fhd' }
  | { at: 'header'; fhd: number; need: number }
  | { at: 'block' }
  | { at: 'content'; left: number; last: boolean }
  | { at: 'checksum'; left: number }

/**
 * Walks a zstd stream's frame and block headers as the compressed bytes pass (RFC 8878), before any decoder sees
 * them: every frame's window is checked against {@link MAX_ZSTD_WINDOW} at its header (the decoder would allocate
 * it), blocks larger than ZSTD allows are refused, and the bytes go on in pieces that decode to at most ~1 MiB each,
 * so a decoder that writes a whole chunk's output at once (fzstd) writes a bounded amount before backpressure can
 * act. Work is proportional to the block count, never to the content. The bytes themselves pass unchanged.
 */
export class ZstdFrameGuard extends Transform {
  private state: State = { at: 'magic' }
  /** Bytes of a header being gathered across chunks. */
  private held: number[] = []
  private checksum = false
  private offset = 0
  /** Compressed bytes passed on so far. */
  bytesIn = 0

  constructor(private readonly fileName: string) {
    super()
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      let from = 0
      let bound = 0
      for (let i = 0; i < chunk.length; ) {
        const step = this.step(chunk, i)
        i = step.next
        bound += step.output
        if (bound >= PIECE_OUTPUT) {
          this.pass(chunk.subarray(from, i))
          from = i
          bound = 0
        }
      }
      if (from < chunk.length) this.pass(chunk.subarray(from))
      done()
    } catch (error) {
      done(error as Error)
    }
  }

  override _flush(done: TransformCallback): void {
    if (this.state.at === 'magic' && this.held.length === 0) return done()
    done(this.damaged('it ends inside a frame (the file is cut short)'))
  }

  private pass(piece: Buffer): void {
    this.bytesIn += piece.length
    this.push(piece)
  }

  /** Consume bytes from `i`; returns where the next step starts and the most output a block begun here makes. */
  private step(chunk: Buffer, i: number): { next: number; output: number } {
    const s = this.state
    switch (s.at) {
      case 'skip':
      case 'content':
      case 'checksum': {
        const take = Math.min(s.left, chunk.length - i)
        s.left -= take
        this.offset += take
        if (s.left === 0) this.state = s.at === 'content' ? this.afterBlock(s.last) : { at: 'magic' }
        return { next: i + take, output: 0 }
      }
      case 'magic': {
        const bytes = this.gather(chunk, i, 4)
        if (!bytes.full) return { next: bytes.next, output: 0 }
        const magic = bytes.data.readUInt32LE(0)
        this.offset += 4
        if (magic === 0xfd2fb528) this.state = { at: 'fhd' }
        else if (magic >>> 4 === 0x184d2a5) this.state = { at: 'skipSize' }
        else throw this.damaged(`byte ${(this.offset - 4).toLocaleString('en')} does not start a zstd frame`)
        return { next: bytes.next, output: 0 }
      }
      case 'skipSize': {
        const bytes = this.gather(chunk, i, 4)
        if (!bytes.full) return { next: bytes.next, output: 0 }
        this.offset += 4
        const left = bytes.data.readUInt32LE(0)
        this.state = left > 0 ? { at: 'skip', left } : { at: 'magic' }
        return { next: bytes.next, output: 0 }
      }
      case 'fhd': {
        // The frame header descriptor says how long the rest of the header is.
        const fhd = chunk[i]!
        const single = (fhd >> 5) & 1
        const fcsFlag = fhd >> 6
        const rest = (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3]! + (fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag]!)
        this.offset += 1
        this.state = { at: 'header', fhd, need: rest }
        if (rest === 0) {
          this.header(fhd, Buffer.alloc(0))
          this.state = { at: 'block' }
        }
        return { next: i + 1, output: 0 }
      }
      case 'header': {
        const bytes = this.gather(chunk, i, s.need)
        if (!bytes.full) return { next: bytes.next, output: 0 }
        this.header(s.fhd, bytes.data)
        this.offset += s.need
        this.state = { at: 'block' }
        return { next: bytes.next, output: 0 }
      }
      case 'block': {
        const bytes = this.gather(chunk, i, 3)
        if (!bytes.full) return { next: bytes.next, output: 0 }
        const header = bytes.data[0]! | (bytes.data[1]! << 8) | (bytes.data[2]! << 16)
        const type = (header >> 1) & 3
        const size = header >>> 3
        if (type === 3) throw this.damaged(`the block at byte ${this.offset.toLocaleString('en')} has the reserved type`)
        if (size > BLOCK_MAX) throw this.damaged(`the block at byte ${this.offset.toLocaleString('en')} claims ${size.toLocaleString('en')} bytes, more than ZSTD's 128 KiB`)
        this.offset += 3
        const last = (header & 1) === 1
        const left = type === 1 ? 1 : size
        this.state = left > 0 ? { at: 'content', left, last } : this.afterBlock(last)
        return { next: bytes.next, output: type === 2 ? BLOCK_MAX : size }
      }
    }
  }

  /** What follows a block: the next block, the frame's checksum, or the next frame. */
  private afterBlock(last: boolean): State {
    if (!last) return { at: 'block' }
    return this.checksum ? { at: 'checksum', left: 4 } : { at: 'magic' }
  }

  /** A frame header (after the magic): the window it declares must be within the limit. */
  private header(fhd: number, h: Buffer): void {
    const single = (fhd >> 5) & 1
    const fcsFlag = fhd >> 6
    if ((fhd >> 3) & 1) throw this.damaged('a frame header has its reserved bit set')
    this.checksum = ((fhd >> 2) & 1) === 1
    let at = 0
    let window = 0
    if (!single) {
      const descriptor = h[at++]!
      const base = 2 ** (10 + (descriptor >> 3))
      window = base + (base / 8) * (descriptor & 7)
    }
    at += [0, 1, 2, 4][fhd & 3]!
    if (single) {
      // A single-segment frame's window is its content size (RFC 8878 3.1.1.1.2).
      const fcsBytes = fcsFlag === 0 ? 1 : [0, 2, 4, 8][fcsFlag]!
      if (fcsBytes === 1) window = h[at]!
      else if (fcsBytes === 2) window = h.readUInt16LE(at) + 256
      else if (fcsBytes === 4) window = h.readUInt32LE(at)
      else window = Number(h.readBigUInt64LE(at))
    }
    if (window > MAX_ZSTD_WINDOW) throw windowTooLarge(this.fileName, window)
  }

  /** Gather `n` bytes from `chunk` at `i` (with what earlier chunks left): full once there are `n`. */
  private gather(chunk: Buffer, i: number, n: number): { full: boolean; next: number; data: Buffer } {
    if (this.held.length === 0 && chunk.length - i >= n) return { full: true, next: i + n, data: chunk.subarray(i, i + n) }
    const take = Math.min(n - this.held.length, chunk.length - i)
    for (let k = 0; k < take; k++) this.held.push(chunk[i + k]!)
    if (this.held.length < n) return { full: false, next: i + take, data: Buffer.alloc(0) }
    const data = Buffer.from(this.held)
    this.held = []
    return { full: true, next: i + take, data }
  }

  private damaged(why: string): AppError {
    return new AppError('corrupt', `${this.fileName} is not a valid zstd file: ${why}`, {
      hint: 'The file may be truncated or damaged; check it with zstd -t and copy it again',
    })
  }
}

/** The refusal of a frame whose window is over the limit, in the words and numbers the zstd tool uses. */
export function windowTooLarge(fileName: string, window: number): AppError {
  const log = Math.ceil(Math.log2(window))
  const mb = Math.ceil(window / (1024 * 1024))
  return new AppError('unsupported', `${fileName} needs a ${bytesText(window)} zstd window to decompress; import reads zstd windows up to ${bytesText(MAX_ZSTD_WINDOW)}, as the zstd tool does by default`, {
    detail: `window size ${window.toLocaleString('en')} bytes > ${MAX_ZSTD_WINDOW.toLocaleString('en')}`,
    hint: `Decompress it first (zstd -d --long=${log} or --memory=${mb}MB) and import the decompressed file`,
  })
}
