import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, IndexInfo, IndexJobInfo, JobInfo, Result } from '../../../src/contract'
import { JobRegistry } from '../../../src/core/jobs'
import { IndexJobs } from '../../../src/core/lifecycle/indexJobs'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { lifecycleRows } from './contract'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** Index builds as jobs: started, followed through events, listed; cancel drops what the build made. */
describe('index jobs', () => {
  let root: string
  let client: NamespaceClient
  const t = { namespace: [] as string[], name: 't' }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lcb-index-jobs-'))
    client = await connectNamespace('dir', { root, create: 'true' })
    await client.createTable(t, lifecycleRows(200))
  })
  afterAll(async () => {
    await client.close()
    await rm(root, { recursive: true, force: true })
  })

  it('runs through the service: indexes/start answers a running job, events follow it to done, the index is listed', async () => {
    const events: IndexJobInfo[] = []
    const service = new CatalogService({
      host: 'harness',
      version: '0.0.0-test',
      recents: new MemoryRecentsStore(),
      emit: (name, payload) => {
        if (name === 'jobs/progress' && (payload as JobInfo).kind === 'index') events.push(payload as IndexJobInfo)
      },
    })
    try {
      const conn = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
      const ref = { connectionId: conn.id, namespace: [], name: 't' }
      const job = value<IndexJobInfo>(await service.dispatch('indexes/start', { ...ref, index: { column: 'id', type: 'BTREE' } }))
      expect(job).toMatchObject({ kind: 'index', state: 'running', index: { name: 'id_idx', type: 'BTREE', column: 'id' } })
      const done = await service.lifecycle.indexJobs.wait(job.id)
      expect(done.state).toBe('done')
      expect(events.map((e) => e.state)).toEqual(['running', 'done'])
      expect(value<IndexInfo[]>(await service.dispatch('indexes/list', ref)).map((x) => x.name)).toContain('id_idx')
      expect(value<JobInfo[]>(await service.dispatch('jobs/list', {})).map((j) => j.state)).toEqual(['done'])
      // An existing name is refused up front: no job is made.
      const again = await service.dispatch('indexes/start', { ...ref, index: { column: 'id', type: 'BTREE' } })
      expect(again.ok ? null : again.error.code).toBe('already_exists')
      expect(value<JobInfo[]>(await service.dispatch('jobs/list', {}))).toHaveLength(1)
      // A missing column fails the job in words; the table keeps its indexes.
      const bad = value<IndexJobInfo>(await service.dispatch('indexes/start', { ...ref, index: { column: 'nope', type: 'BTREE' } }))
      const failed = await service.lifecycle.indexJobs.wait(bad.id)
      expect(failed.state).toBe('failed')
      expect(failed.error?.message).toMatch(/nope/)
      // Read-only connections refuse to start a build.
      value(await service.dispatch('connections/setReadOnly', { connectionId: conn.id, readOnly: true }))
      const refused = await service.dispatch('indexes/start', { ...ref, index: { column: 'label', type: 'BITMAP' } })
      expect(refused.ok ? null : refused.error.code).toBe('permission_denied')
    } finally {
      await service.closeAll()
    }
  })

  it('cancel lets the build step end, then drops the new index: the table keeps the indexes it had', async () => {
    // Hold the build until cancel has been asked, so the order is certain (Lance cannot stop a build).
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let built = false
    let began!: () => void
    const started = new Promise<void>((resolve) => (began = resolve))
    const gated = Object.create(client) as NamespaceClient
    gated.createIndex = async (id, spec) => {
      began()
      await gate
      await client.createIndex(id, spec)
      built = true
    }
    const events: IndexJobInfo[] = []
    const jobs = new IndexJobs({ jobs: new JobRegistry({ emit: (job) => events.push(job as IndexJobInfo) }) })
    const before = (await client.listIndexes(t)).map((x) => x.name)
    const job = await jobs.start({ client: gated, table: { connectionId: 'c', ...t }, index: { column: 'label', type: 'BITMAP', name: 'label_idx' } })
    // (A job cancelled before its build began — waiting for another write to the table — never builds.)
    await started
    jobs.cancel(job.id)
    expect(events.at(-1)).toMatchObject({ state: 'running', cancelling: true })
    release()
    const end = await jobs.wait(job.id)
    expect(built).toBe(true)
    expect(end).toMatchObject({ state: 'cancelled', error: null })
    expect((await client.listIndexes(t)).map((x) => x.name)).toEqual(before)
  })
})
