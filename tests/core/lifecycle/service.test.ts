import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, IndexInfo, OptimizePreview, OptimizeResult, Result, TableInfo, TableStats, VersionComparison, VersionInfo } from '../../../src/contract'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { lifecycleRows } from './contract'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** The lifecycle use-cases through the service (what the renderer calls), on a real directory catalog. */
describe('lifecycle through CatalogService', () => {
  let root: string
  let service: CatalogService
  let ref: { connectionId: string; namespace: string[]; name: string }

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'lcb-lifecycle-svc-'))
    const client = await connectNamespace('dir', { root, create: 'true' })
    await client.createTable({ namespace: [], name: 't' }, lifecycleRows(100))
    for (let i = 0; i < 4; i++) await client.appendRows({ namespace: [], name: 't' }, lifecycleRows(10, 101 + i * 10))
    await client.close()
    service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
    const conn = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    ref = { connectionId: conn.id, namespace: [], name: 't' }
  })
  afterAll(async () => {
    await service.closeAll()
    await rm(root, { recursive: true, force: true })
  })

  it('reads an old version through tables/describe and tables/page', async () => {
    const d = value<TableInfo>(await service.dispatch('tables/describe', { ...ref, version: 1 }))
    expect(d).toMatchObject({ version: 1, rowCount: 100 })
    const page = tableFromIPC(value<Uint8Array>(await service.dispatch('tables/page', { ...ref, version: 2, offset: 105, limit: 50 })))
    expect(page.numRows).toBe(5)
    const missing = await service.dispatch('tables/describe', { ...ref, version: 77 })
    expect(missing.ok ? null : missing.error.code).toBe('not_found')
    expect(missing.ok ? null : missing.error.message).toMatch(/no version 77/)
  })

  it('compares two versions: schema differences and row counts', async () => {
    value(await service.dispatch('columns/add', { ...ref, columns: [{ name: 'flag', expression: 'id > 50' }] }))
    const cmp = value<VersionComparison>(await service.dispatch('versions/compare', { ...ref, from: 1, to: 6 }))
    expect(cmp.from.rowCount).toBe(100)
    expect(cmp.to.rowCount).toBe(140)
    expect(cmp.added.map((f) => f.name)).toEqual(['flag'])
    expect(cmp.removed).toEqual([])
  })

  it('restores through the service and answers the new latest version', async () => {
    expect(value(await service.dispatch('versions/restore', { ...ref, version: 1 }))).toEqual({ version: 7, jobs: [] })
    const versions = value<VersionInfo[]>(await service.dispatch('versions/list', ref))
    expect(versions.at(-1)).toMatchObject({ version: 7, rowCount: 100 })
    value(await service.dispatch('versions/restore', { ...ref, version: 6 }))
  })

  it('previews and runs optimize: compaction, prune of old versions, index update', async () => {
    value(await service.dispatch('indexes/create', { ...ref, index: { column: 'id', type: 'BTREE' } }))
    value(await service.dispatch('tables/page', { ...ref, offset: 0, limit: 1 }))
    const before = value<TableStats>(await service.dispatch('tables/stats', ref))
    expect(before.fragments).toBe(5)
    const preview = value<OptimizePreview>(await service.dispatch('tables/optimizePreview', { ...ref, pruneOlderThanDays: 0 }))
    expect(preview.fragmentsToCompact).toBe(5)
    expect(preview.versionsToRemove.length).toBe(before.versions - 1)
    const keepAll = value<OptimizePreview>(await service.dispatch('tables/optimizePreview', ref))
    expect(keepAll.versionsToRemove).toEqual([])
    const result = value<OptimizeResult>(await service.dispatch('tables/optimize', ref))
    expect(result.fragmentsRemoved).toBe(5)
    expect(result.versionsRemoved).toBe(0)
    const after = value<TableStats>(await service.dispatch('tables/stats', ref))
    expect(after.fragments).toBe(1)
    expect(after.rows).toBe(140)
    const idx = value<IndexInfo[]>(await service.dispatch('indexes/list', ref))
    expect(idx[0]).toMatchObject({ name: 'id_idx', indexedRows: 140, unindexedRows: 0 })
  })

  it('refuses bad input at the boundary', async () => {
    for (const bad of [{ ...ref, version: 0 }, { ...ref, version: 1.5 }, { ...ref, version: -1 }]) {
      const r = await service.dispatch('versions/restore', bad)
      expect(r.ok ? null : r.error.code).toBe('invalid_input')
    }
    const r = await service.dispatch('indexes/create', { ...ref, index: { column: 'id', type: 'MAGIC' } })
    expect(r.ok ? null : r.error.code).toBe('invalid_input')
  })

  it('creates an empty table from the schema editor: every column type, nullability, nesting', async () => {
    const columns = [
      ...(['int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64', 'string', 'bool', 'date', 'binary'] as const).map((type) => ({ name: `c_${type}`, type, nullable: true })),
      { name: 'at', type: 'timestamp', unit: 'ms', timezone: 'Europe/Paris', nullable: false },
      { name: 'embedding', type: 'vector', dimension: 8, nullable: false },
      { name: 'tags', type: 'list', nullable: true, item: { name: 'item', type: 'string', nullable: true } },
      { name: 'point', type: 'struct', nullable: true, fields: [{ name: 'x', type: 'float64', nullable: false }, { name: 'y', type: 'float64', nullable: false }] },
    ]
    const info = value<TableInfo>(await service.dispatch('tables/createEmpty', { ...ref, name: 'empty', columns }))
    expect(info.rowCount).toBe(0)
    const types = Object.fromEntries(info.schema.map((f) => [f.name, f.type]))
    expect(types).toMatchObject({ c_int8: 'Int8', c_float16: 'Float16', c_string: 'Utf8', c_bool: 'Bool', c_binary: 'Binary' })
    expect(types.at).toMatch(/Timestamp<MILLISECOND, Europe\/Paris>/)
    expect(info.schema.find((f) => f.name === 'embedding')).toMatchObject({ vectorDimension: 8, nullable: false })
    expect(info.schema.find((f) => f.name === 'point')?.children?.map((f) => f.name)).toEqual(['x', 'y'])
    const again = await service.dispatch('tables/createEmpty', { ...ref, name: 'empty', columns })
    expect(again.ok ? null : again.error.code).toBe('already_exists')
    const twice = await service.dispatch('tables/createEmpty', { ...ref, name: 'dup', columns: [columns[0], columns[0]] })
    expect(twice.ok ? null : twice.error.message).toBe('Column "c_int8" appears twice in the table')
    const noDim = await service.dispatch('tables/createEmpty', { ...ref, name: 'nodim', columns: [{ name: 'v', type: 'vector', nullable: false }] })
    expect(noDim.ok ? null : noDim.error.message).toBe('Vector column "v" needs a dimension')
  })

  it('adds a column of nulls, renames it, casts it within its family and drops it', async () => {
    const e = { ...ref, name: 'empty2' }
    value(await service.dispatch('tables/createEmpty', { ...e, columns: [{ name: 'n', type: 'int32', nullable: true }] }))
    value(await service.dispatch('columns/add', { ...e, columns: [{ name: 'note', expression: 'CAST(NULL AS string)' }] }))
    value(await service.dispatch('columns/alter', { ...e, alterations: [{ path: 'n', dataType: 'int64' }] }))
    value(await service.dispatch('columns/alter', { ...e, alterations: [{ path: 'note', rename: 'remark' }] }))
    let info = value<TableInfo>(await service.dispatch('tables/describe', e))
    expect(info.schema.map((f) => `${f.name}:${f.type}`)).toEqual(['n:Int64', 'remark:Utf8'])
    const bad = await service.dispatch('columns/alter', { ...e, alterations: [{ path: 'remark', dataType: 'int64' }] })
    expect(bad.ok).toBe(false)
    value(await service.dispatch('columns/drop', { ...e, columns: ['remark'] }))
    info = value<TableInfo>(await service.dispatch('tables/describe', e))
    expect(info.schema.map((f) => f.name)).toEqual(['n'])
  })

  it('namespaces: create with properties, describe them, list what a cascade would delete, drop with cascade', async () => {
    const c = ref.connectionId
    value(await service.dispatch('namespaces/create', { connectionId: c, namespace: ['team'], properties: { owner: 'ana', purpose: 'tests' } }))
    expect(value(await service.dispatch('namespaces/describe', { connectionId: c, namespace: ['team'] }))).toEqual({ properties: { owner: 'ana', purpose: 'tests' } })
    value(await service.dispatch('namespaces/create', { connectionId: c, namespace: ['team', 'sub'] }))
    value(await service.dispatch('tables/createEmpty', { connectionId: c, namespace: ['team'], name: 'a', columns: [{ name: 'x', type: 'int32', nullable: true }] }))
    value(await service.dispatch('tables/createEmpty', { connectionId: c, namespace: ['team', 'sub'], name: 'b', columns: [{ name: 'x', type: 'int32', nullable: true }] }))
    expect(value(await service.dispatch('namespaces/contents', { connectionId: c, namespace: ['team'] }))).toEqual({ namespaces: ['sub'], tables: ['a', 'sub/b'], truncated: false })
    const restrict = await service.dispatch('namespaces/drop', { connectionId: c, namespace: ['team'] })
    expect(restrict.ok ? null : restrict.error.code).toBe('not_empty')
    expect(value(await service.dispatch('namespaces/contents', { connectionId: c, namespace: ['team'] }))).toMatchObject({ tables: ['a', 'sub/b'] })
    value(await service.dispatch('namespaces/drop', { connectionId: c, namespace: ['team'], cascade: true }))
    const gone = await service.dispatch('namespaces/describe', { connectionId: c, namespace: ['team'] })
    expect(gone.ok ? null : gone.error.code).toBe('not_found')
  })

  it('the Read-only switch refuses every write, is remembered per directory, and is off by default for directories', async () => {
    const c = ref.connectionId
    const listed = value<ConnectionInfo[]>(await service.dispatch('connections/list', {}))
    expect(listed.find((x) => x.id === c)?.readOnly).toBe(false)
    expect(value<ConnectionInfo>(await service.dispatch('connections/setReadOnly', { connectionId: c, readOnly: true })).readOnly).toBe(true)
    const before = value<VersionInfo[]>(await service.dispatch('versions/list', ref)).length
    for (const [method, input] of [
      ['versions/restore', { ...ref, version: 1 }],
      ['tags/create', { ...ref, tag: 'x', version: 1 }],
      ['indexes/create', { ...ref, index: { column: 'id', type: 'BITMAP' } }],
      ['columns/drop', { ...ref, columns: ['flag'] }],
      ['tables/drop', ref],
      ['namespaces/create', { connectionId: c, namespace: ['nope'] }],
    ] as const) {
      const r = await service.dispatch(method, input)
      expect(r.ok ? null : r.error, method).toMatchObject({ code: 'permission_denied', hint: 'Switch “Read-only” off for this connection to change it' })
    }
    expect(value<VersionInfo[]>(await service.dispatch('versions/list', ref)).length).toBe(before)
    // Reads still work.
    expect(value<TableInfo>(await service.dispatch('tables/describe', ref)).rowCount).toBe(140)
    // Remembered for the directory: closed and opened again, it is still read-only.
    value(await service.dispatch('connections/close', { connectionId: c }))
    const again = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    expect(again.readOnly).toBe(true)
    value(await service.dispatch('connections/setReadOnly', { connectionId: again.id, readOnly: false }))
    ref = { ...ref, connectionId: again.id }
    value(await service.dispatch('tags/create', { ...ref, tag: 'writable', version: 1 }))
  })
})
