import { randomBytes } from 'node:crypto'
import { AppError, type Input, type JobInfo, type JobKind } from '../../contract'
import { JobBudget, type JobBudgetOptions, type Ticket } from './budget'

/** The record type of a kind (an import record's `kind` is `import` or `recovery`). */
type KindInfo<K extends JobKind> = Distribute<JobInfo, K>
type Distribute<T, K> = T extends { kind: infer Of } ? (K extends Of ? T : never) : never
type Ended = 'done' | 'failed' | 'cancelled'

/** The first letter of a job id names its kind (the contract's `jobIdSchema` accepts exactly these). */
const ID_PREFIX: Record<JobKind, string> = { import: 'j', recovery: 'r', export: 'x', index: 'i', profile: 'p', diff: 'd', map: 'm' }
const NOUN: Record<JobKind, string> = { import: 'import job', recovery: 'recovery note', export: 'export', index: 'index job', profile: 'summary job', diff: 'version comparison', map: 'map job' }

/** Finished jobs kept per kind before the oldest finished ones are forgotten (running ones are never dropped). */
const DEFAULT_HISTORY = 200

export interface JobRegistryOptions {
  /** Publish a change (the service sends it as the `jobs/progress` event). A throwing listener never breaks a job. */
  emit?: (job: JobInfo) => void
  /** Finished jobs kept per kind (default 200). */
  history?: Partial<Record<JobKind, number>>
  /** How many jobs run at once and the memory budget (src/core/jobs/budget.ts); its defaults when absent. */
  budget?: JobBudget | JobBudgetOptions
}

export interface CreateOptions<I extends JobInfo> {
  /** A copy of the record for callers and listeners (default: a deep clone); a job's own code keeps changing `info`. */
  copy?: (info: I) => I
  /** Runs once the job has ended, whatever the outcome, before `settled` resolves (e.g. delete a staged upload). */
  onSettled?: (info: I) => unknown
}

/**
 * One job: its record (changed in place by the kind's own code, then {@link publish}ed), the AbortSignal a
 * `jobs/cancel` triggers, and `settled`, which resolves with the final record once the job has ended and cleaned up.
 */
export class Job<I extends JobInfo = JobInfo> {
  readonly controller = new AbortController()
  readonly settled: Promise<I>
  private resolve!: (info: I) => void
  /** Its place in the session's budget (none for a record made already ended). */
  private ticket: Ticket | null = null

  constructor(
    readonly info: I,
    private readonly options: CreateOptions<I>,
    private readonly emit: (job: JobInfo) => void,
  ) {
    this.settled = new Promise<I>((resolve) => (this.resolve = resolve))
    // A record made already ended (a recovery note) has nothing left to wait for.
    if (!this.live) this.resolve(this.snapshot())
  }

  /** Aborted when the job is cancelled (or the host shuts down). */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  /**
   * Resolves once the job may do its heavy work: at once when the budget had room at its start, else when a slot
   * frees (the record goes from `queued` to `running`). Rejects (`cancelled`) when the job ends first. A kind's code
   * awaits it before its costly part; what costs nothing (answering from a kept result) needs no slot.
   */
  slot(): Promise<void> {
    return this.ticket?.ready ?? Promise.resolve()
  }

  /** @internal Take a place in `budget` (the registry does, as it creates the job): its record says queued or running. */
  enter(budget: JobBudget, kind: Exclude<JobKind, 'recovery'>): void {
    const info = this.info as JobInfo & { startedAt?: number | null; queueReason?: string }
    let creating = true
    this.ticket = budget.enter(kind, {
      start: () => {
        delete info.queueReason
        if (info.state !== 'queued') return
        info.state = 'running'
        if (info.startedAt !== undefined) info.startedAt = Date.now()
        if (!creating) this.publish()
      },
      wait: (reason) => {
        info.queueReason = reason
        if (info.state === 'running') {
          info.state = 'queued'
          // An index build's record always has a start time: it is set again when the build starts.
          if (info.startedAt !== undefined && info.kind !== 'index') info.startedAt = null
        }
        if (!creating) this.publish()
      },
    })
    creating = false
  }

  get live(): boolean {
    return this.info.state === 'queued' || this.info.state === 'running'
  }

  snapshot(): I {
    return this.options.copy ? this.options.copy(this.info) : structuredClone(this.info)
  }

  publish(): void {
    try {
      this.emit(this.snapshot())
    } catch {
      // A broken listener must not break the job.
    }
  }

  /** End the job (once): record the outcome, publish it, run the cleanup hook, then settle. */
  finish(state: Ended, error: AppError | null = null): void {
    if (!this.live) return
    const info = this.info as JobInfo
    info.state = state
    info.finishedAt = Date.now()
    info.error = error ? error.toData() : null
    delete (info as { queueReason?: string }).queueReason
    this.publish()
    // After the record saying it ended: a job started in its slot is never seen running beside it.
    this.ticket?.leave()
    void Promise.resolve()
      .then(() => this.options.onSettled?.(this.snapshot()))
      .catch(() => undefined)
      .then(() => this.resolve(this.snapshot()))
  }
}

/**
 * Every long-running job of a session, of every kind, in one place: what `jobs/list` lists, what `jobs/cancel`
 * cancels (through each job's AbortSignal: the kind's code decides what cancelling means at each step), and one
 * stream of changes. Finished jobs stay in the history, bounded per kind.
 */
export class JobRegistry {
  private readonly jobs = new Map<string, Job>()
  /** How many jobs run at once, and the memory budget: every live job takes its place here as it is created. */
  readonly budget: JobBudget

  constructor(private readonly options: JobRegistryOptions = {}) {
    this.budget = options.budget instanceof JobBudget ? options.budget : new JobBudget(options.budget)
  }

  /**
   * A new job of `kind`, registered but not yet published (`build` gets its id and the time). A live one takes its
   * place in the budget: its record says `running` when there is room, else `queued` with the reason; its code
   * awaits {@link Job.slot} before its heavy work. Refused (`throttled`) when too many jobs wait already.
   */
  create<K extends JobKind>(kind: K, build: (id: string, now: number) => KindInfo<K>, options: CreateOptions<KindInfo<K>> = {}): Job<KindInfo<K>> {
    const id = `${ID_PREFIX[kind]}${randomBytes(6).toString('base64url')}`
    const job = new Job(build(id, Date.now()), options, (info) => this.options.emit?.(info))
    if (job.live && kind !== 'recovery') job.enter(this.budget, kind as Exclude<JobKind, 'recovery'>)
    this.jobs.set(id, job as unknown as Job)
    this.trim(kind)
    return job
  }

  /**
   * Keep records of jobs that ended elsewhere — in a catalog host that stopped while they ran (main hands them to the
   * new host) — in this history, as they are: listed, never run. A live record is refused (it has nothing to run it).
   */
  adopt(records: readonly JobInfo[]): void {
    for (const info of records) {
      if (info.state === 'queued' || info.state === 'running' || this.jobs.has(info.id)) continue
      this.jobs.set(info.id, new Job(structuredClone(info), {}, (job) => this.options.emit?.(job)))
      this.trim(info.kind)
    }
  }

  /** Every job, oldest first, as copies. */
  list(kind?: JobKind): JobInfo[] {
    return [...this.jobs.values()].filter((j) => kind === undefined || j.info.kind === kind).map((j) => j.snapshot())
  }

  has(jobId: string): boolean {
    return this.jobs.has(jobId)
  }

  /** The job with this id, if it is of `kind` (else `not_found`, as for an unknown id). */
  job<K extends JobKind>(jobId: string, kind: K): Job<KindInfo<K>> {
    const job = this.jobs.get(jobId)
    if (!job || job.info.kind !== kind) throw notFound(NOUN[kind])
    return job as unknown as Job<KindInfo<K>>
  }

  /**
   * Cancel a queued or running job of any kind; a finished one is left as it is. A queued job ends here and now
   * (it holds nothing; its place in line goes); a running one stops through its signal, as its kind's code decides.
   */
  cancel(jobId: string): void {
    const job = this.jobs.get(jobId)
    if (!job) throw notFound('job')
    stop(job)
  }

  /** Cancel every live job (of `kinds`, default all) and wait until each has ended and cleaned up (shutdown). */
  async close(...kinds: JobKind[]): Promise<void> {
    const mine = [...this.jobs.values()].filter((j) => kinds.length === 0 || kinds.includes(j.info.kind))
    for (const job of mine) stop(job)
    await Promise.allSettled(mine.map((j) => j.settled))
  }

  /** `jobs/list` and `jobs/cancel`, spread into the service's handlers. */
  readonly handlers = {
    'jobs/list': async (): Promise<JobInfo[]> => this.list(),
    'jobs/cancel': async ({ jobId }: Input<'jobs/cancel'>): Promise<null> => {
      this.cancel(jobId)
      return null
    },
  }

  private trim(kind: JobKind): void {
    const limit = this.options.history?.[kind] ?? DEFAULT_HISTORY
    const ofKind = [...this.jobs.values()].filter((j) => j.info.kind === kind)
    let excess = ofKind.length - limit
    for (const job of ofKind) {
      if (excess <= 0) break
      if (job.live) continue
      this.jobs.delete(job.info.id)
      excess--
    }
  }
}

function stop(job: Job): void {
  if (!job.live) return
  // The kind's own listeners first (an import marks its phase), then a job still queued ends: nothing of it ran.
  job.controller.abort()
  if (job.info.state === 'queued') job.finish('cancelled')
}

function notFound(noun: string): AppError {
  return new AppError('not_found', `There is no such ${noun}`, { hint: 'It may have been removed from the history' })
}

/**
 * The jobs of one kind, as that kind's module sees them: a view of the session's registry (or a private one) with
 * get, wait, cancel, list and close for that kind alone. A kind's job code extends it and adds its start method.
 */
export class JobsOfKind<K extends JobKind> {
  protected readonly jobs: JobRegistry

  constructor(
    protected readonly kind: K,
    jobs?: JobRegistry,
  ) {
    this.jobs = jobs ?? new JobRegistry()
  }

  /** This kind's jobs, oldest first. */
  list(): KindInfo<K>[] {
    return this.jobs.list(this.kind) as KindInfo<K>[]
  }

  get(jobId: string): KindInfo<K> {
    return this.jobs.job(jobId, this.kind).snapshot()
  }

  /** Resolves with the job's final record once it has ended and cleaned up. */
  wait(jobId: string): Promise<KindInfo<K>> {
    return this.jobs.job(jobId, this.kind).settled
  }

  /** Cancel a queued or running job of this kind; a finished one is left as it is. */
  cancel(jobId: string): void {
    this.jobs.job(jobId, this.kind)
    this.jobs.cancel(jobId)
  }

  /** Cancel this kind's live jobs and wait for their cleanup (shutdown). */
  close(): Promise<void> {
    return this.jobs.close(this.kind)
  }
}
