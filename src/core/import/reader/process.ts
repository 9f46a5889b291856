import { fork, type ChildProcess } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { connect, type Socket } from 'node:net'
import { AppError } from '../../../contract'
import { removeStalePipes } from '../native/polars'
import type { ReaderLimits } from './limits'
import { FRAME_HEADER, type HostMessage, type ReaderMessage, type ReaderTask } from './protocol'
import { readerEndedError, type ReaderContext, type ReaderEnding } from './words'

/** Bytes of a reader's stderr kept (its last words: a panic, V8's out-of-memory report). */
const STDERR_TAIL = 16 * 1024
/** A chunk larger than this is not one our reader makes (a chunk is ~32 MiB; a single huge row can make one larger). */
const MAX_FRAME = 4 * 1024 * 1024 * 1024 - 1
/** How long the host waits for a reader's stderr to end after the reader has exited (a grandchild may hold it). */
const STDERR_WAIT_MS = 500
/** After a disconnect, the time a reader gets to exit before it is killed. */
const EXIT_GRACE_MS = 1000

/**
 * One reader process (src/core/import/reader/child.ts) as the host sees it: its messages in order, its chunks' bytes,
 * its ceilings and budget enforced from here, and its end in words. Budgets: `total` (a preview, a sniff: from the
 * start) or `idle` (an import: the time without progress while the host waits for the reader; the time the host
 * spends writing does not count).
 */
export class ReaderProcess {
  private readonly child: ChildProcess
  private readonly inbox: ReaderMessage[] = []
  /** Whoever waits for a message, a chunk or the end (each woken to look again). */
  private wakers: (() => void)[] = []
  /** Why the host ended it (a ceiling, a budget, a cancel); null while it runs or when it ended by itself. */
  private killedFor: ReaderEnding | null = null
  /** Set once the process has ended and its stdio is closed: why, in words (null: it ended as asked). */
  private ended: { error: AppError | null } | null = null
  private readonly exited: Promise<void>
  private finished = false
  private stderr = ''
  private frames: FrameReader | null = null
  private readonly timers: NodeJS.Timeout[] = []
  private idleTimer: NodeJS.Timeout | null = null
  private waiting = 0
  private lastBytesRead = -1
  /** Bytes of the file the reader has consumed, as it last said. */
  bytesRead = 0
  readonly context: ReaderContext
  private budget: 'total' | 'idle' | null = null

  /** Start a reader process; it waits, idle, for its task ({@link begin}): a warm spare hides the start-up. */
  constructor(
    entry: string,
    readonly limits: ReaderLimits,
  ) {
    this.context = { fileName: 'the file', doing: 'preview', heapMb: limits.heapMb }
    const env: NodeJS.ProcessEnv = { ...process.env }
    if (limits.watch === 'self') env.LCB_READER_WATCH = `${Math.round(limits.rssMb * 1024 * 1024)},${limits.watchMs}`
    else delete env.LCB_READER_WATCH
    // A panic's first lines are what words are made of; a backtrace only makes it slower to end (symbolising).
    env.RUST_BACKTRACE = '0'
    // Inside Electron, fork runs Electron's own binary: as Node.
    if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1'
    this.child = fork(entry, [], {
      // Only our flags: a host run by tsx or vitest would otherwise pass its loaders on (seconds of start-up).
      execArgv: [`--max-old-space-size=${Math.round(limits.heapMb)}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env,
    })
    this.child.stderr!.setEncoding('utf8')
    this.child.stderr!.on('data', (text: string) => {
      this.stderr = (this.stderr + text).slice(-STDERR_TAIL)
    })
    // Its last words (a panic, V8's report) are read to the end before its end is judged. ('close' is not used: Node
    // did not emit it for a reader the host had disconnected from, although its stderr and channel had closed.)
    const stderrClosed = new Promise<void>((resolve) => this.child.stderr!.once('close', resolve))
    this.child.on('message', (message: ReaderMessage) => this.receive(message))
    this.child.on('error', () => undefined) // a failed send or spawn shows as the process ending
    this.exited = new Promise((resolve) => {
      this.child.once('exit', async (code, signal) => {
        await Promise.race([stderrClosed, new Promise((r) => setTimeout(r, STDERR_WAIT_MS))])
        for (const timer of this.timers) clearInterval(timer)
        if (this.idleTimer) clearTimeout(this.idleTimer)
        const asked = this.finished && !this.killedFor
        const ending: ReaderEnding | null = asked ? null : (this.killedFor ?? { kind: 'exit', code, signal, stderr: this.stderr })
        this.ended = { error: ending ? readerEndedError(ending, this.context) : null }
        this.frames?.close()
        this.notify()
        // What a killed reader leaves in the temp folder (polars' pipes, the chunks' socket) goes with it.
        void removeStalePipes().catch(() => undefined)
        resolve()
      })
    })
    if (limits.watch === 'parent') this.watchMemory()
    // An idle reader (a spare) must not keep the host running: only a task in progress holds its event loop.
    this.hold(false)
  }

  private hold(on: boolean): void {
    const handles = [this.child, this.child.channel, this.child.stderr] as ({ ref?(): void; unref?(): void } | null | undefined)[]
    for (const handle of handles) {
      if (on) handle?.ref?.()
      else handle?.unref?.()
    }
  }

  /** Its one task, with the budget it has for it: `total` from now, or `idle` while the host waits on it. */
  begin(task: ReaderTask, context: Omit<ReaderContext, 'heapMb'>, budget: 'total' | 'idle'): this {
    Object.assign(this.context, context)
    this.budget = budget
    this.hold(true)
    const { previewSeconds } = this.limits
    if (budget === 'total') this.timers.push(setTimeout(() => this.kill({ kind: 'time', seconds: previewSeconds, budget: 'total' }), previewSeconds * 1000))
    this.child.send(task, (error) => void error)
    return this
  }

  /** Still running (a spare can be handed a task). */
  get running(): boolean {
    return !this.ended && !this.killedFor && this.child.connected
  }

  get pid(): number | undefined {
    return this.child.pid
  }

  /** The next message, a progress report's bytes noted on the way; rejects with the reader's end in words once it has ended. */
  async next(): Promise<ReaderMessage> {
    this.waiting++
    this.armIdle()
    try {
      for (;;) {
        const message = this.inbox.shift()
        if (message) return message
        if (this.ended) throw this.ended.error ?? new AppError('internal', 'The reader ended before it answered')
        await new Promise<void>((resolve) => this.wakers.push(resolve))
      }
    } finally {
      this.waiting--
      this.armIdle()
    }
  }

  /** The next message of `type` (a `source` note not asked for is passed over); a reader's error is thrown, anything else is our own mistake. */
  async expect<T extends ReaderMessage['type']>(...types: T[]): Promise<Extract<ReaderMessage, { type: T }>> {
    let message = await this.next()
    while (message.type === 'source' && !(types as string[]).includes('source')) message = await this.next()
    if (message.type === 'error') throw AppError.fromData(message.error)
    if (!(types as string[]).includes(message.type)) throw new AppError('internal', `The reader said "${message.type}" where "${types.join('" or "')}" was due`)
    return message as Extract<ReaderMessage, { type: T }>
  }

  /** A chunk's bytes have been written: their buffer may take a later chunk's. */
  recycle(frame: Uint8Array): void {
    this.frames?.recycle(frame)
  }

  /** The next chunk's bytes (announced by a `chunk` message). */
  async frame(length: number): Promise<Uint8Array> {
    this.waiting++
    this.armIdle()
    try {
      for (;;) {
        const frame = this.frames?.take()
        if (frame) {
          if (frame.byteLength !== length) throw new AppError('internal', `The reader announced ${length} bytes and sent ${frame.byteLength}`)
          return frame
        }
        if (this.ended) throw this.ended.error ?? new AppError('internal', 'The reader ended before it sent its chunk')
        await new Promise<void>((resolve) => this.wakers.push(resolve))
      }
    } finally {
      this.waiting--
      this.armIdle()
    }
  }

  send(message: HostMessage): void {
    if (this.child.connected) this.child.send(message, (error) => void error)
  }

  /** End it now (SIGKILL): a ceiling or a budget was passed, or the user cancelled. */
  kill(reason: ReaderEnding): void {
    if (this.ended || this.killedFor) return
    this.killedFor = reason
    this.child.kill('SIGKILL')
  }

  /** It has answered what it was asked; end it (it exits when the host disconnects) and wait until it has. */
  async close(): Promise<void> {
    if (!this.ended) {
      this.finished = true
      if (this.child.connected) this.child.disconnect()
      const grace = setTimeout(() => this.child.kill('SIGKILL'), EXIT_GRACE_MS)
      await this.exited
      clearTimeout(grace)
    }
  }

  /** Resolves once the process has ended (and what it left in the temp folder is being removed). */
  get done(): Promise<void> {
    return this.exited
  }

  private receive(message: ReaderMessage): void {
    switch (message.type) {
      case 'progress':
        this.bytesRead = message.bytesRead
        if (message.bytesRead !== this.lastBytesRead) this.activity()
        this.lastBytesRead = message.bytesRead
        return
      case 'data':
        this.frames = new FrameReader(
          message.address,
          () => {
            this.activity()
            this.notify()
          },
          (error) => this.kill({ kind: 'failed', message: `its chunks' socket: ${error.message}` }),
        )
        return
      case 'format':
        this.context.format = message.format
        this.activity()
        return
      case 'source':
        this.context.format = message.format
        this.context.columns = message.columns
        break
      case 'chunk':
      case 'done':
        this.bytesRead = message.bytesRead
        break
    }
    this.activity()
    this.inbox.push(message)
    this.notify()
  }

  private notify(): void {
    const wakers = this.wakers
    this.wakers = []
    for (const wake of wakers) wake()
  }

  /** Something happened: the idle budget starts again. */
  private activity(): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer)
      this.idleTimer = null
    }
    this.armIdle()
  }

  /** The idle budget runs only while the host waits for the reader. */
  private armIdle(): void {
    if (this.budget !== 'idle' || this.ended) return
    if (this.waiting === 0) {
      if (this.idleTimer) clearTimeout(this.idleTimer)
      this.idleTimer = null
      return
    }
    this.idleTimer ??= setTimeout(() => this.kill({ kind: 'time', seconds: this.limits.idleSeconds, budget: 'idle' }), this.limits.idleSeconds * 1000)
  }

  /** Resident memory from /proc (Linux), sampled every `watchMs`: over the ceiling, the reader is killed. */
  private watchMemory(): void {
    const ceiling = this.limits.rssMb * 1024 * 1024
    let reading = false
    const timer = setInterval(() => {
      const pid = this.child.pid
      if (reading || pid === undefined || this.ended) return
      reading = true
      readFile(`/proc/${pid}/status`, 'utf8')
        .then((status) => {
          const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]
          const rss = kb === undefined ? 0 : Number(kb) * 1024
          if (rss > ceiling) this.kill({ kind: 'memory', rssBytes: rss, ceilingBytes: ceiling })
        })
        .catch(() => undefined) // it has ended
        .finally(() => (reading = false))
    }, this.limits.watchMs)
    timer.unref()
    this.timers.push(timer)
  }
}

/**
 * The chunks' bytes, read straight into each chunk's own buffer (`onread` hands the kernel the buffer to fill):
 * an 8-byte little-endian length, then that many bytes, and so on.
 */
class FrameReader {
  private readonly socket: Socket
  private readonly header = Buffer.alloc(FRAME_HEADER)
  private headerAt = 0
  private body: Buffer | null = null
  private bodyAt = 0
  private readonly frames: Buffer[] = []
  /**
   * Buffers of chunks Lance has finished with, for the next ones: a fresh 32 MiB buffer per chunk is mapped, faulted
   * in page by page and unmapped again (with a TLB shootdown on every core), a cost a reused one does not have.
   */
  private readonly free: ArrayBuffer[] = []

  constructor(address: string, onFrame: () => void, onError: (error: Error) => void) {
    this.socket = connect({
      path: address,
      onread: {
        buffer: () => (this.body ? this.body.subarray(this.bodyAt) : this.header.subarray(this.headerAt)),
        callback: (n: number) => {
          if (this.body) this.bodyAt += n
          else {
            this.headerAt += n
            if (this.headerAt === FRAME_HEADER) {
              const length = Number(this.header.readBigUInt64LE(0))
              if (length > MAX_FRAME) {
                this.socket.destroy(new Error(`a chunk of ${length} bytes was announced`))
                return false
              }
              this.body = this.buffer(length)
              this.bodyAt = 0
              this.headerAt = 0
            }
          }
          if (this.body && this.bodyAt === this.body.length) {
            this.frames.push(this.body)
            this.body = null
            onFrame()
          }
          return true
        },
      },
    })
    // A failure while the reader runs is ours (it ends the reader); once the reader has ended, its end says why.
    this.socket.on('error', onError)
  }

  take(): Buffer | undefined {
    return this.frames.shift()
  }

  /** A chunk's bytes are no longer needed (Lance has written them): its buffer serves a later chunk. */
  recycle(frame: Uint8Array): void {
    const buffer = frame.buffer as ArrayBuffer
    if (this.free.length < 2 && !this.free.includes(buffer) && buffer.byteLength >= 1024 * 1024) this.free.push(buffer)
  }

  /** A buffer for `length` bytes: a free one of about that size (not a much larger one, which a small chunk would pin), else a new one. */
  private buffer(length: number): Buffer {
    const i = this.free.findIndex((b) => b.byteLength >= length && b.byteLength <= length * 1.25 + 65536)
    const buffer = i >= 0 ? this.free.splice(i, 1)[0]! : new ArrayBuffer(length + (length >> 4))
    return Buffer.from(buffer, 0, length)
  }

  close(): void {
    this.socket.destroy()
  }
}
