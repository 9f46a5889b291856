/**
 * "Save & connect" (`connections/saved/connect`) through the service, against our REST server on loopback:
 * it saves only once the server has answered; a wrong key saves nothing and never changes what is saved.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ConnectionInfo, SavedConnectionView } from '../../../src/contract'
import { ConnectionStore, MemoryConnectionRecords, MemorySecretStore } from '../../../src/core/connections'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { KEY, serveTemp } from '../../server/support'

type Connected = { view: SavedConnectionView; connection: ConnectionInfo }

describe('Save & connect', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  let service: CatalogService
  let store: ConnectionStore
  beforeAll(async () => {
    server = await serveTemp()
  })
  afterAll(async () => {
    await server?.close()
  })
  const fresh = () => {
    store = new ConnectionStore(new MemoryConnectionRecords(), new MemorySecretStore())
    service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore(), connections: store })
  }
  afterEach(async () => {
    await service?.closeAll()
  })
  const draft = (secret: string | undefined, id?: string) => ({ ...(id ? { id } : {}), name: 'Team', endpoint: server.url, auth: { kind: 'api-key' as const, ...(secret === undefined ? {} : { secret }) } })

  it('a wrong key saves nothing and opens nothing', async () => {
    fresh()
    const result = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: draft('wrong-key-31415926') })
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthenticated' } })
    expect(JSON.stringify(result)).not.toContain('wrong-key-31415926')
    expect(await store.list()).toEqual([])
    expect(await service.dispatch('connections/list', {})).toEqual({ ok: true, value: [] })
  })

  it('the right key saves the connection and opens it as a root', async () => {
    fresh()
    const result = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: draft(KEY) })
    expect(result.ok).toBe(true)
    const { view, connection } = (result as { value: Connected }).value
    expect(view).toMatchObject({ name: 'Team', endpoint: server.url, auth: { kind: 'api-key', saved: true } })
    expect(connection).toMatchObject({ kind: 'rest', label: 'Team', savedId: view.id })
    expect(await store.list()).toEqual([view])
    expect(await service.dispatch('connections/list', {})).toMatchObject({ ok: true, value: [connection] })
    expect(await service.dispatch('namespaces/list', { connectionId: connection.id, namespace: [] })).toMatchObject({ ok: true })
  })

  it('a wrong key typed over a saved connection leaves it exactly as it was', async () => {
    fresh()
    const saved = await store.save(draft(KEY))
    const before = { list: await store.list(), properties: await store.properties(saved.id) }
    const result = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: { ...draft('wrong-key-27182818', saved.id), name: 'Renamed' } })
    expect(result).toMatchObject({ ok: false, error: { code: 'unauthenticated' } })
    expect(await store.list()).toEqual(before.list)
    expect(await store.properties(saved.id)).toEqual(before.properties)
    // The saved key still works; leaving the secret out of the draft means "keep the saved one".
    const again = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: { ...draft(undefined, saved.id), name: 'Renamed' } })
    expect(again.ok).toBe(true)
    expect((await store.list())[0]).toMatchObject({ id: saved.id, name: 'Renamed', auth: { saved: true } })
  })

  it('an unreachable server saves nothing', async () => {
    fresh()
    const result = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: { ...draft(KEY), endpoint: 'http://127.0.0.1:1' } })
    expect(result.ok).toBe(false)
    expect(await store.list()).toEqual([])
  })
})
