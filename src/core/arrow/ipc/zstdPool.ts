import { Worker } from 'node:worker_threads'
import { availableParallelism } from 'node:os'
import { pathToFileURL } from 'node:url'
import { nativeZstd } from './codecs'

/**
 * ZSTD decoding off the JS thread, for Node without zlib's ZSTD (Node 20; Electron has it natively).
 *
 * The wasm decoder runs ~130 MB/s; on the JS thread it serialized with everything else, so a ZSTD
 * file imported at half the speed of a plain one. Here a record batch body is transferred (not copied)
 * to a worker, its compressed buffers are decoded there, and body and outputs come back transferred,
 * so decoding the next batches overlaps Lance's write of the current one. Workers hold a wasm heap as
 * large as the biggest buffer they decoded; they are ended after a short idle time, which frees it.
 */

/** One compressed buffer of a body: where it is, how long, what it decodes to. */
export type Part = [offset: number, length: number, decodedLength: number]

interface Reply {
  id: number
  body: ArrayBuffer
  out?: Uint8Array[]
  error?: string
}

const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const ready = import(workerData.zstddec).then(async ({ ZSTDDecoder }) => { const d = new ZSTDDecoder(); await d.init(); return d })
parentPort.on('message', async ({ id, body, parts }) => {
  try {
    const decoder = await ready
    const out = parts.map(([offset, length, size]) => decoder.decode(new Uint8Array(body, offset, length), size))
    parentPort.postMessage({ id, body, out }, [body, ...out.map((o) => o.buffer)])
  } catch (error) {
    parentPort.postMessage({ id, body, error: String((error && error.message) || error) }, [body])
  }
})
`

const IDLE_MS = 5_000
/** Below this many compressed bytes a batch is decoded in place: a round trip would cost more. */
export const POOL_MIN_BYTES = 1 << 20

class ZstdPool {
  private workers: { worker: Worker; busy: number }[] = []
  private waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>()
  private nextId = 0
  private idle: NodeJS.Timeout | null = null
  /** Bodies decoded so far (tests check the path was taken). */
  decoded = 0

  constructor(
    readonly size: number,
    private readonly zstddec: string,
  ) {}

  private worker(): { worker: Worker; busy: number } {
    if (this.workers.length < this.size && this.workers.every((w) => w.busy > 0)) {
      const worker = new Worker(SOURCE, { eval: true, workerData: { zstddec: this.zstddec } })
      worker.unref()
      const entry = { worker, busy: 0 }
      worker.on('message', (reply: Reply) => {
        entry.busy--
        const waiter = this.waiting.get(reply.id)
        this.waiting.delete(reply.id)
        waiter?.resolve(reply)
        this.scheduleIdle()
      })
      worker.on('error', (error) => this.fail(entry, error))
      worker.on('exit', () => this.fail(entry, new Error('the ZSTD worker stopped')))
      this.workers.push(entry)
    }
    return this.workers.reduce((a, b) => (b.busy < a.busy ? b : a))
  }

  private fail(entry: { worker: Worker }, error: Error): void {
    this.workers = this.workers.filter((w) => w !== entry)
    // Jobs are not tracked per worker: any waiter may have been on it, so all fail (their bodies went with them).
    for (const [id, waiter] of this.waiting) {
      this.waiting.delete(id)
      waiter.reject(error)
    }
  }

  private scheduleIdle(): void {
    if (this.idle) clearTimeout(this.idle)
    if (this.waiting.size > 0) return
    this.idle = setTimeout(() => {
      if (this.waiting.size > 0) return
      const workers = this.workers
      this.workers = []
      for (const w of workers) {
        w.worker.removeAllListeners('exit')
        void w.worker.terminate()
      }
    }, IDLE_MS)
    this.idle.unref()
  }

  /** Decode `parts` of `body` (whose ArrayBuffer is handed over and returned). */
  decode(body: ArrayBuffer, parts: Part[]): Promise<{ body: ArrayBuffer; out: Uint8Array[] }> {
    if (this.idle) clearTimeout(this.idle)
    const entry = this.worker()
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      this.waiting.set(id, {
        resolve: (reply) => {
          if (reply.error !== undefined || !reply.out) return reject(new Error(reply.error ?? 'no output'))
          this.decoded++
          resolve({ body: reply.body, out: reply.out })
        },
        reject,
      })
      entry.busy++
      entry.worker.postMessage({ id, body, parts }, [body])
    })
  }
}

let pool: ZstdPool | null | undefined

/** Batches worth reading ahead of the consumer: one per worker, so every worker has a body to decode. */
export function readAhead(): number {
  return nativeZstd ? 1 : 1 + (zstdPool()?.size ?? 0)
}

/** The shared pool, or null where workers cannot load the decoder (then decoding stays in place). */
export function zstdPool(): ZstdPool | null {
  if (pool !== undefined) return pool
  try {
    const url = pathToFileURL(require.resolve('zstddec')).href
    pool = new ZstdPool(Math.max(1, Math.min(2, availableParallelism() - 1)), url)
  } catch {
    pool = null
  }
  return pool
}
