/**
 * A reader process's ceilings and budgets. Each comes from the host's option, else its environment variable, else
 * the default; they are read at each start, so a test can set the variables for one case. The defaults keep a reader
 * under 2 GiB (the ceiling plus what it can grow between two samples) and give an honest file all the time it needs.
 */
export interface ReaderLimitOptions {
  /** JavaScript heap of a reader (`--max-old-space-size`), MiB. `LCB_IMPORT_READER_HEAP_MB`; default 1024. */
  heapMb?: number
  /** Resident memory of a reader (JS heap, Arrow buffers, polars), MiB. `LCB_IMPORT_READER_RSS_MB`; default 1536. */
  rssMb?: number
  /** The most a preview (or a look at a file before its import is queued) may take, seconds. `LCB_IMPORT_READER_PREVIEW_S`; default 60. */
  previewSeconds?: number
  /** The most an import's reader may go without progress while the host waits on it, seconds. `LCB_IMPORT_READER_IDLE_S`; default 120. */
  idleSeconds?: number
  /** How often resident memory is sampled, ms. `LCB_IMPORT_READER_WATCH_MS`; default 100. */
  watchMs?: number
  /**
   * Who samples it: `parent` reads `/proc/<pid>/status` (Linux); `self` is a watchdog thread in the reader, which
   * kills its own process (elsewhere). `LCB_IMPORT_READER_WATCH`; default `parent` on Linux, else `self`.
   */
  watch?: 'parent' | 'self'
}

export type ReaderLimits = Required<ReaderLimitOptions>

export const DEFAULT_READER_LIMITS: ReaderLimits = {
  heapMb: 1024,
  rssMb: 1536,
  previewSeconds: 60,
  idleSeconds: 120,
  watchMs: 100,
  watch: process.platform === 'linux' ? 'parent' : 'self',
}

export function readerLimits(options: ReaderLimitOptions = {}, env: NodeJS.ProcessEnv = process.env): ReaderLimits {
  const number = (given: number | undefined, name: string, fallback: number, min: number) => {
    if (given !== undefined) return given
    const value = Number(env[name])
    return env[name] !== undefined && env[name] !== '' && Number.isFinite(value) && value >= min ? value : fallback
  }
  const d = DEFAULT_READER_LIMITS
  const watch = options.watch ?? (env.LCB_IMPORT_READER_WATCH === 'self' || env.LCB_IMPORT_READER_WATCH === 'parent' ? env.LCB_IMPORT_READER_WATCH : d.watch)
  return {
    heapMb: number(options.heapMb, 'LCB_IMPORT_READER_HEAP_MB', d.heapMb, 16),
    rssMb: number(options.rssMb, 'LCB_IMPORT_READER_RSS_MB', d.rssMb, 16),
    previewSeconds: number(options.previewSeconds, 'LCB_IMPORT_READER_PREVIEW_S', d.previewSeconds, 0.01),
    idleSeconds: number(options.idleSeconds, 'LCB_IMPORT_READER_IDLE_S', d.idleSeconds, 0.01),
    watchMs: number(options.watchMs, 'LCB_IMPORT_READER_WATCH_MS', d.watchMs, 10),
    watch: process.platform === 'linux' ? watch : 'self',
  }
}
