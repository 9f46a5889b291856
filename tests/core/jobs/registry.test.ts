import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError, type ConnectionInfo, type ExportJobInfo, type JobInfo, type Result } from '../../../src/contract'
import { JobRegistry } from '../../../src/core/jobs'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value as T
}

/** An export record as the registry's `build` makes it (the registry gives id and time). */
const exportRecord = (id: string, now: number): ExportJobInfo => ({
  id,
  kind: 'export',
  state: 'running',
  format: 'csv',
  fileName: 'f.csv',
  source: { connectionId: 'c', namespace: [], name: 't' },
  download: false,
  createdAt: now,
  startedAt: now,
  finishedAt: null,
  progress: { rows: 0, totalRows: null, bytesWritten: 0, rowsPerSecond: 0, bytesPerSecond: 0 },
  error: null,
  result: null,
})

describe('the job registry', () => {
  it('publishes copies, ends a job once, and cancels through its AbortSignal', async () => {
    const events: JobInfo[] = []
    const jobs = new JobRegistry({ emit: (job) => events.push(job) })
    const job = jobs.create('export', exportRecord)
    expect(job.info.id).toMatch(/^x/)
    job.publish()
    job.info.progress.rows = 5
    expect(events[0]).toMatchObject({ state: 'running', progress: { rows: 0 } })
    let aborted = false
    job.signal.addEventListener('abort', () => (aborted = true))
    jobs.cancel(job.info.id)
    expect(aborted).toBe(true)
    job.finish('cancelled')
    job.finish('failed', new AppError('internal', 'too late'))
    expect(await job.settled).toMatchObject({ state: 'cancelled', error: null })
    expect(events.map((e) => e.state)).toEqual(['running', 'cancelled'])
    // A finished job is left as it is.
    jobs.cancel(job.info.id)
    expect(jobs.list()).toMatchObject([{ id: job.info.id, state: 'cancelled' }])
  })

  it('answers not_found for an unknown id, or an id of another kind', () => {
    const jobs = new JobRegistry()
    const job = jobs.create('export', exportRecord)
    expect(() => jobs.cancel('xnope')).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect(() => jobs.job(job.info.id, 'index')).toThrow(expect.objectContaining({ code: 'not_found' }))
    expect(jobs.job(job.info.id, 'export').info.id).toBe(job.info.id)
  })

  it('keeps a bounded history per kind: the oldest finished jobs go, live ones stay', () => {
    const jobs = new JobRegistry({ history: { export: 2 } })
    const live = jobs.create('export', exportRecord)
    const done = [1, 2, 3].map(() => {
      const job = jobs.create('export', exportRecord)
      job.finish('done')
      return job.info.id
    })
    const ids = jobs.list('export').map((j) => j.id)
    expect(ids).toContain(live.info.id)
    expect(ids).toHaveLength(2)
    expect(ids).toContain(done[2])
  })

  it('a throwing listener does not break a job', async () => {
    const jobs = new JobRegistry({
      emit: () => {
        throw new Error('broken listener')
      },
    })
    const job = jobs.create('export', exportRecord)
    job.publish()
    job.finish('done')
    expect((await job.settled).state).toBe('done')
  })

  it('close cancels live jobs and waits until each has cleaned up', async () => {
    const jobs = new JobRegistry()
    let cleaned = false
    const job = jobs.create('export', exportRecord, {
      onSettled: async () => {
        await new Promise<void>((resolve) => setImmediate(resolve))
        cleaned = true
      },
    })
    job.signal.addEventListener('abort', () => job.finish('cancelled'))
    await jobs.close('export')
    expect(job.info.state).toBe('cancelled')
    expect(cleaned).toBe(true)
  })
})

describe('jobs/list, jobs/cancel and jobs/progress in the service', () => {
  let base: string
  let root: string
  let service: CatalogService
  let connection: ConnectionInfo
  const events: { name: string; job: JobInfo }[] = []

  beforeAll(async () => {
    base = await makeTempDir('lcb-jobs-registry-')
    root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore(), emit: (name, payload) => events.push({ name, job: payload as JobInfo }) })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  it('lists the jobs of every kind, and publishes each through the one event', async () => {
    const ref = { connectionId: connection.id, namespace: [], name: 'rows' }
    const exported = value<JobInfo>(await service.dispatch('export/start', { ...ref, view: {}, format: 'csv', path: join(base, 'rows.csv') }))
    const indexed = value<JobInfo>(await service.dispatch('indexes/start', { ...ref, index: { column: 'id', type: 'BTREE' } }))
    const profiled = value<JobInfo>(await service.dispatch('profile/start', { ...ref, view: {} }))
    await Promise.all([service.exports.jobs.wait(exported.id), service.lifecycle.indexJobs.wait(indexed.id), service.profiles.wait(profiled.id)])
    const listed = value<JobInfo[]>(await service.dispatch('jobs/list', {}))
    expect(listed.map((j) => [j.kind, j.state])).toEqual([
      ['export', 'done'],
      ['index', 'done'],
      ['profile', 'done'],
    ])
    expect(new Set(events.map((e) => e.name))).toEqual(new Set(['jobs/progress']))
    expect(new Set(events.map((e) => e.job.kind))).toEqual(new Set(['export', 'index', 'profile']))
  })

  it('jobs/cancel refuses a malformed id as invalid input and an unknown one as not found', async () => {
    expect(await service.dispatch('jobs/cancel', { jobId: '../etc' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await service.dispatch('jobs/cancel', { jobId: 'xunknown' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('jobs/cancel leaves a finished job as it was', async () => {
    const [done] = value<JobInfo[]>(await service.dispatch('jobs/list', {}))
    value(await service.dispatch('jobs/cancel', { jobId: done!.id }))
    expect(value<JobInfo[]>(await service.dispatch('jobs/list', {}))[0]).toMatchObject({ id: done!.id, state: 'done' })
    expect(await readdir(base)).toContain('rows.csv')
  })
})
