/**
 * The jobs' budget (src/core/jobs/budget.ts) through the registry every kind uses: start order, the per-kind and total
 * limits, a queued job cancelled at once (freeing nothing), a failed job's slot going to the next, the memory gate
 * (with an injected RSS), the queue's cap; and, through the service on a real catalog, kept Summaries and maps
 * answered at once while every slot is taken, and `jobs/cancel` of a queued job answered at once.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError, type ConnectionInfo, type JobInfo, type JobKind, type MapJobInfo, type ProfileJobInfo, type Result } from '../../../src/contract'
import { JobBudget, JobRegistry, type Job, type JobBudgetOptions } from '../../../src/core/jobs'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value as T
}

type Kind = Exclude<JobKind, 'recovery'>

/** A record of `kind` as its module builds it (running; the budget says otherwise when it must wait). */
function record(kind: Kind) {
  return (id: string, now: number) =>
    ({
      id,
      kind,
      state: 'running',
      table: { connectionId: 'c', namespace: [], name: 't' },
      source: { connectionId: 'c', namespace: [], name: 't' },
      createdAt: now,
      startedAt: now,
      finishedAt: null,
      progress: { rows: 0, totalRows: null },
      error: null,
      result: null,
    }) as never
}

/** A job whose work (after its slot) waits until the test ends it: `end()` finishes it done, `fail()` failed. */
interface Fake {
  job: Job
  id: string
  /** The state its record had when `create` returned (what a start answers). */
  first: string
  /** Resolved once its work began (it got its slot). */
  began: Promise<void>
  hasBegun(): boolean
  end(): void
  fail(): void
}

function start(jobs: JobRegistry, kind: Kind): Fake {
  const job = jobs.create(kind, record(kind)) as unknown as Job
  const first = job.info.state
  // As every kind's start does.
  job.publish()
  let begun = false
  let release!: (ok: boolean) => void
  const ended = new Promise<boolean>((resolve) => (release = resolve))
  const began = job.slot().then(() => {
    begun = true
  })
  // The kind's code: wait for the slot, work until told, end; cancelled through the signal like real jobs.
  void (async () => {
    try {
      await job.slot()
      // As the kinds' code does: a cancel that came while it waited for the slot is seen at once.
      if (job.signal.aborted) release(false)
      job.signal.addEventListener('abort', () => release(false))
      const ok = await ended
      if (job.signal.aborted) job.finish('cancelled')
      else if (ok) job.finish('done')
      else job.finish('failed', new AppError('internal', 'it broke'))
    } catch {
      job.finish('cancelled')
    }
  })()
  began.catch(() => undefined)
  return { job, id: job.info.id, first, began, hasBegun: () => begun, end: () => release(true), fail: () => release(false) }
}

/** The states of these jobs, in order. */
const states = (fakes: Fake[]) => fakes.map((f) => f.job.info.state)
const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

/** A registry whose every event is checked: never more running (per kind and in all) than the limits. */
function registry(budget: JobBudgetOptions) {
  const running = new Map<string, JobInfo>()
  let most = 0
  const mostOfKind = new Map<string, number>()
  const jobs = new JobRegistry({
    budget,
    emit: (job) => {
      if (job.state === 'running') running.set(job.id, job)
      else running.delete(job.id)
      most = Math.max(most, running.size)
      const ofKind = [...running.values()].filter((j) => j.kind === job.kind).length
      mostOfKind.set(job.kind, Math.max(mostOfKind.get(job.kind) ?? 0, ofKind))
    },
  })
  return { jobs, most: () => most, mostOfKind: (kind: string) => mostOfKind.get(kind) ?? 0 }
}

describe('the jobs budget', () => {
  it('runs jobs in start order within the total limit; the rest wait, queued, with the reason', async () => {
    const { jobs, most } = registry({ total: 2, perKind: { export: 5 } })
    const fakes = [1, 2, 3, 4, 5].map(() => start(jobs, 'export'))
    expect(fakes.map((f) => f.first)).toEqual(['running', 'running', 'queued', 'queued', 'queued'])
    expect(fakes[2]!.job.info).toMatchObject({ state: 'queued', startedAt: null, queueReason: 'Waiting for a free slot: at most 2 jobs run at once' })
    await Promise.all([fakes[0]!.began, fakes[1]!.began])
    await tick()
    expect(fakes.map((f) => f.hasBegun())).toEqual([true, true, false, false, false])

    // The second ends first: the third (the oldest waiting) takes its slot, and not the fourth.
    fakes[1]!.end()
    await fakes[2]!.began
    expect(states(fakes)).toEqual(['running', 'done', 'running', 'queued', 'queued'])
    expect(fakes[2]!.job.info).not.toHaveProperty('queueReason')
    expect(fakes[2]!.job.info).toMatchObject({ startedAt: expect.any(Number) })
    fakes[0]!.end()
    await fakes[3]!.began
    expect(states(fakes)).toEqual(['done', 'done', 'running', 'running', 'queued'])
    fakes[2]!.end()
    fakes[3]!.end()
    await fakes[4]!.began
    fakes[4]!.end()
    expect((await Promise.all(fakes.map((f) => f.job.settled))).map((j) => j.state)).toEqual(['done', 'done', 'done', 'done', 'done'])
    expect(most()).toBe(2)
    expect(jobs.budget.counts()).toEqual({ total: 0, perKind: { export: 0 }, waiting: 0 })
  })

  it('holds each kind to its own limit; a full kind lets a later job of another kind pass', async () => {
    const { jobs, most, mostOfKind } = registry({ total: 3, perKind: { map: 1, profile: 2, export: 2 } })
    const maps = [start(jobs, 'map'), start(jobs, 'map')]
    const profiles = [start(jobs, 'profile'), start(jobs, 'profile'), start(jobs, 'profile')]
    const exported = start(jobs, 'export')
    expect(states(maps)).toEqual(['running', 'queued'])
    expect(maps[1]!.job.info).toMatchObject({ queueReason: 'Waiting for a free slot: at most 1 map run at once' })
    // The second map waits for its kind; the Summaries behind it start up to their own limit; the export, for the total.
    expect(states(profiles)).toEqual(['running', 'running', 'queued'])
    expect(profiles[2]!.job.info).toMatchObject({ queueReason: 'Waiting for a free slot: at most 2 Summaries run at once' })
    expect(exported.job.info).toMatchObject({ state: 'queued', queueReason: 'Waiting for a free slot: at most 3 jobs run at once' })

    // A map ends: the second map takes the slot (its kind has room again); the third Summary still waits for its kind.
    maps[0]!.end()
    await maps[1]!.began
    expect(states(profiles)).toEqual(['running', 'running', 'queued'])
    expect(exported.job.info.state).toBe('queued')
    // A Summary ends: the third Summary, started before the export, takes the slot.
    profiles[0]!.end()
    await profiles[2]!.began
    expect(exported.job.info.state).toBe('queued')
    // The second map ends: now the export.
    maps[1]!.end()
    await exported.began
    for (const f of [...profiles, exported]) f.end()
    await Promise.all([...maps, ...profiles, exported].map((f) => f.job.settled))
    expect(most()).toBe(3)
    expect(mostOfKind('map')).toBe(1)
    expect(mostOfKind('profile')).toBe(2)
  })

  it('a later job of another kind passes one whose kind is full', async () => {
    const { jobs } = registry({ total: 3, perKind: { map: 1, export: 2 } })
    const maps = [start(jobs, 'map'), start(jobs, 'map')]
    const exported = start(jobs, 'export')
    expect(states([...maps, exported])).toEqual(['running', 'queued', 'running'])
    for (const f of [maps[0]!, exported]) f.end()
    await maps[1]!.began
    maps[1]!.end()
    await maps[1]!.job.settled
  })

  it('cancels a queued job at once: it ends cancelled, frees nothing, and the next in line keeps its place', async () => {
    const { jobs } = registry({ total: 1 })
    const [running, queued, next] = [start(jobs, 'export'), start(jobs, 'export'), start(jobs, 'export')]
    expect(states([running, queued, next])).toEqual(['running', 'queued', 'queued'])
    jobs.cancel(queued.id)
    // Ended before cancel returned: no wait behind the running job.
    expect(queued.job.info).toMatchObject({ state: 'cancelled', finishedAt: expect.any(Number) })
    expect(queued.job.info).not.toHaveProperty('queueReason')
    expect((await queued.job.settled).state).toBe('cancelled')
    await tick()
    expect(running.job.info.state).toBe('running')
    expect(next.job.info.state).toBe('queued')
    expect(jobs.budget.counts()).toMatchObject({ total: 1, waiting: 1 })
    running.end()
    await next.began
    next.end()
    await next.job.settled
    expect(queued.hasBegun()).toBe(false)
  })

  it('a failed job frees its slot for the next', async () => {
    const { jobs } = registry({ total: 1 })
    const [failing, next] = [start(jobs, 'diff'), start(jobs, 'diff')]
    expect(next.job.info.state).toBe('queued')
    failing.fail()
    await next.began
    expect((await failing.job.settled).state).toBe('failed')
    expect(next.job.info.state).toBe('running')
    next.end()
    await next.job.settled
  })

  it('starts no new job while the RSS is over the budget, says so, and starts it once the RSS falls', async () => {
    let rss = 1.55 * 1024 ** 3
    const { jobs } = registry({ total: 3, memoryBytes: 1.5 * 1024 ** 3, memoryPollMs: 5, rss: () => rss })
    // Nothing runs: one job starts whatever the RSS (waiting would free nothing).
    const first = start(jobs, 'export')
    expect(first.first).toBe('running')
    const second = start(jobs, 'profile')
    expect(second.job.info).toMatchObject({ state: 'queued', queueReason: 'Waiting for memory: the app is using 1.6 GiB of its 1.5 GiB budget' })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(second.job.info.state).toBe('queued')
    // The RSS grows: the words follow (in 0.1 GiB steps).
    rss = 2.01 * 1024 ** 3
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(second.job.info.queueReason).toBe('Waiting for memory: the app is using 2.1 GiB of its 1.5 GiB budget')
    // Memory freed inside the running job: the poll starts the waiting one without anything ending.
    rss = 1.2 * 1024 ** 3
    await second.began
    expect(first.job.info.state).toBe('running')
    first.end()
    second.end()
    await Promise.all([first.job.settled, second.job.settled])
  })

  it('over the memory budget with nothing running, jobs run one at a time', async () => {
    const rss = 3 * 1024 ** 3
    const { jobs, most } = registry({ total: 3, memoryBytes: 1024 ** 3, memoryPollMs: 5, rss: () => rss })
    const fakes = [start(jobs, 'export'), start(jobs, 'export'), start(jobs, 'profile')]
    expect(states(fakes)).toEqual(['running', 'queued', 'queued'])
    for (const f of fakes) {
      await f.began
      f.end()
      await f.job.settled
    }
    expect(most()).toBe(1)
  })

  it('refuses a start beyond the queue cap in words (throttled); a start works again once the line shortens', async () => {
    const { jobs } = registry({ total: 1, maxQueued: 3 })
    const fakes = [0, 1, 2, 3].map(() => start(jobs, 'export'))
    expect(states(fakes)).toEqual(['running', 'queued', 'queued', 'queued'])
    let refused: unknown
    try {
      start(jobs, 'map')
    } catch (error) {
      refused = error
    }
    expect(refused).toMatchObject({ code: 'throttled', message: 'Too many jobs are waiting: 3 are queued, the most the app keeps', hint: expect.stringMatching(/cancel some/) })
    // The refused start left no job behind.
    expect(jobs.list()).toHaveLength(4)
    jobs.cancel(fakes[3]!.id)
    const again = start(jobs, 'map')
    expect(again.first).toBe('queued')
    await jobs.close()
    expect(jobs.list().map((j) => j.state)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled', 'cancelled'])
  })

  it('a ticket held outside any job counts against the limits and frees its slot when left', async () => {
    const budget = new JobBudget({ total: 2 })
    const { jobs } = registry({})
    const shared = new JobRegistry({ budget })
    const held = [budget.enter('export'), budget.enter('profile')]
    expect(held.map((t) => t.granted)).toEqual([true, true])
    const waiting = start(shared, 'diff')
    expect(waiting.first).toBe('queued')
    held[0]!.leave()
    held[0]!.leave()
    await waiting.began
    expect(budget.counts()).toMatchObject({ total: 2 })
    held[1]!.leave()
    waiting.end()
    await waiting.job.settled
    expect(budget.counts()).toMatchObject({ total: 0, waiting: 0 })
    expect(jobs.budget).not.toBe(budget)
  })
})

describe('the budget in the service (a real catalog)', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  const ref = () => ({ connectionId: connection.id, namespace: [] as string[], name: 'rows' })

  beforeAll(async () => {
    base = await makeTempDir('lcb-jobs-budget-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 3000 }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore(), jobBudget: { total: 2 } })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  it('a kept Summary or map is answered while every slot is taken; a scan waits, queued, and jobs/cancel ends it at once', async () => {
    // Made once, so both are kept for this version.
    const profiled = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: {} }))
    const mapped = value<MapJobInfo>(await service.dispatch('map/start', { ...ref(), column: 'vector' }))
    expect((await service.profiles.wait(profiled.id)).state).toBe('done')
    expect((await service.maps.wait(mapped.id)).state).toBe('done')

    // Every slot taken (as by two long jobs).
    const held = [service.jobs.budget.enter('export'), service.jobs.budget.enter('index')]
    try {
      const keptProfile = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: {} }))
      expect(await service.profiles.wait(keptProfile.id)).toMatchObject({ state: 'done', cached: true })
      const keptMap = value<MapJobInfo>(await service.dispatch('map/start', { ...ref(), column: 'vector' }))
      expect(keptMap).toMatchObject({ state: 'done', cached: true })

      // A Summary of another view has to scan: it waits.
      const scan = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: { filter: 'id < 100' } }))
      const exported = value<JobInfo>(await service.dispatch('export/start', { ...ref(), view: {}, format: 'csv', path: join(base, 'rows.csv') }))
      expect(exported).toMatchObject({ state: 'queued', startedAt: null, queueReason: 'Waiting for a free slot: at most 2 jobs run at once' })
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(service.profiles.get(scan.id)).toMatchObject({ state: 'queued', queueReason: 'Waiting for a free slot: at most 2 jobs run at once' })

      value(await service.dispatch('jobs/cancel', { jobId: scan.id }))
      // Answered with the job already ended (not once a slot frees).
      expect(service.profiles.get(scan.id)).toMatchObject({ state: 'cancelled', result: null })
      expect(service.exports.jobs.get(exported.id).state).toBe('queued')
      held[0]!.leave()
      expect((await service.exports.jobs.wait(exported.id)).state).toBe('done')
    } finally {
      for (const t of held) t.leave()
    }
  })
})
