import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { connectNamespace as lanceConnectNamespace } from '@lancedb/lancedb'
import { Field, Float64, Int64, Schema, Utf8, tableFromIPC, type Table } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fileBuffersToStream } from '../../../../src/core/arrow'
import { listAll } from '../../../../src/core/namespace/client'
import { connectNamespace } from '../../../../src/core/namespace/connect'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { buildCatalog, buildNestedCatalog, makeTempDir, removeDir, sampleTable } from '../../../helpers/catalog'
import { appError } from '../../../helpers/errors'


const bigints = (_key: string, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)

function ids(table: Table): bigint[] {
  return [...table.getChild('id')!].map((v) => v as bigint)
}

const GAMMA = { namespace: ['a', 'b', 'c'], name: 'gamma' }
const START = 9_007_199_254_740_990n // 2^53 - 2: ids cross 2^53 inside the table

describe('dir client on a nested catalog', () => {
  let root: string
  let client: DirNamespaceClient

  beforeAll(async () => {
    root = await buildNestedCatalog(join(await makeTempDir(), 'catalog'))
    client = await DirNamespaceClient.open(root)
  })
  afterAll(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  it('lists namespaces and tables at every depth', async () => {
    expect(await client.listNamespaces([])).toEqual({ items: ['a', 'z'] })
    expect(await client.listTables([])).toEqual({ items: ['top'] })
    expect(await client.listNamespaces(['a'])).toEqual({ items: ['b'] })
    expect(await client.listTables(['a'])).toEqual({ items: ['alpha'] })
    expect(await client.listNamespaces(['a', 'b'])).toEqual({ items: ['c'] })
    expect(await client.listTables(['a', 'b'])).toEqual({ items: ['beta'] })
    expect(await client.listNamespaces(['a', 'b', 'c'])).toEqual({ items: [] })
    expect(await client.listTables(['a', 'b', 'c'])).toEqual({ items: ['gamma'] })
    expect(await client.listTables(['z'])).toEqual({ items: [] })
  })

  it('describes a table: row count, version, readable schema, vector dimension', async () => {
    const d = await client.describeTable(GAMMA)
    expect(d).toMatchObject({ name: 'gamma', namespace: ['a', 'b', 'c'], rowCount: 250, version: 1 })
    expect(d.fields).toEqual([
      { name: 'id', type: 'Int64', nullable: false },
      { name: 'label', type: 'Utf8', nullable: false },
      { name: 'score', type: 'Float64', nullable: false },
      { name: 'note', type: 'Utf8', nullable: true },
      { name: 'vector', type: 'FixedSizeList<Float32>[8]', nullable: false, vectorDimension: 8 },
    ])
    expect(d.schema.fields.map((f) => f.name)).toEqual(['id', 'label', 'score', 'note', 'vector'])
  })

  it('reads pages at the start, the middle and the end as Arrow IPC stream bytes', async () => {
    const first = await client.readPage(GAMMA, { offset: 0, limit: 100 })
    expect(first).toBeInstanceOf(Uint8Array)
    // IPC *stream* format starts with a continuation marker, not the "ARROW1" magic of the file format.
    expect(Buffer.from(first.subarray(0, 6)).toString('latin1')).not.toBe('ARROW1')
    const start = tableFromIPC(first)
    expect(start.numRows).toBe(100)
    expect(ids(start)[0]).toBe(START)
    const middle = tableFromIPC(await client.readPage(GAMMA, { offset: 120, limit: 10 }))
    expect(ids(middle)).toEqual(Array.from({ length: 10 }, (_, i) => START + 120n + BigInt(i)))
    const end = tableFromIPC(await client.readPage(GAMMA, { offset: 200, limit: 100 }))
    expect(end.numRows).toBe(50)
    expect(ids(end).at(-1)).toBe(START + 249n)
  })

  it('answers an empty page that keeps the schema past the end', async () => {
    for (const offset of [250, 10_000]) {
      const page = tableFromIPC(await client.readPage(GAMMA, { offset, limit: 10 }))
      expect(page.numRows).toBe(0)
      expect(page.schema.fields.map((f) => f.name)).toEqual(['id', 'label', 'score', 'note', 'vector'])
    }
    const projected = tableFromIPC(await client.readPage(GAMMA, { offset: 999, limit: 10, columns: ['note', 'id'] }))
    expect(projected.schema.fields.map((f) => f.name)).toEqual(['note', 'id'])
  })

  it('keeps int64 above 2^53 exact as BigInt', async () => {
    const page = tableFromIPC(await client.readPage(GAMMA, { offset: 0, limit: 5 }))
    const values = ids(page)
    expect(values[3]).toBe(9_007_199_254_740_993n) // 2^53 + 1 has no exact double
    expect(typeof values[3]).toBe('bigint')
    expect(values[3]!.toString()).toBe('9007199254740993')
  })

  it('returns vectors as float32 values and nulls as nulls', async () => {
    const page = tableFromIPC(await client.readPage(GAMMA, { offset: 10, limit: 5 }))
    const vector = page.getChild('vector')!.get(2)!
    expect(vector.toArray()).toBeInstanceOf(Float32Array)
    expect([...vector.toArray()]).toEqual(Array.from({ length: 8 }, (_, k) => Math.fround(12 + k / 1000)))
    const notes = [...page.getChild('note')!]
    expect(notes).toEqual([null, 'note 11', 'note 12', 'note 13', 'note 14'])
    expect(page.getChild('note')!.nullCount).toBe(1)
  })

  it('projects columns in the order asked, and refuses an unknown column', async () => {
    const page = tableFromIPC(await client.readPage(GAMMA, { offset: 5, limit: 3, columns: ['score', 'id'] }))
    expect(page.schema.fields.map((f) => f.name)).toEqual(['score', 'id'])
    expect([...page.getChild('score')!]).toEqual([2.5, 3, 3.5])
    const error = await appError(client.readPage(GAMMA, { offset: 0, limit: 3, columns: ['nope'] }))
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain('nope')
  })

  it('refuses invalid ids before touching the disk', async () => {
    for (const promise of [
      client.listNamespaces(['a', '..']),
      client.listTables(['../etc']),
      client.describeTable({ namespace: ['a'], name: 'x/y' }),
      client.readPage({ namespace: ['.'], name: 'gamma' }, { offset: 0, limit: 1 }),
      client.createNamespace(['a', 'bad name']),
    ]) {
      expect((await appError(promise)).code).toBe('invalid_input')
    }
    expect((await appError(client.readPage(GAMMA, { offset: -1, limit: 1 }))).code).toBe('invalid_input')
    expect(existsSync(join(root, '..', 'etc'))).toBe(false)
  })

  it('reports a missing table or namespace as not_found', async () => {
    const table = await appError(client.describeTable({ namespace: ['a'], name: 'missing' }))
    expect(table.code).toBe('not_found')
    expect(table.message).toBe('Table a/missing does not exist')
    expect((await appError(client.readPage({ namespace: ['a'], name: 'missing' }, { offset: 0, limit: 1 }))).code).toBe('not_found')
    expect((await appError(client.describeNamespace(['nope']))).code).toBe('not_found')
  })
})

describe('dir client listing pages', () => {
  let root: string
  let client: DirNamespaceClient
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`)

  beforeAll(async () => {
    root = join(await makeTempDir(), 'catalog')
    await buildCatalog(root, {
      namespaces: [['big'], ...names(23, 'ns').map((n) => ['big', n]), ['even'], ...names(10, 'e').map((n) => ['even', n])],
      tables: names(23, 't').map((name) => ({ namespace: ['big'], name, rows: 1, sample: { dimension: 0 } })),
    })
    client = await DirNamespaceClient.open(root)
  })
  afterAll(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  it('returns every child of a namespace larger than one page by following tokens', async () => {
    const pages: string[][] = []
    let pageToken: string | undefined
    do {
      const page = await client.listNamespaces(['big'], { limit: 5, pageToken })
      pages.push(page.items)
      pageToken = page.pageToken
    } while (pageToken)
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 3])
    expect(pages.flat()).toEqual(names(23, 'ns'))
    expect(await listAll((o) => client.listTables(['big'], o), { limit: 4 })).toEqual(names(23, 't'))
  })

  it('never silently truncates: more than 10 tables come back without a limit (lancedb#3914)', async () => {
    const page = await client.listTables(['big'])
    expect(page.items).toEqual(names(23, 't'))
    expect(page.pageToken).toBeUndefined()
  })

  it('gives a token only when more follow (no empty last page)', async () => {
    const first = await client.listNamespaces(['even'], { limit: 5 })
    expect(first.items).toEqual(names(5, 'e'))
    expect(first.pageToken).toBeDefined()
    const second = await client.listNamespaces(['even'], { limit: 5, pageToken: first.pageToken })
    expect(second.items).toEqual(names(10, 'e').slice(5))
    expect(second.pageToken).toBeUndefined()
    const t = await client.listTables(['big'], { limit: 23 })
    expect(t.items).toHaveLength(23)
    expect(t.pageToken).toBeUndefined()
  })
})

describe('dir client writes', () => {
  let root: string
  let client: DirNamespaceClient

  beforeAll(async () => {
    root = join(await makeTempDir(), 'catalog')
    client = await DirNamespaceClient.open(root, { create: true })
    await client.createNamespace(['w'])
  })
  afterAll(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  it('creates tables with modes create, overwrite and exist_ok', async () => {
    const id = { namespace: ['w'], name: 'modes' }
    expect((await client.createTable(id, sampleTable(3))).rowCount).toBe(3)
    const again = await appError(client.createTable(id, sampleTable(1)))
    expect(again.code).toBe('already_exists')
    expect(again.message).toBe('The name "modes" is taken by a table in namespace w')
    const kept = await client.createTable(id, sampleTable(7), { mode: 'exist_ok' })
    expect(kept.rowCount).toBe(3)
    const replaced = await client.createTable(id, sampleTable(5, { start: 100n }), { mode: 'overwrite' })
    expect(replaced.rowCount).toBe(5)
    expect(replaced.version).toBeGreaterThan(1)
    expect(ids(tableFromIPC(await client.readPage(id, { offset: 0, limit: 1 })))).toEqual([100n])
  })

  it('creates an empty table from a schema and reads it as an empty page', async () => {
    const id = { namespace: ['w'], name: 'empty' }
    const schema = new Schema([new Field('id', new Int64(), false), new Field('name', new Utf8(), true), new Field('x', new Float64(), true)])
    const d = await client.createEmptyTable(id, schema)
    expect(d.rowCount).toBe(0)
    expect(d.fields.map((f) => f.type)).toEqual(['Int64', 'Utf8', 'Float64'])
    const page = tableFromIPC(await client.readPage(id, { offset: 0, limit: 50 }))
    expect(page.numRows).toBe(0)
    expect(page.schema.fields.map((f) => f.name)).toEqual(['id', 'name', 'x'])
  })

  it('refuses to create a table in a namespace that does not exist (lancedb would create it anyway)', async () => {
    const error = await appError(client.createTable({ namespace: ['ghost'], name: 't' }, sampleTable(1)))
    expect(error.code).toBe('not_found')
    expect(error.message).toBe('Namespace ghost does not exist')
    // Nothing was made: the namespace is still missing (listing it is "not found", not an empty list).
    expect((await appError(client.listTables(['ghost']))).code).toBe('not_found')
  })

  it('appends rows, returns the new version, and restores an older version', async () => {
    const id = { namespace: ['w'], name: 'append' }
    const created = await client.createTable(id, sampleTable(4))
    const version = await client.appendRows(id, sampleTable(6, { start: 4n }))
    expect(version).toBe(created.version + 1)
    const after = await client.describeTable(id)
    expect(after.rowCount).toBe(10)
    expect(ids(tableFromIPC(await client.readPage(id, { offset: 0, limit: 100 })))).toEqual(Array.from({ length: 10 }, (_, i) => BigInt(i)))
    await client.restoreVersion(id, created.version)
    const restored = await client.describeTable(id)
    expect(restored.rowCount).toBe(4)
    expect(tableFromIPC(await client.readPage(id, { offset: 0, limit: 100 })).numRows).toBe(4)
  })

  it('pages that span several fragments hold the same rows as lancedb answers', async () => {
    const id = { namespace: ['w'], name: 'fragments' }
    await client.createTable(id, sampleTable(7))
    for (const start of [7n, 14n, 21n]) await client.appendRows(id, sampleTable(7, { start }))
    const bare = await (await lanceConnectNamespace('dir', { root })).openTable('fragments', ['w'])
    for (const [offset, limit, columns] of [[0, 28], [5, 10], [6, 15, ['vector', 'id']], [20, 100], [27, 1]] as const) {
      const ours = tableFromIPC(await client.readPage(id, { offset, limit, columns: columns ? [...columns] : undefined }))
      let query = bare.query().offset(offset).limit(limit)
      if (columns) query = query.select([...columns])
      const theirs = await query.toArrow()
      expect(ours.numRows).toBe(theirs.numRows)
      expect(ours.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(theirs.schema.fields.map((f) => `${f.name}:${f.type}`))
      expect(JSON.stringify(ours.toArray(), bigints)).toBe(JSON.stringify(theirs.toArray(), bigints))
    }
    // The fast path of readPage joins lancedb's native buffers without decoding them; it must apply to them.
    const native = bare.query().offset(5).limit(10) as unknown as { nativeExecute(): Promise<{ next(): Promise<Uint8Array | null> }> }
    const iterator = await native.nativeExecute()
    const buffers: Uint8Array[] = []
    for (let b = await iterator.next(); b; b = await iterator.next()) buffers.push(b)
    expect(buffers.length).toBeGreaterThan(1)
    expect(fileBuffersToStream(buffers)).not.toBeNull()
    bare.close()
  })

  it('drops a table; it is then not found', async () => {
    const id = { namespace: ['w'], name: 'dropme' }
    await client.createTable(id, sampleTable(2))
    await client.readPage(id, { offset: 0, limit: 1 }) // cached handle must not outlive the drop
    await client.dropTable(id)
    expect((await client.listTables(['w'])).items).not.toContain('dropme')
    expect((await appError(client.describeTable(id))).code).toBe('not_found')
    expect((await appError(client.readPage(id, { offset: 0, limit: 1 }))).code).toBe('not_found')
    expect((await appError(client.dropTable(id))).code).toBe('not_found')
  })

  it('renames a table, and refuses a missing table or a bad name', async () => {
    const id = { namespace: ['w'], name: 'named' }
    await client.createTable(id, sampleTable(1))
    await client.renameTable(id, 'renamed')
    expect((await client.describeTable({ namespace: ['w'], name: 'renamed' })).rowCount).toBe(1)
    expect((await appError(client.renameTable({ namespace: ['w'], name: 'missing' }, 'x'))).code).toBe('not_found')
    expect((await appError(client.renameTable({ namespace: ['w'], name: 'renamed' }, 'bad/name'))).code).toBe('invalid_input')
  })

  it('creates, describes and drops namespaces', async () => {
    await client.createNamespace(['n1'], { properties: { owner: 'tests' } })
    expect(await client.describeNamespace(['n1'])).toEqual({ properties: { owner: 'tests' } })
    expect((await appError(client.createNamespace(['n1']))).code).toBe('already_exists')
    await client.createNamespace(['n1'], { mode: 'exist_ok' })
    expect((await appError(client.createNamespace(['nope', 'child']))).code).toBe('not_found')
    await client.createNamespace(['n1', 'inner'])
    await client.createTable({ namespace: ['n1', 'inner'], name: 't' }, sampleTable(1))
    const notEmpty = await appError(client.dropNamespace(['n1']))
    expect(notEmpty.code).toBe('not_empty')
    await client.dropNamespace(['n1'], { behavior: 'cascade' })
    expect((await client.listNamespaces([])).items).not.toContain('n1')
    expect((await appError(client.describeNamespace(['n1']))).code).toBe('not_found')
    expect((await appError(client.dropNamespace(['n1']))).code).toBe('not_found')
  })
})

describe('connectNamespace factory', () => {
  it('opens a dir catalog, and refuses a missing property or an unknown implementation', async () => {
    const root = await buildNestedCatalog(join(await makeTempDir(), 'catalog'))
    try {
      const client = await connectNamespace('dir', { root })
      expect(client.implementation).toBe('dir')
      expect((await client.listNamespaces([])).items).toEqual(['a', 'z'])
      await client.close()
      expect((await appError(connectNamespace('dir', {}))).message).toContain('"root"')
      expect((await appError(connectNamespace('nosuch', { root }))).message).toContain('Unknown namespace implementation "nosuch"')
    } finally {
      await removeDir(join(root, '..'))
    }
  })
})
