import '../../../helpers/no-cloud'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError, type AppErrorData, type ConnectionInfo, type Result } from '../../../../src/contract'
import { isEmptyRootError } from '../../../../src/contract/connections'
import { createCatalogHere } from '../../../../src/core/namespace/dir/createCatalog'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../../../src/core/service'
import { startAzurite, type Azurite } from '../../../helpers/azurite'
import { blobsUnder } from '../../../helpers/azurite-blobs'
import { lifecycleRows } from '../../lifecycle/contract'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }
  throw new Error('expected the call to fail')
}

/** "Create a catalog here": only an empty root becomes a catalog (a `__manifest` written by lancedb); the rest is refused unwritten. */
describe('create a catalog here', () => {
  let dir: string
  let azurite: Azurite
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lcb-create-catalog-'))
    azurite = await startAzurite()
  })
  afterAll(async () => {
    await azurite?.stop()
    await rm(dir, { recursive: true, force: true })
  })

  it('an empty directory: opening says it is empty; creating writes only __manifest, and a first table can be made', async () => {
    const root = join(dir, 'fresh')
    await mkdir(root)
    const service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
    try {
      const opened = await service.dispatch('connections/openDirectory', { path: root })
      expect(opened.ok ? null : isEmptyRootError(opened.error)).toBe(true)
      expect(await readdir(root)).toEqual([])
      const info = value<ConnectionInfo>(await service.dispatch('connections/createCatalog', { path: root }))
      expect(info.location).toBe(root)
      expect(await readdir(root)).toEqual(['__manifest'])
      value(await service.dispatch('namespaces/create', { connectionId: info.id, namespace: ['lab'] }))
    } finally {
      await service.closeAll()
    }
    const client = await DirNamespaceClient.open(root)
    try {
      await client.createTable({ namespace: [], name: 'first' }, lifecycleRows(3))
      expect((await client.listTables([])).items).toEqual(['first'])
      expect((await client.listNamespaces([])).items).toEqual(['lab'])
    } finally {
      await client.close()
    }
  })

  it('refuses, without writing, a directory that holds anything, a catalog, and a missing path', async () => {
    const busy = join(dir, 'busy')
    await mkdir(busy)
    await writeFile(join(busy, 'notes.txt'), 'mine')
    expect((await failure(createCatalogHere(busy))).code).toBe('not_a_catalog')
    expect(await readdir(busy)).toEqual(['notes.txt'])

    const catalog = join(dir, 'catalog')
    await mkdir(catalog)
    await (await createCatalogHere(catalog)).close()
    const again = await failure(createCatalogHere(catalog))
    expect(again.code).toBe('already_exists')
    expect(again.message).toBe(`${catalog} already holds a Lance catalog`)

    const missing = join(dir, 'missing')
    expect((await failure(createCatalogHere(missing))).code).toBe('not_found')
    await expect(readdir(missing)).rejects.toThrow()
  })

  it('an empty prefix on object storage (Azurite): refused on open, made a catalog on create, then refused as already a catalog', async () => {
    const root = await azurite.freshRoot('team')
    const options = azurite.storageOptions
    const empty = await failure(DirNamespaceClient.open(root, { storageOptions: options }))
    expect(isEmptyRootError(empty.toData())).toBe(true)
    expect(await blobsUnder(azurite, root)).toEqual([])
    const client = await createCatalogHere(root, { storageOptions: options })
    try {
      await client.createTable({ namespace: [], name: 'first' }, lifecycleRows(3))
      expect((await client.listTables([])).items).toEqual(['first'])
    } finally {
      await client.close()
    }
    const blobs = await blobsUnder(azurite, root)
    expect(blobs.some((name) => name.includes('__manifest/'))).toBe(true)
    // Now a catalog: creating again is refused.
    expect((await failure(createCatalogHere(root, { storageOptions: options }))).code).toBe('already_exists')
  })

  it('an empty object-store root opened at start (harness --root with storage options) is created with those options', async () => {
    const root = await azurite.freshRoot('start')
    const service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
    try {
      await service.openInitial(root, undefined, azurite.storageOptions).catch(() => undefined)
      const info = value<{ initialError?: AppErrorData }>(await service.dispatch('app/info', {}))
      expect(isEmptyRootError(info.initialError)).toBe(true)
      const created = value<ConnectionInfo>(await service.dispatch('connections/createCatalog', { path: root }))
      expect(created.location).toBe(root)
      expect((await blobsUnder(azurite, root)).some((name) => name.includes('__manifest/'))).toBe(true)
    } finally {
      await service.closeAll()
    }
  })
})
