import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ConnectionStore,
  JsonFileConnectionRecords,
  MASK,
  MemoryConnectionRecords,
  MemorySecretStore,
  redactHeaders,
  redactText,
} from '../../../src/core/connections'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/rest'
import { KEY, serveTemp, tempDir } from '../../server/support'

describe('saved connections', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    dir = await tempDir('lcb-connections-')
  })
  afterAll(async () => {
    await dir?.cleanup()
  })

  it('keeps secrets out of the records file and out of the view, and puts them into the properties', async () => {
    const path = join(dir.dir, 'connections.json')
    const secrets = new MemorySecretStore()
    const store = new ConnectionStore(new JsonFileConnectionRecords(path), secrets)
    const view = await store.save({
      name: 'Acme',
      endpoint: 'https://catalog.acme/',
      auth: { kind: 'api-key', secret: 'sk-live-abcdef123456' },
      database: { kind: 'name', value: 'prod' },
      headers: [
        { name: 'X-Team', value: 'ml', secret: false },
        { name: 'X-Session', value: 'sess-0987654321', secret: true },
      ],
    })
    expect(view).toMatchObject({
      name: 'Acme',
      endpoint: 'https://catalog.acme',
      auth: { kind: 'api-key', saved: true },
      database: { kind: 'name', value: 'prod' },
      headers: [
        { name: 'X-Team', secret: false, value: 'ml', saved: true },
        { name: 'X-Session', secret: true, saved: true },
      ],
    })
    const everything = JSON.stringify(view) + (await readFile(path, 'utf8')) + JSON.stringify(await store.list())
    expect(everything).not.toContain('sk-live-abcdef123456')
    expect(everything).not.toContain('sess-0987654321')
    expect(await store.properties(view.id)).toEqual({
      uri: 'https://catalog.acme',
      'headers.x-api-key': 'sk-live-abcdef123456',
      'headers.x-service-database': 'prod',
      'headers.X-Team': 'ml',
      'headers.X-Session': 'sess-0987654321',
    })

    // Saving again without the secret keeps it; a new secret replaces it.
    await store.save({ id: view.id, name: 'Acme 2', endpoint: 'https://catalog.acme', auth: { kind: 'api-key' }, headers: [{ name: 'X-Session', secret: true }] })
    expect((await store.properties(view.id))['headers.x-api-key']).toBe('sk-live-abcdef123456')
    expect((await store.properties(view.id))['headers.X-Session']).toBe('sess-0987654321')
    await store.save({ id: view.id, name: 'Acme 2', endpoint: 'https://catalog.acme', auth: { kind: 'bearer', secret: 'tok-1111111' }, database: { kind: 'prefix', value: 'team' } })
    const props = await store.properties(view.id)
    expect(props['headers.Authorization']).toBe('Bearer tok-1111111')
    expect(props['headers.x-service-database-prefix']).toBe('team')
    expect(props['headers.X-Session']).toBeUndefined()
    expect([...secrets.entries.values()]).not.toContain('sess-0987654321') // the dropped header's secret is gone
  })

  it('refuses invalid drafts and changes nothing', async () => {
    const store = new ConnectionStore(new MemoryConnectionRecords(), new MemorySecretStore())
    const saved = await store.save({ name: 'ok', endpoint: 'http://127.0.0.1:1', auth: { kind: 'api-key', secret: 'key-abcdef' } })
    const bad = [
      { name: '', endpoint: 'http://x', auth: { kind: 'none' } },
      { name: 'x', endpoint: 'not a url', auth: { kind: 'none' } },
      { name: 'x', endpoint: 'http://u:p@host', auth: { kind: 'none' } },
      { name: 'x', endpoint: 'http://x', auth: { kind: 'api-key' } },
      { name: 'x', endpoint: 'http://x', auth: { kind: 'none' }, headers: [{ name: 'x-api-key', value: 'v' }] },
      { name: 'x', endpoint: 'http://x', auth: { kind: 'none' }, headers: [{ name: 'X-A', value: 'line\nbreak' }] },
      { id: saved.id, name: 'x', endpoint: 'http://x', auth: { kind: 'api-key', secret: '' } },
    ]
    for (const draft of bad) await expect(store.save(draft)).rejects.toMatchObject({ code: 'invalid_input' })
    expect(await store.list()).toEqual([saved])
    expect((await store.properties(saved.id))['headers.x-api-key']).toBe('key-abcdef')
  })

  it('a wrong key fails to connect and leaves the saved connection as it was', async () => {
    const server = await serveTemp()
    try {
      const store = new ConnectionStore(new MemoryConnectionRecords(), new MemorySecretStore())
      const saved = await store.save({ name: 'local', endpoint: server.url, auth: { kind: 'api-key', secret: 'not-the-key' } })
      const client = await connectNamespace('rest', await store.properties(saved.id))
      const error = await client.listTables([]).catch((e: unknown) => e as Error)
      expect(error).toMatchObject({ code: 'unauthenticated' })
      expect((error as Error).message).not.toContain('not-the-key')
      expect(await store.list()).toEqual([saved])
      await store.save({ id: saved.id, name: 'local', endpoint: server.url, auth: { kind: 'api-key', secret: KEY } })
      const fixed = await connectNamespace('rest', await store.properties(saved.id))
      expect((await fixed.listTables([])).items).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('redacts secrets from text and headers', () => {
    expect(redactText('failed with key abc12345 at https://u:pw@h/x', ['abc12345'])).toBe(`failed with key ${MASK} at https://${MASK}@h/x`)
    expect(redactText('Authorization: Bearer tok-99999', ['Bearer tok-99999'])).not.toContain('tok-99999')
    expect(redactHeaders({ 'x-api-key': 'k', authorization: 'Bearer t', 'x-team': 'ml', 'x-custom': 's' }, ['x-custom'])).toEqual({
      'x-api-key': MASK,
      authorization: MASK,
      'x-team': 'ml',
      'x-custom': MASK,
    })
  })
})
