import { describe, expect, it } from 'vitest'
import type { JobInfo } from '../../src/contract'
import { mergeListed, queuePlaces, upsertJob } from '../../src/renderer/features/jobs/jobList'
import { queuedText } from '../../src/renderer/features/jobs/rows'

const job = (id: string, state: JobInfo['state'], rows = 0) =>
  ({
    id,
    kind: 'export',
    state,
    format: 'csv',
    fileName: 'f.csv',
    source: { connectionId: 'c', namespace: [], name: 't' },
    download: false,
    createdAt: 0,
    startedAt: 0,
    finishedAt: state === 'running' ? null : 1,
    progress: { rows, totalRows: null, bytesWritten: 0, rowsPerSecond: 0, bytesPerSecond: 0 },
    error: null,
    result: null,
  }) as JobInfo

describe('the jobs list in the renderer', () => {
  it('an event replaces a known job; a start answer or a list entry never takes it back to an older state', () => {
    const running = [job('x1', 'running')]
    const done = upsertJob(running, job('x1', 'done'), true)
    expect(done[0]!.state).toBe('done')
    expect(upsertJob(done, job('x1', 'running'), false)).toBe(done)
    expect(upsertJob(done, job('x2', 'running'), false).map((j) => j.id)).toEqual(['x1', 'x2'])
  })

  it('a late event of a job still running never takes an ended job back (the job ends once)', () => {
    const done = upsertJob([job('x1', 'running', 5)], job('x1', 'done', 20), true)
    expect(upsertJob(done, job('x1', 'running', 20), true)).toBe(done)
    const queued = [job('x2', 'queued')]
    expect(upsertJob(queued, job('x2', 'running', 3), true)[0]!.state).toBe('running')
    expect(upsertJob(upsertJob(queued, job('x2', 'cancelled'), true), job('x2', 'queued'), true)[0]!.state).toBe('cancelled')
  })

  it('the answer of jobs/list keeps what events brought first, and the jobs only events know', () => {
    const listed = [job('x1', 'running', 10), job('x2', 'done')]
    const fromEvents = [job('x1', 'done', 50), job('x3', 'running')]
    const merged = mergeListed(listed, fromEvents)
    expect(merged.map((j) => [j.id, j.state])).toEqual([
      ['x1', 'done'],
      ['x2', 'done'],
      ['x3', 'running'],
    ])
  })

  it('a queued job’s place counts the jobs queued before it (of every kind), in start order', () => {
    const list = [job('x1', 'done'), job('x2', 'running'), job('x3', 'queued'), { ...job('p1', 'queued'), kind: 'profile' } as JobInfo, job('x4', 'queued'), job('x5', 'cancelled')]
    expect([...queuePlaces(list)]).toEqual([
      ['x3', 0],
      ['p1', 1],
      ['x4', 2],
    ])
    expect(queuedText({ queueReason: 'Waiting for memory: the app is using 1.6 GiB of its 1.5 GiB budget' }, 0)).toBe('Waiting for memory: the app is using 1.6 GiB of its 1.5 GiB budget · next in line')
    expect(queuedText({ queueReason: 'Waiting for a free slot: at most 3 jobs run at once' }, 2)).toBe('Waiting for a free slot: at most 3 jobs run at once · 2 queued before it')
    expect(queuedText({}, undefined)).toBe('Waiting for a free slot')
  })
})
