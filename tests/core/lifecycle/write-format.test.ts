import { cp, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppErrorData, CatalogDataFormats, ConnectionInfo, DataFormat, IndexJobInfo, OptimizeResult, Result, TableInfo } from '../../../src/contract'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { fromLanceError } from '../../../src/core/namespace/dir/errors'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { assertFormatChoosable, catalogFormats } from '../../../src/core/namespace/dataFormats'
import { captureServer } from '../namespace/rest/capture'
import { majorityFormat } from '../../../src/core/namespace/dir/dataFormat'
import { stepsDone } from '../../../src/core/lifecycle/writeFormat'
import { lifecycleRows } from './contract'

/**
 * Issue #40 item 7, "Write what the catalog's readers can read": the data file format of new tables (chosen, or
 * the catalog's majority), the refusal of an index or an optimize on a legacy table without the user's consent,
 * and an Optimize error that names its cause and what was already committed.
 */

const FIXTURE = join(__dirname, '..', '..', 'fixtures', 'writers-index', 'catalog')

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function failure(result: Result<unknown>): AppErrorData {
  if (result.ok) throw new Error('expected a failure')
  return result.error
}

/**
 * The format of a table's data files, read from a data file's own footer (u16 major, u16 minor, "LANC"), not from
 * the manifest the app reads: an independent check of what Lance wrote.
 */
async function dataFileFormat(tableDir: string): Promise<string> {
  const files = (await readdir(join(tableDir, 'data'))).filter((f) => f.endsWith('.lance'))
  expect(files.length).toBeGreaterThan(0)
  const handle = await open(join(tableDir, 'data', files[0]!), 'r')
  try {
    const { size } = await handle.stat()
    const tail = Buffer.alloc(8)
    await handle.read(tail, 0, 8, size - 8)
    expect(tail.toString('latin1', 4, 8)).toBe('LANC')
    const [major, minor] = [tail.readUInt16LE(0), tail.readUInt16LE(2)]
    if (major === 0 && minor < 3) return 'legacy'
    if (major === 0 && minor === 3) return '2.0'
    return `${major}.${minor}`
  } finally {
    await handle.close()
  }
}

let root: string
let service: CatalogService

async function openCatalog(path: string): Promise<string> {
  return value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path })).id
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'lcb-write-format-'))
  service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
})
afterAll(async () => {
  await service.closeAll()
  await rm(root, { recursive: true, force: true })
})

describe('the data format of new tables', () => {
  it('an import writes the format chosen in the sheet (legacy, 2.0, 2.1), read back from the data files', async () => {
    const path = join(root, 'chosen')
    await (await connectNamespace('dir', { root: path, create: 'true' })).close()
    const connectionId = await openCatalog(path)
    const csv = join(root, 'rows.csv')
    await writeFile(csv, 'id,name\n1,a\n2,b\n3,c\n')
    for (const format of ['legacy', '2.0', '2.1'] as DataFormat[]) {
      const name = `t_${format.replace('.', '_')}`
      const job = value<{ id: string }>(await service.dispatch('import/start', { connectionId, namespace: [], source: { path: csv }, name, mode: 'create', dataFormat: format }))
      const done = await service.imports.jobs.wait(job.id)
      expect(done.state, JSON.stringify(done.error)).toBe('done')
      expect(await dataFileFormat(join(path, `${name}.lance`))).toBe(format)
      expect(value<{ format: string }>(await service.dispatch('tables/dataFormat', { connectionId, namespace: [], name })).format).toBe(format)
    }
  })

  it('the majority: a tie goes to the older format; formats newer than 2.1 count for 2.1; none = 2.1', () => {
    expect(majorityFormat({ legacy: 1, '2.1': 1 })).toBe('legacy')
    expect(majorityFormat({ '2.0': 2, '2.1': 1, '2.2': 2 })).toBe('2.1')
    expect(majorityFormat({})).toBe('2.1')
  })

  it('New table (tables/createEmpty) takes the chosen format', async () => {
    const path = join(root, 'empty')
    await (await connectNamespace('dir', { root: path, create: 'true' })).close()
    const connectionId = await openCatalog(path)
    value<TableInfo>(await service.dispatch('tables/createEmpty', { connectionId, namespace: [], name: 'e', columns: [{ name: 'id', type: 'int64', nullable: false }], dataFormat: '2.0' }))
    expect(value<{ format: string }>(await service.dispatch('tables/dataFormat', { connectionId, namespace: [], name: 'e' })).format).toBe('2.0')
  })

  it('without a choice, a new table takes the format most of the catalog’s tables are in; 2.1 in an empty catalog', async () => {
    const path = join(root, 'majority')
    const client = await connectNamespace('dir', { root: path, create: 'true' })
    const connectionIdEmpty = await openCatalog(path)
    expect(value<CatalogDataFormats>(await service.dispatch('catalog/dataFormats', { connectionId: connectionIdEmpty }))).toMatchObject({ default: '2.1', tablesRead: 0 })
    await service.dispatch('connections/close', { connectionId: connectionIdEmpty })

    await client.createNamespace(['team'])
    await client.createTable({ namespace: [], name: 'a' }, lifecycleRows(5), { dataFormat: 'legacy' })
    await client.createTable({ namespace: ['team'], name: 'b' }, lifecycleRows(5), { dataFormat: 'legacy' })
    await client.createTable({ namespace: [], name: 'c' }, lifecycleRows(5), { dataFormat: '2.1' })
    await client.close()
    const connectionId = await openCatalog(path)
    const formats = value<CatalogDataFormats>(await service.dispatch('catalog/dataFormats', { connectionId }))
    expect(formats).toMatchObject({ default: 'legacy', counts: { legacy: 2, '2.1': 1 }, tablesRead: 3, limited: false, choosable: true })

    // An import with no format asked for, and a New table: both legacy, like the catalog.
    const csv = join(root, 'rows2.csv')
    await writeFile(csv, 'id\n1\n2\n')
    const job = value<{ id: string }>(await service.dispatch('import/start', { connectionId, namespace: ['team'], source: { path: csv }, name: 'imported', mode: 'create' }))
    expect((await service.imports.jobs.wait(job.id)).state).toBe('done')
    expect(value<{ format: string }>(await service.dispatch('tables/dataFormat', { connectionId, namespace: ['team'], name: 'imported' })).format).toBe('legacy')
    value(await service.dispatch('tables/createEmpty', { connectionId, namespace: [], name: 'fresh', columns: [{ name: 'id', type: 'int64', nullable: true }] }))
    expect(value<{ format: string }>(await service.dispatch('tables/dataFormat', { connectionId, namespace: [], name: 'fresh' })).format).toBe('legacy')
  })
})

describe('a REST catalog decides the format itself', () => {
  it('says so (not choosable) and refuses a format asked for, instead of ignoring it', async () => {
    const server = await captureServer(() => ({ body: '{}' }))
    try {
      const client = await connectNamespace('rest', { uri: server.url })
      expect(await catalogFormats(client)).toMatchObject({ choosable: false, default: '2.1' })
      expect(() => assertFormatChoosable(client, 'legacy')).toThrow(/decides the file format of its new tables itself/)
      expect(() => assertFormatChoosable(client, undefined)).not.toThrow()
    } finally {
      await server.close()
    }
  })
})

describe('writes an old writer does not survive', () => {
  let connectionId: string
  const legacy = { namespace: [] as string[], name: 'old' }
  const modern = { namespace: [] as string[], name: 'new' }

  beforeAll(async () => {
    const path = join(root, 'ack')
    const client = await connectNamespace('dir', { root: path, create: 'true' })
    await client.createTable(legacy, lifecycleRows(50), { dataFormat: 'legacy' })
    await client.appendRows(legacy, lifecycleRows(10, 51))
    await client.createTable(modern, lifecycleRows(50), { dataFormat: '2.1' })
    await client.close()
    connectionId = await openCatalog(path)
  })

  it('refuses an optimize of a legacy table without acknowledgeLegacy, naming the consequence; runs it with the flag', async () => {
    const refused = failure(await service.dispatch('tables/optimize', { connectionId, ...legacy }))
    expect(refused.code).toBe('invalid_input')
    expect(refused.message).toMatch(/legacy \(v1\) data format/)
    expect(refused.message).toMatch(/vectordb 0\.4\.x's own filtered queries on this table fail/)
    expect(refused.hint).toMatch(/acknowledgeLegacy/)
    // Nothing was written: still two fragments.
    expect(value<{ fragments: number }>(await service.dispatch('tables/stats', { connectionId, ...legacy })).fragments).toBe(2)
    const done = value<OptimizeResult>(await service.dispatch('tables/optimize', { connectionId, ...legacy, acknowledgeLegacy: true }))
    expect(done.fragmentsRemoved).toBe(2)
  })

  it('refuses an index on a legacy table without the flag (indexes/create and indexes/start)', async () => {
    const index = { column: 'id', type: 'BTREE' as const }
    expect(failure(await service.dispatch('indexes/create', { connectionId, ...legacy, index })).message).toMatch(/After building an index on it/)
    expect(failure(await service.dispatch('indexes/start', { connectionId, ...legacy, index })).code).toBe('invalid_input')
    expect(value<unknown[]>(await service.dispatch('indexes/list', { connectionId, ...legacy }))).toEqual([])
    value(await service.dispatch('indexes/create', { connectionId, ...legacy, index, acknowledgeLegacy: true }))
    expect(value<{ name: string }[]>(await service.dispatch('indexes/list', { connectionId, ...legacy })).map((x) => x.name)).toEqual(['id_idx'])
  })

  it('asks nothing for a table in a newer format', async () => {
    value(await service.dispatch('tables/optimize', { connectionId, ...modern }))
    const job = value<IndexJobInfo>(await service.dispatch('indexes/start', { connectionId, ...modern, index: { column: 'id', type: 'BTREE' } }))
    expect(job.state).not.toBe('failed')
  })
})

describe('Optimize errors name the cause and what was committed', () => {
  it('an IVF_PQ index written by vectordb 0.4.20: the old index format, rebuild it; compaction committed 3 → 5', async () => {
    const path = join(root, 'old-ivf')
    await cp(FIXTURE, path, { recursive: true })
    const connectionId = await openCatalog(path)
    const ref = { connectionId, namespace: [], name: 'old_ivf' }
    expect(value<{ format: string }>(await service.dispatch('tables/dataFormat', ref)).format).toBe('legacy')
    const error = failure(await service.dispatch('tables/optimize', { ...ref, acknowledgeLegacy: true }))
    expect(error.code).toBe('unsupported')
    expect(error.message).not.toMatch(/directory catalogs/)
    expect(error.message).toMatch(/vector index in an old format/)
    expect(error.hint).toMatch(/Rebuild the index/)
    expect(error.message).toMatch(/Done before the failure: compaction committed \(version 3 → 5\)\. Not done: updating the indexes\./)
    expect(value<TableInfo>(await service.dispatch('tables/describe', ref)).version).toBe(5)
  })

  it('says which steps committed: nothing; compaction; compaction and a prune', () => {
    const v = (version: number, operation?: 'append' | 'compaction') => ({ version, timestamp: 0, tags: [], operation })
    const before = [v(1), v(2, 'append'), v(3, 'append')]
    expect(stepsDone(before, before, false)).toBe('Nothing was committed: the table is still at version 3.')
    expect(stepsDone(before, [...before, v(4, 'compaction')], false)).toBe('Done before the failure: compaction committed (version 3 → 4). Not done: pruning old versions and updating the indexes.')
    expect(stepsDone(before, [v(3, 'append'), v(4, 'compaction')], false)).toBe('Done before the failure: compaction committed (version 3 → 4); 2 old versions pruned. Not done: updating the indexes.')
  })

  it('any other "not implemented" from Lance is not said to be a limit of directory catalogs', () => {
    const e = fromLanceError(new Error('not implemented: something Lance lacks'), { table: { namespace: [], name: 't' } })
    expect(e.code).toBe('unsupported')
    expect(e.message).toBe('Lance cannot do this on table t: not implemented: something Lance lacks')
  })
})
