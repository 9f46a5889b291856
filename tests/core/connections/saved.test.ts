/**
 * Saved connections as one method family (`connections/saved/*`) with a `kind`: every method takes both kinds
 * (a REST server on loopback, a `file://` catalog) and refuses an unknown kind in words; records files written
 * in the format of the two stores (one file per kind) still load, secrets still come from the secret store.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, Result, SavedView } from '../../../src/contract'
import { ConnectionStore, JsonFileConnectionRecords, MemorySecretStore } from '../../../src/core/connections'
import { secretKey } from '../../../src/core/connections/model'
import { ObjectStoreConnectionStore, type SavedObjectStore } from '../../../src/core/connections/objectStoreStore'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { KEY, serveTemp } from '../../server/support'

const METHODS = ['list', 'save', 'delete', 'open', 'connect', 'test'] as const

describe('connections/saved/* with a kind', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  let dir: string
  let uri: string
  let service: CatalogService
  let secrets: MemorySecretStore
  beforeAll(async () => {
    server = await serveTemp()
    dir = await makeTempDir('lcb-saved-kinds-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['a']], tables: [{ namespace: ['a'], name: 't', rows: 3 }] })
    uri = pathToFileURL(root).href
  })
  afterAll(async () => {
    await server?.close()
    await removeDir(dir)
  })
  afterEach(async () => {
    await service?.closeAll()
  })
  /** A service whose two stores write the records files the desktop app writes (`connections.json` and its object-store twin). */
  const fresh = (folder: string) => {
    secrets = new MemorySecretStore()
    service = new CatalogService({
      host: 'harness',
      version: '0.0.0-test',
      recents: new MemoryRecentsStore(),
      connections: new ConnectionStore(new JsonFileConnectionRecords(join(folder, 'connections.json')), secrets),
      objectStoreConnections: new ObjectStoreConnectionStore(new JsonFileConnectionRecords<SavedObjectStore>(join(folder, 'object-store-connections.json')), secrets),
    })
  }
  const call = async <T>(method: string, input: unknown): Promise<T> => {
    const result = (await service.dispatch(method, input)) as Result<T>
    if (!result.ok) throw Object.assign(new Error(result.error.message), { data: result.error })
    return result.value
  }
  const rest = { name: 'Team', endpoint: '', auth: { kind: 'api-key' as const, secret: KEY } }

  it('every method takes both kinds: save, list, test, connect, open, delete', async () => {
    fresh(join(dir, 'both'))
    const restDraft = { ...rest, endpoint: server.url }
    const storeDraft = { name: 'Local', uri }
    const restView = await call<SavedView>('connections/saved/save', { kind: 'rest', draft: restDraft })
    const storeView = await call<SavedView>('connections/saved/save', { kind: 'object-store', draft: storeDraft })
    expect([restView.kind, storeView.kind]).toEqual(['rest', 'object-store'])
    expect((await call<SavedView[]>('connections/saved/list', {})).map((v) => [v.kind, v.name])).toEqual([
      ['rest', 'Team'],
      ['object-store', 'Local'],
    ])
    expect(await call('connections/saved/test', { kind: 'rest', id: restView.id, write: false })).toMatchObject({ ok: true })
    expect(await call('connections/saved/test', { kind: 'object-store', id: storeView.id })).toMatchObject({ namespaces: 1, tables: 0 })
    const opened = await call<ConnectionInfo>('connections/saved/open', { kind: 'rest', id: restView.id })
    expect(opened).toMatchObject({ kind: 'rest', label: 'Team', savedId: restView.id })
    const { connection } = await call<{ connection: ConnectionInfo }>('connections/saved/connect', { kind: 'object-store', draft: { ...storeDraft, id: storeView.id } })
    expect(connection).toMatchObject({ kind: 'dir', label: 'Local', savedId: storeView.id })
    const again = await call<{ view: SavedView; connection: ConnectionInfo }>('connections/saved/connect', { kind: 'rest', draft: { ...restDraft, id: restView.id } })
    expect(again.connection.id).toBe(opened.id)
    expect(await call<ConnectionInfo>('connections/saved/open', { kind: 'object-store', id: storeView.id })).toMatchObject({ id: connection.id })
    await call('connections/saved/delete', { kind: 'rest', id: restView.id })
    await call('connections/saved/delete', { kind: 'object-store', id: storeView.id })
    expect(await call('connections/saved/list', {})).toEqual([])
    expect(secrets.entries.size).toBe(0)
  })

  it('refuses an unknown kind, or none, with invalid_input, before anything is saved', async () => {
    fresh(join(dir, 'unknown'))
    const inputs: Record<(typeof METHODS)[number], Record<string, unknown> | null> = {
      list: null,
      save: { draft: { ...rest, endpoint: server.url } },
      delete: { id: 'abc' },
      open: { id: 'abc' },
      connect: { draft: { ...rest, endpoint: server.url } },
      test: { draft: { ...rest, endpoint: server.url }, write: false },
    }
    for (const method of METHODS) {
      const input = inputs[method]
      if (!input) continue
      for (const kind of ['ftp', undefined]) {
        const result = await service.dispatch(`connections/saved/${method}`, kind ? { ...input, kind } : input)
        expect(result, `${method} ${kind}`).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('kind') } })
      }
    }
    expect(await call('connections/saved/list', {})).toEqual([])
    expect(await call('connections/list', {})).toEqual([])
  })

  it('loads the records files as the two stores wrote them before, secrets from the secret store', async () => {
    const folder = join(dir, 'before')
    await mkdir(folder, { recursive: true })
    const restRecord = { id: 'r1', name: 'Old server', endpoint: server.url, auth: 'api-key', headers: [], createdAt: 1, updatedAt: 2 }
    const storeRecord = { id: 's1', name: 'Old lake', uri, options: {}, secrets: [], createdAt: 3, updatedAt: 4 }
    await writeFile(join(folder, 'connections.json'), JSON.stringify({ version: 1, connections: [restRecord] }, null, 2))
    await writeFile(join(folder, 'object-store-connections.json'), JSON.stringify({ version: 1, connections: [storeRecord] }, null, 2))
    fresh(folder)
    await secrets.set(secretKey('r1', 'auth'), KEY)
    expect(await call('connections/saved/list', {})).toEqual([
      { kind: 'rest', id: 'r1', name: 'Old server', endpoint: server.url, auth: { kind: 'api-key', saved: true }, headers: [], createdAt: 1, updatedAt: 2 },
      { kind: 'object-store', id: 's1', name: 'Old lake', uri, options: {}, secrets: [], createdAt: 3, updatedAt: 4 },
    ])
    expect(await call('connections/saved/open', { kind: 'rest', id: 'r1' })).toMatchObject({ kind: 'rest', savedId: 'r1' })
    expect(await call('connections/saved/open', { kind: 'object-store', id: 's1' })).toMatchObject({ kind: 'dir', savedId: 's1' })
    // A save writes the same shape back: no `kind` in the records, no secret in either file.
    await call('connections/saved/save', { kind: 'rest', draft: { id: 'r1', name: 'Renamed', endpoint: server.url, auth: { kind: 'api-key' } } })
    const written = JSON.parse(await readFile(join(folder, 'connections.json'), 'utf8')) as { version: number; connections: Record<string, unknown>[] }
    expect(written.version).toBe(1)
    expect(written.connections[0]).toEqual({ ...restRecord, name: 'Renamed', updatedAt: expect.any(Number) })
    expect(JSON.stringify(written)).not.toContain(KEY)
  })
})
