import { Worker } from 'node:worker_threads'
import { AppError } from '../contract'

/**
 * A second line of defence behind the framing check: a body is decoded (and re-encoded, as lancedb will
 * do with it) once in a worker thread under a deadline before the event loop touches it. If apache-arrow
 * meets damage no check foresaw and spins or balloons, the worker is terminated at the deadline and the
 * request is refused — the event loop, other clients and SIGTERM are never held up. Bodies are checked one
 * at a time; the worker is started on first use and replaced after a timeout or crash.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const arrow = require(workerData.arrowPath)
parentPort.on('message', ({ id, bytes }) => {
  try {
    const table = arrow.tableFromIPC(bytes)
    arrow.tableToIPC(table, 'stream')
    parentPort.postMessage({ id, ok: true })
  } catch (error) {
    parentPort.postMessage({ id, ok: false, message: String((error && error.message) || error) })
  }
})
`

interface Job {
  id: number
  bytes: Uint8Array
  resolve: () => void
  reject: (error: Error) => void
}

export class DecodeGuard {
  private worker: Worker | undefined
  private readonly queue: Job[] = []
  private current: { job: Job; timer: NodeJS.Timeout } | undefined
  private nextId = 1
  private closed = false

  /** `source`: the worker's code (tests pass one that never answers). */
  constructor(
    private readonly deadlineMs = 10_000,
    private readonly source = WORKER_SOURCE,
  ) {}

  /** Resolves when `bytes` decode within the deadline; rejects with a 400-worthy AppError otherwise. */
  check(bytes: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new AppError('unavailable', 'The server is shutting down'))
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, bytes, resolve, reject })
      this.pump()
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new AppError('unavailable', 'The server is shutting down'))
    await this.stop()
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return
    const job = this.queue.shift()!
    const worker = this.spawn()
    const timer = setTimeout(() => {
      this.finish(job.id, new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: `decoding it took longer than ${this.deadlineMs} ms` }))
      void this.stop()
    }, this.deadlineMs)
    this.current = { job, timer }
    // A copy of just this view (a pooled Buffer's ArrayBuffer holds other data), handed over without a second copy.
    const copy = job.bytes.slice()
    worker.postMessage({ id: job.id, bytes: copy }, [copy.buffer])
  }

  private finish(id: number, error?: Error): void {
    const current = this.current
    if (!current || current.job.id !== id) return
    clearTimeout(current.timer)
    this.current = undefined
    if (error) current.job.reject(error)
    else current.job.resolve()
    this.pump()
  }

  private spawn(): Worker {
    if (this.worker) return this.worker
    const worker = new Worker(this.source, {
      eval: true,
      workerData: { arrowPath: require.resolve('apache-arrow') },
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    })
    worker.unref()
    worker.on('message', (m: { id: number; ok: boolean; message?: string }) =>
      this.finish(m.id, m.ok ? undefined : new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: m.message })),
    )
    const lost = (why: string) => {
      if (this.worker === worker) this.worker = undefined
      if (this.current) this.finish(this.current.job.id, new AppError('invalid_input', 'The body is not a readable Arrow IPC stream', { detail: why }))
    }
    worker.on('error', (error) => lost(`decoding it failed (${error.message})`))
    worker.on('exit', () => lost('decoding it stopped the decoder'))
    this.worker = worker
    return worker
  }

  private async stop(): Promise<void> {
    const worker = this.worker
    this.worker = undefined
    if (worker) await worker.terminate().catch(() => undefined)
  }
}
