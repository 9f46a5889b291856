import type { ImageType } from './detect'

export type DecodeResult = ImageBitmap | 'unreadable'
type Listener = (result: DecodeResult) => void

interface Job {
  key: string
  bytes: Uint8Array
  type: ImageType
  listeners: Set<Listener>
}

/**
 * Decodes thumbnails off the main thread (`createImageBitmap` on a Blob: the browser decodes on its own
 * threads), a few at a time, newest request first, keeping the last ones in a small cache. A request is
 * withdrawn when its cell leaves the screen: a queued decode is then dropped, and one already running is
 * kept in the cache but shown nowhere.
 */
export class ThumbnailDecoder {
  private readonly queue: Job[] = []
  private readonly running = new Map<string, Job>()
  private readonly cache = new Map<string, DecodeResult>()
  private disposed = false

  constructor(
    /** Longest side of a thumbnail in device pixels: larger images are scaled down once decoded. */
    private readonly size: number,
    private readonly concurrency = 4,
    private readonly capacity = 300,
  ) {}

  /** Decoded already (a render can draw it at once). */
  cached(key: string): DecodeResult | undefined {
    const hit = this.cache.get(key)
    if (hit !== undefined) {
      this.cache.delete(key)
      this.cache.set(key, hit)
    }
    return hit
  }

  /** Ask for the thumbnail of `key`; the returned function withdraws the request. */
  request(key: string, bytes: Uint8Array, type: ImageType, listener: Listener): () => void {
    const hit = this.cached(key)
    if (hit !== undefined) {
      listener(hit)
      return () => undefined
    }
    const job = this.running.get(key) ?? this.queue.find((j) => j.key === key)
    if (job) job.listeners.add(listener)
    else this.queue.push({ key, bytes, type, listeners: new Set([listener]) })
    this.pump()
    return () => {
      const pending = this.running.get(key) ?? this.queue.find((j) => j.key === key)
      if (!pending) return
      pending.listeners.delete(listener)
      // Scrolled away before its turn: never decoded.
      if (pending.listeners.size === 0 && !this.running.has(key)) this.queue.splice(this.queue.indexOf(pending), 1)
    }
  }

  /** Queued decodes not started yet (what scrolling away drops). */
  get queued(): number {
    return this.queue.length
  }

  dispose(): void {
    this.disposed = true
    this.queue.length = 0
    for (const result of this.cache.values()) if (result !== 'unreadable') result.close()
    this.cache.clear()
  }

  private pump(): void {
    while (!this.disposed && this.running.size < this.concurrency && this.queue.length > 0) {
      // The latest request first: what the user scrolled to now, not what they passed on the way.
      const job = this.queue.pop()!
      this.running.set(job.key, job)
      void this.decode(job).then((result) => {
        this.running.delete(job.key)
        if (this.disposed) {
          if (result !== 'unreadable') result.close()
          return
        }
        this.store(job.key, result)
        for (const listener of job.listeners) listener(result)
        this.pump()
      })
    }
  }

  private async decode(job: Job): Promise<DecodeResult> {
    try {
      const full = await createImageBitmap(new Blob([job.bytes.slice()], { type: job.type }))
      const longest = Math.max(full.width, full.height)
      if (longest <= this.size) return full
      const scale = this.size / longest
      const small = await createImageBitmap(full, {
        resizeWidth: Math.max(1, Math.round(full.width * scale)),
        resizeHeight: Math.max(1, Math.round(full.height * scale)),
        resizeQuality: 'medium',
      })
      full.close()
      return small
    } catch {
      // Magic bytes of an image, but not one the browser can read (truncated, corrupt).
      return 'unreadable'
    }
  }

  private store(key: string, result: DecodeResult): void {
    this.cache.set(key, result)
    while (this.cache.size > this.capacity) {
      const oldest = this.cache.keys().next().value
      if (oldest === undefined) break
      const evicted = this.cache.get(oldest)
      this.cache.delete(oldest)
      // Canvases already drawn keep their pixels; only the bitmap is freed.
      if (evicted && evicted !== 'unreadable') evicted.close()
    }
  }
}
