import { AppError, type JobKind } from '../../contract'

/** The kinds that take a slot (a recovery note is made already ended and never runs). */
export type BudgetedKind = Exclude<JobKind, 'recovery'>

export interface JobLimits {
  /** Jobs of one kind running at once. */
  perKind: Record<BudgetedKind, number>
  /** Jobs running at once, of every kind together. */
  total: number
  /** No job starts while this process's RSS is over this many bytes (unless none runs: see {@link JobBudget}). */
  memoryBytes: number
  /** Jobs waiting at once; a start beyond it is refused (`throttled`). */
  maxQueued: number
}

export interface JobBudgetOptions extends Partial<Omit<JobLimits, 'perKind'>> {
  perKind?: Partial<Record<BudgetedKind, number>>
  /** This process's resident set in bytes (tests inject one); default `process.memoryUsage.rss()`. */
  rss?: () => number
  /** How often jobs held back by memory look again while others run (ms). */
  memoryPollMs?: number
}

/**
 * The defaults, for a desktop machine that may have 2 cores. Each of these jobs keeps a core busy (Lance's decode,
 * the Summary's sketches, PCA and UMAP in worker threads, a writer's encoding) and holds ~100–650 MiB at its peak
 * on large tables (a 1M × 768-d UMAP ~590 MiB, a Parquet export of it ~650 MiB: docs/benchmarks.md), so three at
 * once keep both cores busy while one waits on the disk, and stay near the memory budget. Imports stay one at a
 * time (they share one disk; two only split it), as do index builds (Lance's build takes its whole thread pool and
 * cannot be stopped), maps (UMAP runs its own worker threads) and version diffs (each streams two versions).
 * 240 jobs started at once on an 11 MB table took the host from 356 MiB to 3.9 GiB before there was a budget.
 */
export const DEFAULT_JOB_LIMITS: JobLimits = {
  perKind: { import: 1, export: 2, index: 1, profile: 2, diff: 1, map: 1 },
  total: 3,
  memoryBytes: 1.5 * 1024 ** 3,
  maxQueued: 1000,
}

/**
 * The limits from the environment: `LCB_JOB_MEMORY_MB` (the memory budget, MiB) and `LCB_JOBS_AT_ONCE` (the total),
 * for a machine with more or less room than the defaults assume.
 */
export function jobLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): JobBudgetOptions {
  const options: JobBudgetOptions = {}
  const mb = Number(env.LCB_JOB_MEMORY_MB)
  if (env.LCB_JOB_MEMORY_MB && Number.isFinite(mb) && mb >= 64) options.memoryBytes = Math.round(mb * 1024 * 1024)
  const total = Number(env.LCB_JOBS_AT_ONCE)
  if (env.LCB_JOBS_AT_ONCE && Number.isInteger(total) && total >= 1 && total <= 64) options.total = total
  return options
}

/** What a ticket's holder hears: it may run now, or it waits and why (called again when the reason changes). */
export interface TicketHooks {
  start?: () => void
  wait?: (reason: string) => void
}

/** A place in the budget: granted at once when there is room, else queued in start order until a slot frees. */
export interface Ticket {
  readonly kind: BudgetedKind
  /** Resolves once the slot is granted; rejects (`cancelled`) if the ticket is left first. */
  readonly ready: Promise<void>
  readonly granted: boolean
  /** Give the slot back, or leave the queue (once; later calls do nothing). */
  leave(): void
}

const NOUNS: Record<BudgetedKind, string> = { import: 'imports', export: 'exports', index: 'index builds', profile: 'Summaries', diff: 'version comparisons', map: 'maps' }

class Place implements Ticket {
  granted = false
  left = false
  reason: string | null = null
  readonly ready: Promise<void>
  resolve!: () => void
  reject!: (error: unknown) => void

  constructor(
    readonly kind: BudgetedKind,
    readonly hooks: TicketHooks,
    private readonly budget: JobBudget,
  ) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    // A ticket left before anyone waits on it must not be an unhandled rejection.
    this.ready.catch(() => undefined)
  }

  leave(): void {
    if (this.left) return
    this.left = true
    this.budget.left(this)
  }
}

/**
 * One scheduler for every kind of job: at most `perKind[kind]` of a kind and `total` in all run at once, and none
 * starts while the process's RSS is over `memoryBytes`; the rest wait in start order (a job whose kind is full
 * lets a later job of another kind pass). A start beyond `maxQueued` waiting jobs is refused in words.
 *
 * Memory is read when a slot could be granted (a start, a job's end) and every `memoryPollMs` while jobs wait for
 * it. When nothing runs, one job starts whatever the RSS says: memory held by nothing that runs is not freed by
 * waiting (a JavaScript heap is collected when it grows, and native allocators keep what they freed), and a queue
 * that never moves would hold every job for ever; over the budget jobs so run one at a time.
 */
export class JobBudget {
  readonly limits: JobLimits
  private readonly rss: () => number
  private readonly pollMs: number
  private readonly waiting: Place[] = []
  private readonly running = new Map<BudgetedKind, number>()
  private total = 0
  private timer: NodeJS.Timeout | null = null
  private pumping = false
  private again = false

  constructor(options: JobBudgetOptions = {}) {
    this.limits = {
      perKind: { ...DEFAULT_JOB_LIMITS.perKind, ...options.perKind },
      total: options.total ?? DEFAULT_JOB_LIMITS.total,
      memoryBytes: options.memoryBytes ?? DEFAULT_JOB_LIMITS.memoryBytes,
      maxQueued: options.maxQueued ?? DEFAULT_JOB_LIMITS.maxQueued,
    }
    this.rss = options.rss ?? (() => process.memoryUsage.rss())
    this.pollMs = options.memoryPollMs ?? 500
  }

  /**
   * A place for a job of `kind`: granted at once when there is room (`hooks.start` is called before this returns),
   * else queued (`hooks.wait` with the reason). Refused with `throttled` when `maxQueued` jobs wait already.
   */
  enter(kind: BudgetedKind, hooks: TicketHooks = {}): Ticket {
    if (this.waiting.length >= this.limits.maxQueued) {
      throw new AppError('throttled', `Too many jobs are waiting: ${this.limits.maxQueued.toLocaleString('en-US')} are queued, the most the app keeps`, {
        hint: 'Wait for some to finish, or cancel some in the jobs panel, then start it again',
      })
    }
    const place = new Place(kind, hooks, this)
    this.waiting.push(place)
    this.pump()
    return place
  }

  /** Jobs running now, per kind and in all (what the limits count). */
  counts(): { total: number; perKind: Partial<Record<BudgetedKind, number>>; waiting: number } {
    return { total: this.total, perKind: Object.fromEntries(this.running), waiting: this.waiting.length }
  }

  /** @internal A ticket was left: its slot frees (the next waiting job starts), or its place in line goes. */
  left(place: Place): void {
    if (place.granted) {
      this.running.set(place.kind, (this.running.get(place.kind) ?? 1) - 1)
      this.total--
    } else {
      const at = this.waiting.indexOf(place)
      if (at >= 0) this.waiting.splice(at, 1)
      place.reject(new AppError('cancelled', 'The job ended before it started'))
    }
    this.pump()
  }

  /** Grant what the limits allow, in start order; tell each job still waiting why (when that changed). */
  private pump(): void {
    // A hook may start or end a job (a listener of the published record): that asks for one more pass, not a
    // pass inside this one.
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    try {
      do {
        this.again = false
        this.pass()
      } while (this.again)
    } finally {
      this.pumping = false
    }
  }

  private pass(): void {
    let memory: { rss: number; over: boolean } | null = null
    const memoryNow = () => {
      if (!memory) {
        const rss = this.rss()
        memory = { rss, over: rss > this.limits.memoryBytes }
      }
      return memory
    }
    let heldByMemory = false
    for (let i = 0; i < this.waiting.length; ) {
      const place = this.waiting[i]!
      const reason = this.blocker(place.kind, memoryNow)
      if (reason === null) {
        this.waiting.splice(i, 1)
        this.grant(place)
        continue
      }
      if (reason.startsWith('Waiting for memory')) heldByMemory = true
      if (reason !== place.reason) {
        place.reason = reason
        call(() => place.hooks.wait?.(reason))
      }
      i++
    }
    this.schedulePoll(heldByMemory)
  }

  /** Why a job of `kind` cannot start now, or null when it can. */
  private blocker(kind: BudgetedKind, memoryNow: () => { rss: number; over: boolean }): string | null {
    const limit = this.limits.perKind[kind]
    // Its own kind's limit first: that one still holds it when a job of another kind ends.
    if ((this.running.get(kind) ?? 0) >= limit) return `Waiting for a free slot: at most ${limit} ${limit === 1 ? singular(kind) : NOUNS[kind]} run at once`
    if (this.total >= this.limits.total) return `Waiting for a free slot: at most ${this.limits.total} jobs run at once`
    if (this.total > 0) {
      const { rss, over } = memoryNow()
      if (over) return `Waiting for memory: the app is using ${size(rss)} of its ${size(this.limits.memoryBytes)} budget`
    }
    return null
  }

  private grant(place: Place): void {
    place.granted = true
    place.reason = null
    this.running.set(place.kind, (this.running.get(place.kind) ?? 0) + 1)
    this.total++
    call(() => place.hooks.start?.())
    place.resolve()
  }

  /** While jobs wait for memory, look again now and then (memory also frees inside jobs that keep running). */
  private schedulePoll(heldByMemory: boolean): void {
    if (!heldByMemory) {
      if (this.timer) clearTimeout(this.timer)
      this.timer = null
      return
    }
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.pump()
    }, this.pollMs)
    // A poll never keeps the process alive by itself.
    this.timer.unref()
  }
}

const singular = (kind: BudgetedKind) => ({ import: 'import', export: 'export', index: 'index build', profile: 'Summary', diff: 'version comparison', map: 'map' })[kind]

/**
 * "1.6 GiB" (or "900 MiB" below a GiB), rounded up: an RSS just over a 1.5 GiB budget reads 1.6, not "1.5 of its
 * 1.5", and the words change (and are published again to every waiting job) only every 0.1 GiB.
 */
function size(bytes: number): string {
  return bytes >= 1024 ** 3 ? `${(Math.ceil((bytes / 1024 ** 3) * 10) / 10).toFixed(1)} GiB` : `${Math.ceil(bytes / 1024 ** 2 / 10) * 10} MiB`
}

/** A hook that throws must not stop the scheduler (the job's own code decides what its failure means). */
function call(hook: () => void): void {
  try {
    hook()
  } catch {
    // ignored: see above
  }
}
