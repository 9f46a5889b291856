import { createReadStream } from 'node:fs'
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportJobInfo, ImportPreview, Result } from '../../../src/contract'
import { connectNamespace } from '../../../src/core/namespace/connect'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { KITCHEN_SCHEMA, kitchenTable, writeArrow } from '../../fixtures/import/arrow'

let dir: string
let service: CatalogService
let connectionId: string
const events: ImportJobInfo[] = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lcb-jobs-'))
  const created = await connectNamespace('dir', { root: join(dir, 'catalog'), create: 'true' })
  await created.createNamespace(['team'])
  await created.close()
  service = new CatalogService({
    host: 'harness',
    version: 'test',
    recents: new MemoryRecentsStore(),
    emit: (name, payload) => {
      if (name === 'jobs/progress') events.push(payload as ImportJobInfo)
    },
  })
  const opened = await service.dispatch('connections/openDirectory', { path: join(dir, 'catalog') })
  connectionId = (value(opened) as { id: string }).id
  await writeArrow(join(dir, 'embeddings.arrow'), 'file', KITCHEN_SCHEMA, kitchenTable(3000, 1000).batches)
})

afterAll(async () => {
  await service.closeAll()
  await rm(dir, { recursive: true, force: true })
})

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

async function settled(jobId: string): Promise<ImportJobInfo> {
  return service.imports.jobs.wait(jobId)
}

describe('import through the service contract', () => {
  it('import/preview shows the schema to write, 20 rows, the row count and vector candidates', async () => {
    const preview = value(
      await service.dispatch('import/preview', { connectionId, namespace: ['team'], source: { path: join(dir, 'embeddings.arrow') } }),
    ) as ImportPreview
    expect(preview.format).toBe('arrow-file')
    expect(preview.suggestedName).toBe('embeddings')
    expect(preview.nameProblem).toBeNull()
    expect(preview.rowCount).toBe(3000)
    expect(preview.sampleRowCount).toBe(20)
    const sample = tableFromIPC(
      value(await service.dispatch('import/sample', { connectionId, namespace: ['team'], source: { path: join(dir, 'embeddings.arrow') } })) as Uint8Array,
    )
    expect(sample.numRows).toBe(20)
    expect(String(sample.schema.fields.find((f) => f.name === 'emb')!.type)).toBe('FixedSizeList[3]<Float32>')
    expect(sample.get(0)!.toJSON().label).toBe('row 0 ✓')
    expect(preview.vectorCandidates).toEqual([{ column: 'emb', dimension: 3, sourceType: 'List<Float64>', accepted: true }])
    expect(preview.schema.find((f) => f.name === 'emb')).toMatchObject({ type: 'FixedSizeList<Float32>[3]', vectorDimension: 3 })
    expect(preview.existing).toBeNull()
    expect(preview.modeProblem).toBeNull()

    const declined = value(
      await service.dispatch('import/preview', { connectionId, namespace: ['team'], source: { path: join(dir, 'embeddings.arrow') }, vectorColumns: [], name: 'bad name' }),
    ) as ImportPreview
    expect(declined.vectorCandidates[0]!.accepted).toBe(false)
    expect(declined.schema.find((f) => f.name === 'emb')!.type).toBe('List<Float64>')
    expect(declined.nameProblem).toMatch(/whitespace/)
  })

  it('import/start queues a job; jobs/progress reports it to done; jobs/list keeps it', async () => {
    const job = value(
      await service.dispatch('import/start', { connectionId, namespace: ['team'], name: 'embeddings', source: { path: join(dir, 'embeddings.arrow') } }),
    ) as ImportJobInfo
    expect(['queued', 'running']).toContain(job.state)
    expect(job).toMatchObject({ format: 'arrow-file', fileName: 'embeddings.arrow', target: { connectionId, namespace: ['team'], name: 'embeddings' } })
    expect(job.progress.totalBytes).toBeGreaterThan(0)
    const done = await settled(job.id)
    expect(done.state).toBe('done')
    expect(done.result).toMatchObject({ rowCount: 3000 })
    expect(done.progress).toMatchObject({ rows: 3000, totalRows: 3000, phase: 'finished' })
    const mine = events.filter((e) => e.id === job.id)
    expect(mine.at(-1)!.state).toBe('done')
    expect(mine.some((e) => e.state === 'running')).toBe(true)
    const list = value(await service.dispatch('jobs/list', {})) as ImportJobInfo[]
    expect(list.find((j) => j.id === job.id)!.state).toBe('done')
    const described = value(await service.dispatch('tables/describe', { connectionId, namespace: ['team'], name: 'embeddings' })) as { rowCount: number }
    expect(described.rowCount).toBe(3000)
  })

  it('refuses create over an existing table at once, and names the problem in preview', async () => {
    const start = await service.dispatch('import/start', { connectionId, namespace: ['team'], name: 'embeddings', source: { path: join(dir, 'embeddings.arrow') } })
    expect(start.ok).toBe(false)
    if (!start.ok) expect(start.error.code).toBe('already_exists')
    const preview = value(await service.dispatch('import/preview', { connectionId, namespace: ['team'], source: { path: join(dir, 'embeddings.arrow') } })) as ImportPreview
    expect(preview.existing).toMatchObject({ rowCount: 3000, schemaDiff: null })
    expect(preview.modeProblem).toMatch(/already exists/)
  })

  it('queues several jobs, runs them one at a time, and records failures with their reason', async () => {
    await writeFile(join(dir, 'bad.jsonl'), '{"a": 1}\n{"a": \n')
    const ids: string[] = []
    for (const [name, file] of [['q1', 'embeddings.arrow'], ['q2', 'bad.jsonl'], ['q3', 'embeddings.arrow']] as const) {
      ids.push((value(await service.dispatch('import/start', { connectionId, namespace: [], name, source: { path: join(dir, file) } })) as ImportJobInfo).id)
    }
    const results = await Promise.all(ids.map(settled))
    expect(results.map((r) => r.state)).toEqual(['done', 'failed', 'done'])
    expect(results[1]!.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/bad\.jsonl line 2 is not valid JSON/) })
    // one at a time: each started after the previous finished
    expect(results[1]!.startedAt!).toBeGreaterThanOrEqual(results[0]!.finishedAt!)
    expect(results[2]!.startedAt!).toBeGreaterThanOrEqual(results[1]!.finishedAt!)
  })

  it('jobs/cancel cancels a queued job; a cancelled running job leaves no table', async () => {
    const running = value(await service.dispatch('import/start', { connectionId, namespace: [], name: 'c1', source: { path: join(dir, 'embeddings.arrow') } })) as ImportJobInfo
    const queued = value(await service.dispatch('import/start', { connectionId, namespace: [], name: 'c2', source: { path: join(dir, 'embeddings.arrow') } })) as ImportJobInfo
    value(await service.dispatch('jobs/cancel', { jobId: queued.id }))
    value(await service.dispatch('jobs/cancel', { jobId: running.id }))
    const [a, b] = await Promise.all([settled(running.id), settled(queued.id)])
    expect(b.state).toBe('cancelled')
    // The running one may have finished before the cancel arrived; if cancelled, no table.
    const tables = (value(await service.dispatch('tables/list', { connectionId, namespace: [] })) as { items: string[] }).items
    expect(tables).not.toContain('c2')
    if (a.state === 'cancelled') expect(tables).not.toContain('c1')
    else expect(a.state).toBe('done')
    expect(tables.filter((t) => t.startsWith('.lcb-'))).toEqual([])
  })

  it('harness path: a Readable is staged as an upload, previewed and imported, then the temp file is removed', async () => {
    const path = join(dir, 'embeddings.arrow')
    const size = (await stat(path)).size
    const staged = await service.imports.stageUpload(createReadStream(path), { fileName: 'from-browser.arrow', size })
    expect(staged.bytes).toBe(size)
    const preview = value(await service.dispatch('import/preview', { connectionId, namespace: [], source: { uploadId: staged.uploadId } })) as ImportPreview
    expect(preview.suggestedName).toBe('from-browser')
    const job = value(await service.dispatch('import/start', { connectionId, namespace: [], name: preview.suggestedName, source: { uploadId: staged.uploadId } })) as ImportJobInfo
    expect((await settled(job.id)).state).toBe('done')
    const again = await service.dispatch('import/preview', { connectionId, namespace: [], source: { uploadId: staged.uploadId } })
    expect(again.ok ? null : again.error.code).toBe('not_found')

    const direct = await service.imports.importReadable(Readable.from([Buffer.from('id,name\n1,a\n2,b\n')]), {
      fileName: 'two.csv',
      connectionId,
      namespace: [],
      name: 'two',
    })
    expect((await settled(direct.id)).result).toMatchObject({ rowCount: 2 })
  })

  it('an upload shorter than its announced size is refused', async () => {
    await expect(
      service.imports.stageUpload(Readable.from([Buffer.from('abc')]), { fileName: 'cut.csv', size: 10 }),
    ).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/ended early \(3 of 10 bytes\)/) })
  })

  it('bad input is refused by the contract schemas', async () => {
    const r = await service.dispatch('import/start', { connectionId, namespace: [], name: '..', source: { path: '' } })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toMatch(/name: "\.\." is not allowed/)
    const missing = await service.dispatch('import/start', { connectionId, namespace: [], name: 'm', source: { path: join(dir, 'nope.arrow') } })
    expect(missing.ok ? null : missing.error).toMatchObject({ code: 'not_found', message: 'nope.arrow does not exist (any more)' })
    const folder = await service.dispatch('import/preview', { connectionId, namespace: [], source: { path: dir } })
    expect(folder.ok ? null : folder.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/is a folder/) })
    const nul = await service.dispatch('import/preview', { connectionId, namespace: [], source: { path: join(dir, 'a\0b.csv') } })
    expect(nul.ok ? null : nul.error).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/NUL byte/) })
  })
})
