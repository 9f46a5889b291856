import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError, type ConnectionInfo, type IndexInfo, type IndexJobInfo, type JobInfo, type OptimizePreview, type RestorePreview, type Result } from '../../../src/contract'
import { retryConflicts, isRetryableConflict } from '../../../src/core/lifecycle/tableWrites'
import { fromLanceError } from '../../../src/core/namespace/dir/errors'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { LifecycleModule } from '../../../src/core/lifecycle/module'
import '../../../src/core/namespace/rest'
import { KEY, serveTemp } from '../../server/support'
import { lifecycleRows } from './contract'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/**
 * Promises the lifecycle keeps, on real Lance tables: a restore says which indexes it keeps and rebuilds the lost
 * ones as jobs; writes to one table run one at a time (an Optimize during an index build is refused with the
 * reason); Lance's "please retry" commit conflicts are retried.
 */
describe('restore keeps the indexes, writes are serialised, conflicts are retried', () => {
  let root: string
  let client: NamespaceClient
  let service: CatalogService
  let connectionId: string
  const events: IndexJobInfo[] = []
  const ref = (name: string) => ({ connectionId, namespace: [] as string[], name })

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lcb-table-writes-'))
    client = await connectNamespace('dir', { root, create: 'true' })
    await client.createTable({ namespace: [], name: 'r' }, lifecycleRows(600)) // v1: no indexes
    await client.createTable({ namespace: [], name: 'w' }, lifecycleRows(600))
    await client.createTable({ namespace: [], name: 'c' }, lifecycleRows(100))
    service = new CatalogService({
      host: 'harness',
      version: '0.0.0-test',
      recents: new MemoryRecentsStore(),
      emit: (name, payload) => {
        if (name === 'jobs/progress' && (payload as JobInfo).kind === 'index') events.push(payload as IndexJobInfo)
      },
      // Two builds at once (the budget's default is one), so the second meets the first at the table's write queue.
      jobBudget: { perKind: { index: 2 } },
    })
    connectionId = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root })).id
  })
  afterAll(async () => {
    await service?.closeAll()
    await client?.close()
    await rm(root, { recursive: true, force: true })
  })

  it('restore: the preview names the indexes that would be gone, and the restore rebuilds them as jobs', async () => {
    const r = ref('r')
    await client.createIndex({ namespace: [], name: 'r' }, { column: 'label', type: 'FTS', name: 'label_fts', withPosition: true }) // v2
    await client.createIndex({ namespace: [], name: 'r' }, { column: 'vector', type: 'IVF_PQ', name: 'vec_pq', distanceType: 'cosine', numPartitions: 2, numSubVectors: 2 }) // v3
    await client.createIndex({ namespace: [], name: 'r' }, { column: 'id', type: 'BTREE' }) // v4
    await client.dropIndex({ namespace: [], name: 'r' }, 'id_idx') // v5

    // Version 2 had the FTS index and the BTree index not yet; version 5 has FTS and IVF_PQ.
    const toV2 = value<RestorePreview>(await service.dispatch('versions/restorePreview', { ...r, version: 2 }))
    expect(toV2).toMatchObject({ version: 2, latest: 5, rowCount: 600, kept: ['label_fts'], back: [], indexBuildsRunning: [] })
    expect(toV2.lost.map((x) => x.name)).toEqual(['vec_pq'])
    // Version 4 had the BTree index, dropped since: it comes back.
    expect(value<RestorePreview>(await service.dispatch('versions/restorePreview', { ...r, version: 4 })).back).toEqual(['id_idx'])

    const toV1 = value<RestorePreview>(await service.dispatch('versions/restorePreview', { ...r, version: 1 }))
    expect(toV1.kept).toEqual([])
    const lost = Object.fromEntries(toV1.lost.map((x) => [x.name, x]))
    // Rebuilt as they were built: Lance records the tokenizer and the metric and sub-vectors (not the partitions).
    expect(lost.label_fts?.rebuild).toMatchObject({ type: 'FTS', column: 'label', name: 'label_fts', withPosition: true })
    expect(lost.vec_pq?.rebuild).toMatchObject({ type: 'IVF_PQ', column: 'vector', name: 'vec_pq', distanceType: 'cosine', numSubVectors: 2 })

    // Asking to rebuild something the restore does not remove is refused before anything is written.
    const wrong = await service.dispatch('versions/restore', { ...r, version: 1, rebuildIndexes: ['nope'] })
    expect(wrong.ok ? null : wrong.error.code).toBe('invalid_input')
    expect(await client.latestVersion({ namespace: [], name: 'r' })).toBe(5)

    const restored = value<{ version: number; jobs: IndexJobInfo[] }>(await service.dispatch('versions/restore', { ...r, version: 1, rebuildIndexes: ['label_fts', 'vec_pq'] }))
    expect(restored.version).toBe(6)
    expect(restored.jobs.map((j) => j.index.name)).toEqual(['label_fts', 'vec_pq'])
    const done = await Promise.all(restored.jobs.map((j) => service.lifecycle.indexJobs.wait(j.id)))
    expect(done.map((j) => j.state)).toEqual(['done', 'done'])
    // The second build waited for the first (one write per table at a time) and said so.
    expect(events.some((e) => e.id === restored.jobs[1]!.id && /Waiting for index label_fts/.test(e.waiting ?? ''))).toBe(true)
    const indexes = value<IndexInfo[]>(await service.dispatch('indexes/list', r))
    expect(indexes.map((x) => x.name).sort()).toEqual(['label_fts', 'vec_pq'])
    expect(indexes.find((x) => x.name === 'vec_pq')).toMatchObject({ unindexedRows: 0, distanceType: 'cosine' })
    // The rows are version 1's, and full-text search works on them again.
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('r')
    expect(await table.countRows()).toBe(600)
    expect((await table.search('label', 'fts').limit(5).toArray()).length).toBe(5)
  })

  it('an Optimize while an index build runs on the table is refused with the reason; the preview says a build runs', async () => {
    const w = ref('w')
    const job = value<IndexJobInfo>(await service.dispatch('indexes/start', { ...w, index: { column: 'vector', type: 'IVF_PQ', numPartitions: 2, numSubVectors: 2 } }))
    // No await between the start and these calls but the service's own: the build is still running.
    const [optimize, preview, restore] = await Promise.all([
      service.dispatch('tables/optimize', w),
      service.dispatch('tables/optimizePreview', w),
      service.dispatch('versions/restorePreview', { ...w, version: 1 }),
    ])
    expect(optimize.ok).toBe(false)
    if (!optimize.ok) {
      expect(optimize.error.code).toBe('conflict')
      expect(optimize.error.message).toBe('Optimize cannot run now: index “vector_idx” is being built on this table')
    }
    expect(value<OptimizePreview>(preview).indexBuildsRunning).toEqual(['vector_idx'])
    expect(value<RestorePreview>(restore).indexBuildsRunning).toEqual(['vector_idx'])
    expect((await service.lifecycle.indexJobs.wait(job.id)).state).toBe('done')
    // Once the build has ended, the same Optimize runs.
    expect(value<OptimizePreview>(await service.dispatch('tables/optimizePreview', w)).indexBuildsRunning).toEqual([])
    const result = await service.dispatch('tables/optimize', w)
    expect(result.ok).toBe(true)
  })

  it('a retryable Lance commit conflict is retried; when the attempts run out it is said in words', async () => {
    // A real conflict: an index build committed from a handle older than a compaction that rewrote its fragments.
    const db = await lancedb.connectNamespace('dir', { root })
    for (let i = 0; i < 4; i++) await (await db.openTable('c')).add(lancedb.makeArrowTable([{ id: BigInt(1000 + i), label: 'x', vector: [0, 0, 0, 0] }]))
    const stale = async () => {
      const old = await db.openTable('c')
      const other = await db.openTable('c')
      await other.add(lancedb.makeArrowTable([{ id: 5000n, label: 'y', vector: [1, 1, 1, 1] }]))
      await other.optimize({ cleanupOlderThan: new Date(0) })
      return old
    }
    let raw: unknown
    try {
      await (await stale()).createIndex('id', { config: lancedb.Index.btree() })
    } catch (error) {
      raw = error
    }
    expect(String((raw as Error)?.message)).toMatch(/Retryable commit conflict/)
    // As the dir client maps it (what the jobs see), it is still recognised.
    expect(isRetryableConflict(fromLanceError(raw))).toBe(true)
    expect(isRetryableConflict(new AppError('invalid_input', 'No field named x'))).toBe(false)

    const exhausted = await retryConflicts('the build of index label_idx', async () => (await stale()).createIndex('label', { config: lancedb.Index.bitmap() }), 2).catch((e: unknown) => e)
    expect(exhausted).toBeInstanceOf(AppError)
    expect((exhausted as AppError).code).toBe('conflict')
    expect((exhausted as AppError).message).toBe('Another writer kept changing the table while the build of index label_idx ran (tried 2 times)')
    expect((exhausted as AppError).message).not.toMatch(/Please retry|lance error/)

    const attempts: number[] = []
    await retryConflicts('the build of index id_idx', async (attempt) => {
      attempts.push(attempt)
      const table = attempt === 1 ? await stale() : await db.openTable('c')
      await table.createIndex('id', { config: lancedb.Index.btree(), replace: true })
    })
    expect(attempts).toEqual([1, 2])
    expect((await (await db.openTable('c')).listIndices()).map((x) => x.name)).toContain('id_idx')
  })
})

describe('restore over REST (our server): the preview lists the indexes of the older version, and the rebuilds run as jobs', () => {
  it('names the indexes a restore removes and rebuilds them', async () => {
    const server = await serveTemp()
    const rest = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
    try {
      const id = { namespace: [] as string[], name: 'docs' }
      await rest.createTable(id, lifecycleRows(300)) // v1
      await rest.createIndex(id, { column: 'label', type: 'FTS' }) // v2
      await rest.createIndex(id, { column: 'id', type: 'BTREE' }) // v3
      const module = new LifecycleModule({ client: () => rest, cancellable: (_requestId, work) => work(new AbortController().signal) })
      const ref = { connectionId: 'rest', namespace: [] as string[], name: 'docs' }
      const toV2 = await module.handlers['versions/restorePreview']({ ...ref, version: 2 })
      expect(toV2.kept).toEqual(['label_idx'])
      expect(toV2.lost.map((x) => [x.name, x.rebuild?.type])).toEqual([['id_idx', 'BTREE']])
      const restored = await module.handlers['versions/restore']({ ...ref, version: 1, rebuildIndexes: ['label_idx', 'id_idx'] })
      expect(restored.version).toBe(4)
      const done = await Promise.all(restored.jobs.map((j) => module.indexJobs.wait(j.id)))
      expect(done.map((j) => [j.index.name, j.state]).sort()).toEqual([
        ['id_idx', 'done'],
        ['label_idx', 'done'],
      ])
      expect((await rest.listIndexes(id)).map((x) => x.name).sort()).toEqual(['id_idx', 'label_idx'])
    } finally {
      await rest.close()
      await server.close()
    }
  })
})
