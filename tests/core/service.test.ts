import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, Page, Result, TableInfo } from '../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'
import { buildNestedCatalog, makeTempDir, removeDir } from '../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function error(result: Result<unknown>) {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`)
  return result.error
}

describe('CatalogService.dispatch', () => {
  let base: string
  let root: string
  let service: CatalogService
  let recents: MemoryRecentsStore

  beforeAll(async () => {
    base = await makeTempDir()
    root = await buildNestedCatalog(join(base, 'catalog'))
    recents = new MemoryRecentsStore()
    service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents })
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  it('refuses an unknown method', async () => {
    const e = error(await service.dispatch('tables/delete-everything', {}))
    expect(e.code).toBe('invalid_input')
    expect(e.message).toBe('Unknown method "tables/delete-everything"')
    expect(error(await service.dispatch(42, {})).code).toBe('invalid_input')
  })

  it('answers bad input with `path: message` for each issue', async () => {
    const e = error(await service.dispatch('tables/page', { connectionId: 'c1', namespace: ['a', '..'], name: '', offset: -1, limit: 10 }))
    expect(e.code).toBe('invalid_input')
    expect(e.message).toContain('namespace.1: ".." is not allowed as a name')
    expect(e.message).toContain('name: must not be empty')
    expect(e.message).toContain('offset: ')
    const missing = error(await service.dispatch('connections/openDirectory', {}))
    expect(missing.message).toMatch(/path: /)
  })

  it('opens a directory, lists, describes and pages through it', async () => {
    const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    expect(connection).toMatchObject({ kind: 'dir', label: 'catalog', location: root })
    expect((await recents.list()).map((r) => r.path)).toEqual([root])
    const ref = { connectionId: connection.id }

    expect(value<Page<string>>(await service.dispatch('namespaces/list', { ...ref, namespace: [] })).items).toEqual(['a', 'z'])
    const first = value<Page<string>>(await service.dispatch('namespaces/list', { ...ref, namespace: [], limit: 1 }))
    expect(first).toEqual({ items: ['a'], pageToken: 'a' })
    expect(value<Page<string>>(await service.dispatch('namespaces/list', { ...ref, namespace: [], limit: 1, pageToken: first.pageToken }))).toEqual({
      items: ['z'],
    })
    expect(value<Page<string>>(await service.dispatch('tables/list', { ...ref, namespace: ['a', 'b', 'c'] })).items).toEqual(['gamma'])

    const table = { ...ref, namespace: ['a', 'b', 'c'], name: 'gamma' }
    const info = value<TableInfo>(await service.dispatch('tables/describe', table))
    expect(info).toMatchObject({ name: 'gamma', namespace: ['a', 'b', 'c'], rowCount: 250, version: 1 })
    expect(info.schema.find((f) => f.name === 'vector')).toMatchObject({ type: 'FixedSizeList<Float32>[8]', vectorDimension: 8 })

    const seen: bigint[] = []
    for (let offset = 0; offset < info.rowCount; offset += 100) {
      const bytes = value<Uint8Array>(await service.dispatch('tables/page', { ...table, offset, limit: 100 }))
      expect(bytes).toBeInstanceOf(Uint8Array)
      seen.push(...[...tableFromIPC(bytes).getChild('id')!].map((v) => v as bigint))
    }
    expect(seen).toHaveLength(250)
    expect(seen[249]).toBe(9_007_199_254_740_990n + 249n)
  })

  it('reports a missing directory as data, and keeps working after it', async () => {
    const e = error(await service.dispatch('connections/openDirectory', { path: join(base, 'nope') }))
    expect(e).toMatchObject({ code: 'not_found', hint: 'Choose another directory' })
    expect(e.message).toContain('does not exist')
    const empty = error(await service.dispatch('tables/describe', { connectionId: 'c999', namespace: [], name: 'top' }))
    expect(empty.code).toBe('not_found')
    const list = value<ConnectionInfo[]>(await service.dispatch('connections/list', {}))
    expect(list.map((c) => c.location)).toEqual([root])
  })
})
