import '../../../helpers/no-cloud'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/contract'
import { openSource, writeSource } from '../../../../src/core/import'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { storageProperties } from '../../../../src/core/namespace/objectStore'
import { stagingName } from '../../../../src/core/namespace/dir/staging'
import { startAzurite, type Azurite } from '../../../helpers/azurite'
import { blobsUnder, deleteBlob } from '../../../helpers/azurite-blobs'

/**
 * Never write on read, on object storage: lancedb writes `<root>/__manifest` at connect when it is missing, so
 * every open below counts the root's blobs (names and ETags) before and after.
 */
let azurite: Azurite
beforeAll(async () => {
  azurite = await startAzurite()
})
afterAll(async () => {
  await azurite?.stop()
})

const rows = (n: number) => lancedb.makeArrowTable(Array.from({ length: n }, (_, i) => ({ id: i, label: `row ${i}` })))

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error('expected the call to fail')
}

/** A catalog with a `__manifest`, a namespace and two tables, written once (with `create`). */
async function manifestCatalog(): Promise<string> {
  const root = await azurite.freshRoot('cat')
  const client = await DirNamespaceClient.open(root, { create: true, storageOptions: azurite.storageOptions })
  await client.createNamespace(['lab'])
  await client.createTable({ namespace: ['lab'], name: 'runs' }, rows(30) as unknown as arrow.Table)
  await client.createTable({ namespace: [], name: 'top' }, rows(3) as unknown as arrow.Table)
  await client.close()
  return root
}

describe('object-store catalogs never write on read', () => {
  it('refuses an empty prefix and writes nothing there', async () => {
    const root = await azurite.freshRoot('nothing-here')
    const error = await failure(DirNamespaceClient.open(root, { storageOptions: azurite.storageOptions }))
    expect(error.code).toBe('not_a_catalog')
    expect(error.message).toContain('is empty')
    expect(await blobsUnder(azurite, root)).toEqual([])
    // lancedb itself would have written a __manifest here (the trap this guards against):
    const db = await lancedb.connectNamespace('dir', { root, extraProperties: storageProperties(azurite.storageOptions) }, { storageOptions: azurite.storageOptions })
    db.close()
    expect((await blobsUnder(azurite, root)).some((b) => b.includes('/__manifest/'))).toBe(true)
  })

  it('opens a catalog without __manifest read-only: its root tables are browsable and no __manifest appears', async () => {
    const root = await azurite.freshRoot('bare')
    const options = azurite.storageOptions
    const db = await lancedb.connectNamespace('dir', { root, manifestEnabled: false, extraProperties: storageProperties(options) }, { storageOptions: options })
    await db.createTable('plain', rows(12), [], { storageOptions: options })
    db.close()
    const before = await blobsUnder(azurite, root)
    expect(before.some((b) => b.includes('/__manifest/'))).toBe(false)

    const client = await DirNamespaceClient.open(root, { storageOptions: options })
    expect(client.isObjectStore).toBe(true)
    expect(client.layout).toBe('tables-only')
    expect((await client.listNamespaces([])).items).toEqual([])
    expect((await client.listTables([])).items).toEqual(['plain'])
    expect((await client.describeTable({ namespace: [], name: 'plain' })).rowCount).toBe(12)
    const page = arrow.tableFromIPC(await client.readPage({ namespace: [], name: 'plain' }, { offset: 10, limit: 5 }))
    expect([...page.getChild('id')!].map(Number)).toEqual([10, 11])
    await client.close()
    expect(await blobsUnder(azurite, root)).toEqual(before)
  })

  it('browses a catalog with __manifest (namespaces, tables, pages, versions, indexes) without changing one blob', async () => {
    const root = await manifestCatalog()
    const before = await blobsUnder(azurite, root)
    const client = await DirNamespaceClient.open(root, { storageOptions: azurite.storageOptions })
    expect(client.layout).toBe('manifest')
    const runs = { namespace: ['lab'], name: 'runs' }
    expect((await client.listNamespaces([])).items).toEqual(['lab'])
    expect((await client.listTables([])).items).toEqual(['top'])
    expect((await client.listTables(['lab'])).items).toEqual(['runs'])
    expect((await client.describeNamespace(['lab'])).properties).toBeDefined()
    expect((await client.describeTable(runs, { indexes: true })).rowCount).toBe(30)
    const last = arrow.tableFromIPC(await client.readPage(runs, { offset: 25, limit: 200 }))
    expect(last.numRows).toBe(5)
    expect(await client.countRows(runs, { view: { filter: 'id >= 20' } })).toBe(10)
    expect((await client.listVersions(runs)).length).toBe(1)
    expect(await client.listIndexes(runs)).toEqual([])
    await client.close()
    expect(await blobsUnder(azurite, root)).toEqual(before)
  })

  it('answers unsupported, with the reason, for what needs a manifest edit, and leaves the catalog as it was', async () => {
    const root = await manifestCatalog()
    const client = await DirNamespaceClient.open(root, { storageOptions: azurite.storageOptions })
    const before = await blobsUnder(azurite, root)
    const runs = { namespace: ['lab'], name: 'runs' }
    const rename = await failure(client.renameTable(runs, 'renamed'))
    expect(rename.code).toBe('unsupported')
    expect(rename.message).toMatch(/Renaming tables is not supported on object storage/)
    // An import writes under a staging name and publishes it (a manifest edit): refused before it writes.
    const staged = await failure(client.createTable({ namespace: ['lab'], name: stagingName('fresh') }, rows(2) as unknown as arrow.Table))
    expect(staged.code).toBe('unsupported')
    expect(staged.message).toMatch(/Importing files/)
    expect((await failure(client.recordAppend(runs, 1))).code).toBe('unsupported')
    expect((await failure(client.replaceTable(runs, runs))).code).toBe('unsupported')
    expect((await failure(client.registerTable({ namespace: [], name: 'x' }, 'x.lance'))).code).toBe('unsupported')
    expect(await blobsUnder(azurite, root)).toEqual(before)
    // The UI disables the same operations, with the same reasons.
    const capabilities = client.capabilities()!
    expect(capabilities['table.rename']).toEqual({ supported: false, reason: rename.message })
    expect(capabilities['table.insert'].supported).toBe(false)
    expect(capabilities['table.create'].supported).toBe(true)
    expect(capabilities['table.drop'].supported).toBe(true)
    // One-commit writes work.
    await client.createNamespace(['more'])
    await client.createTable({ namespace: ['more'], name: 'direct' }, rows(4) as unknown as arrow.Table)
    await client.addColumns({ namespace: ['more'], name: 'direct' }, [{ name: 'twice', expression: 'id * 2' }])
    await client.dropTable({ namespace: ['more'], name: 'direct' })
    await client.dropNamespace(['more'])
    expect((await client.listNamespaces([])).items).toEqual(['lab'])
    await client.close()
  })

  it('an import of a file (create, overwrite, append) answers unsupported before it writes anything', async () => {
    const root = await manifestCatalog()
    const client = await DirNamespaceClient.open(root, { storageOptions: azurite.storageOptions })
    const dir = await mkdtemp(join(tmpdir(), 'lcb-objstore-import-'))
    try {
      const csv = join(dir, 'rows.csv')
      await writeFile(csv, 'id,label\n1,a\n2,b\n')
      // A table with the file's own columns, so the append is refused for object storage, not for its schema.
      const source = await openSource(csv, { inferRows: 10 })
      await client.createEmptyTable({ namespace: ['lab'], name: 'same' }, source.schema)
      await source.close()
      const before = await blobsUnder(azurite, root)
      for (const [mode, name] of [['create', 'fresh'], ['overwrite', 'same'], ['append', 'same']] as const) {
        const error = await failure(writeSource(client, { namespace: ['lab'], name }, await openSource(csv, { inferRows: 10 }), { mode, limits: { maxRows: 100, maxBytes: 1 << 20 } }))
        expect([mode, error.code]).toEqual([mode, 'unsupported'])
        expect(error.message).toMatch(/Importing files into a catalog on object storage is not supported yet/)
      }
      expect(await blobsUnder(azurite, root)).toEqual(before)
    } finally {
      await client.close()
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('a table whose files were lost is listed, described as damaged in words, and can be dropped', async () => {
    const root = await manifestCatalog()
    const client = await DirNamespaceClient.open(root, { storageOptions: azurite.storageOptions })
    for (const blob of await blobsUnder(azurite, root)) {
      const name = blob.split(' ')[0]!
      if (/_lab\$runs\/_versions\/|\/top\.lance\/_versions\//.test(name)) await deleteBlob(azurite, root, name)
    }
    for (const id of [{ namespace: ['lab'], name: 'runs' }, { namespace: [], name: 'top' }]) {
      expect((await client.listTables(id.namespace)).items).toContain(id.name)
      const damaged = await failure(client.describeTable(id))
      expect([damaged.code, damaged.message]).toEqual(['corrupt', `Table ${[...id.namespace, id.name].join('/')} is damaged: its files are missing`])
      await client.dropTable(id)
      expect((await client.listTables(id.namespace)).items).not.toContain(id.name)
    }
    await client.close()
  })

  it('treats a file:// URI as the local directory it names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-file-uri-'))
    try {
      const created = await DirNamespaceClient.open(pathToFileURL(dir).href, { create: true })
      expect(created.isObjectStore).toBe(false)
      expect(created.capabilities()).toBeNull()
      await created.createTable({ namespace: [], name: 'local' }, rows(2) as unknown as arrow.Table)
      await created.close()
      expect(await readdir(dir)).toContain('local.lance')
      const reopened = await DirNamespaceClient.open(pathToFileURL(dir).href)
      expect(reopened.root).toBe(dir)
      expect((await reopened.listTables([])).items).toEqual(['local'])
      await reopened.close()
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
