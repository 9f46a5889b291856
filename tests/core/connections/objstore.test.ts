/**
 * Saved object-store catalogs (the app side): the draft schema, the store (secret options never in the
 * records file or the view), and the service opening `file://` and `az://` catalogs (Azurite on loopback).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { objectStoreDraftSchema, type AppErrorData, type ConnectionInfo, type Result } from '../../../src/contract'
import { JsonFileConnectionRecords, MemoryConnectionRecords, MemorySecretStore } from '../../../src/core/connections'
import { redactStoreError } from '../../../src/core/connections/objectStoreModule'
import { ObjectStoreConnectionStore, objectStoreSecretKey, type SavedObjectStore } from '../../../src/core/connections/objectStoreStore'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../../helpers/azurite'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { buildObjectStoreCatalog } from '../../helpers/objstoreCatalog'

Object.assign(process.env, NO_CLOUD_ENV)

const SECRET = 'c2VjcmV0LWtleS1mb3ItdGVzdHMtMTIzNDU2Nzg5MA=='
const SESSION = 'session-token-0987654321'

describe('object-store draft schema', () => {
  it('accepts each scheme and refuses what is not a catalog URI, in words', () => {
    for (const uri of ['s3://bucket/prefix', 'gs://bucket', 'az://container/a/b', 'file:///tmp/catalog']) {
      expect(objectStoreDraftSchema.safeParse({ name: 'x', uri }).success, uri).toBe(true)
    }
    const bad = (uri: string) => {
      const parsed = objectStoreDraftSchema.safeParse({ name: 'x', uri })
      return parsed.success ? 'accepted' : parsed.error.issues[0]!.message
    }
    expect(bad('http://bucket/x')).toMatch(/must start with s3:\/\//)
    expect(bad('s3://user:pw@bucket/x')).toMatch(/must not carry credentials/)
    expect(bad('s3:///x')).toMatch(/needs a bucket name/)
  })

  it('refuses keeping an option that is not secret, and the same key twice', () => {
    const keep = objectStoreDraftSchema.safeParse({ name: 'x', uri: 's3://b', keep: ['aws_region'] })
    expect(keep.success).toBe(false)
    const twice = objectStoreDraftSchema.safeParse({ name: 'x', uri: 's3://b', options: { aws_region: 'a', AWS_REGION: 'b' } })
    expect(twice.success).toBe(false)
    expect(twice.error?.issues[0]?.message).toMatch(/appears twice/)
  })
})

describe('saved object-store catalogs', () => {
  let dir: string
  beforeAll(async () => {
    dir = await makeTempDir('lcb-objstore-conn-')
  })
  afterAll(async () => {
    await removeDir(dir)
  })

  it('keeps secret options out of the records file and the view, and gives them back for opening', async () => {
    const path = join(dir, 'object-store-connections.json')
    const secrets = new MemorySecretStore()
    const store = new ObjectStoreConnectionStore(new JsonFileConnectionRecords<SavedObjectStore>(path), secrets)
    const view = await store.save({
      name: 'Lake',
      uri: 's3://lake/catalog',
      options: { aws_region: 'eu-west-1', AWS_SECRET_ACCESS_KEY: SECRET, aws_session_token: SESSION, aws_access_key_id: 'AKIAEXAMPLE', aws_endpoint: '' },
    })
    expect(view).toMatchObject({ kind: 'object-store', name: 'Lake', uri: 's3://lake/catalog', options: { aws_region: 'eu-west-1', aws_access_key_id: 'AKIAEXAMPLE' } })
    expect(view.secrets).toEqual(['aws_secret_access_key', 'aws_session_token'])
    const file = await readFile(path, 'utf8')
    const shown = JSON.stringify(view) + JSON.stringify(await store.list())
    for (const secret of [SECRET, SESSION]) {
      expect(file).not.toContain(secret)
      expect(shown).not.toContain(secret)
    }
    expect(file).not.toContain('aws_endpoint') // an empty field is not an option
    expect(secrets.entries.get(objectStoreSecretKey(view.id, 'aws_secret_access_key'))).toBe(SECRET)
    expect(await store.storageOptions(await store.get(view.id))).toEqual({
      aws_region: 'eu-west-1',
      aws_access_key_id: 'AKIAEXAMPLE',
      aws_secret_access_key: SECRET,
      aws_session_token: SESSION,
    })
  })

  it('keeps a saved secret only when asked, replaces it when given, and forgets it otherwise', async () => {
    const secrets = new MemorySecretStore()
    const store = new ObjectStoreConnectionStore(new MemoryConnectionRecords<SavedObjectStore>(), secrets)
    const first = await store.save({ name: 'Blob', uri: 'az://data/cat', options: { azure_storage_account_name: 'acct', azure_storage_account_key: SECRET, azure_storage_sas_token: SESSION } })
    // Edit: keep the key (not sent again), drop the SAS token (neither sent nor kept).
    const edited = await store.save({ id: first.id, name: 'Blob 2', uri: 'az://data/cat', options: { azure_storage_account_name: 'acct' }, keep: ['azure_storage_account_key'] })
    expect(edited.secrets).toEqual(['azure_storage_account_key'])
    expect(edited.createdAt).toBe(first.createdAt)
    expect(secrets.entries.has(objectStoreSecretKey(first.id, 'azure_storage_sas_token'))).toBe(false)
    // A draft that keeps the saved key tests with it, without the renderer ever sending it.
    const target = await store.draftTarget({ id: first.id, name: 'Blob 2', uri: 'az://data/cat', options: {}, keep: ['azure_storage_account_key'] })
    expect(target.storageOptions).toEqual({ azure_storage_account_key: SECRET })
    // Replace the key.
    await store.save({ id: first.id, name: 'Blob 2', uri: 'az://data/cat', options: { azure_storage_account_key: 'new-key-value' } })
    expect(secrets.entries.get(objectStoreSecretKey(first.id, 'azure_storage_account_key'))).toBe('new-key-value')
    await store.remove(first.id)
    expect(await store.list()).toEqual([])
    expect(secrets.entries.size).toBe(0)
  })

  it('errors from a store carry no secret option, no part of a service-account key, and no URL signature', () => {
    const privateKey = '-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n'
    const json = JSON.stringify({ type: 'service_account', private_key_id: 'f00dbabe1234567890', private_key: privateKey })
    const options = { azure_storage_account_key: SECRET, google_service_account_key: json, aws_region: 'eu-west-1' }
    const raw = new Error(
      `GET https://acct.blob.core.windows.net/c?restype=container&sv=2021&sig=Zm9vYmFyc2lnbmF0dXJl%3D failed; key ${SECRET}; ` +
        `https://b.s3.amazonaws.com/k?X-Amz-Credential=AKIA%2F20240101&X-Amz-Signature=abcdef0123456789; key id f00dbabe1234567890; region eu-west-1`,
    )
    const error = redactStoreError(raw, options)
    const text = `${error.message} ${error.detail ?? ''}`
    for (const secret of [SECRET, 'Zm9vYmFyc2lnbmF0dXJl', 'abcdef0123456789', 'AKIA%2F20240101', 'f00dbabe1234567890']) expect(text).not.toContain(secret)
    expect(text).toContain('region eu-west-1')
    expect(text).toContain('sig=•••••')
  })

  it('refuses to update a connection that no longer exists, changing nothing', async () => {
    const store = new ObjectStoreConnectionStore(new MemoryConnectionRecords<SavedObjectStore>(), new MemorySecretStore())
    await expect(store.save({ id: 'gone', name: 'x', uri: 's3://b' })).rejects.toMatchObject({ code: 'not_found' })
    expect(await store.list()).toEqual([])
  })
})

describe('opening object-store catalogs through the service', () => {
  let azurite: Azurite
  let dir: string
  let service: CatalogService
  beforeAll(async () => {
    azurite = await startAzurite()
    dir = await makeTempDir('lcb-objstore-svc-')
  }, 60_000)
  afterAll(async () => {
    await service?.closeAll()
    await azurite?.stop()
    await removeDir(dir)
  })

  async function call<T>(method: string, input: unknown): Promise<T> {
    const result = (await service.dispatch(method, input)) as Result<T>
    if (!result.ok) throw Object.assign(new Error(result.error.message), { data: result.error })
    return result.value
  }
  async function failure(method: string, input: unknown): Promise<AppErrorData> {
    const result = (await service.dispatch(method, input)) as Result<unknown>
    if (result.ok) throw new Error(`${method} succeeded`)
    return result.error
  }

  it('connects to an az:// catalog, lists and reads it, and disables what object storage cannot do', async () => {
    service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
    const root = await azurite.freshRoot('catalog')
    await buildObjectStoreCatalog(root, azurite.storageOptions, { namespaces: [['team']], tables: [{ namespace: [], name: 'events', rows: 30 }, { namespace: ['team'], name: 'scores', rows: 7 }] })
    const draft = { name: 'Emulator', uri: root, options: azurite.storageOptions }
    const report = await call<{ namespaces: number; tables: number }>('connections/saved/test', { kind: 'object-store', draft })
    expect(report).toMatchObject({ namespaces: 1, tables: 1 })
    const { view, connection } = await call<{ view: { id: string; secrets: string[] }; connection: ConnectionInfo }>('connections/saved/connect', { kind: 'object-store', draft })
    expect(view.secrets).toEqual(['azure_storage_account_key'])
    expect(connection).toMatchObject({ kind: 'dir', label: 'Emulator', location: root, savedId: view.id, readOnly: true })
    const ref = { connectionId: connection.id }
    expect((await call<{ items: string[] }>('namespaces/list', { ...ref, namespace: [] })).items).toEqual(['team'])
    expect((await call<{ items: string[] }>('tables/list', { ...ref, namespace: ['team'] })).items).toEqual(['scores'])
    const page = await call<Uint8Array>('tables/page', { ...ref, namespace: ['team'], name: 'scores', offset: 0, limit: 100 })
    expect(tableFromIPC(page).numRows).toBe(7)
    const capabilities = await call<Record<string, { supported?: boolean; reason?: string }>>('connections/capabilities', ref)
    expect(capabilities['table.rename']).toMatchObject({ supported: false, reason: expect.stringMatching(/^Renaming tables is not supported on object storage/) })
    expect(capabilities['table.query']).toMatchObject({ supported: true })
    // Opening the saved one again shows the open connection.
    expect(await call<ConnectionInfo>('connections/saved/open', { kind: 'object-store', id: view.id })).toMatchObject({ id: connection.id })
  })

  it('a wrong account key is an error in words that carries no key, and saves nothing', async () => {
    service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
    const root = await azurite.freshRoot('catalog')
    await buildObjectStoreCatalog(root, azurite.storageOptions, { tables: [{ namespace: [], name: 'events', rows: 3 }] })
    const wrongKey = Buffer.from('not-the-emulator-key-but-64-bytes-long-0123456789abcdef0123456789').toString('base64')
    const error = await failure('connections/saved/connect', { kind: 'object-store', draft: { name: 'Wrong', uri: root, options: { ...azurite.storageOptions, azure_storage_account_key: wrongKey } } })
    expect(error.message.length).toBeGreaterThan(10)
    expect(JSON.stringify(error)).not.toContain(wrongKey)
    expect(await call<unknown[]>('connections/saved/list', {})).toEqual([])
    expect(await call<unknown[]>('connections/list', {})).toEqual([])
  })

  it('a refused SAS token is reported without the token or its signature', async () => {
    service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
    const root = await azurite.freshRoot('catalog')
    await buildObjectStoreCatalog(root, azurite.storageOptions, { tables: [{ namespace: [], name: 'events', rows: 3 }] })
    const signature = 'AbCdEf0123456789SeCrEtSiGnAtUrE0123456789xyz%3D'
    const sas = `sv=2021-12-02&ss=b&srt=sco&sp=rl&se=2099-01-01T00:00:00Z&sig=${signature}`
    const { azure_storage_account_key: _key, ...withoutKey } = azurite.storageOptions
    const error = await failure('connections/saved/test', { kind: 'object-store', draft: { name: 'SAS', uri: root, options: { ...withoutKey, azure_storage_sas_token: sas } } })
    const text = JSON.stringify(error)
    expect(text).not.toContain(signature)
    expect(text).not.toContain(decodeURIComponent(signature))
    expect(text).not.toContain(sas)
  })

  it('opens a file:// catalog exactly as its directory, with nothing unsupported', async () => {
    service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
    const root = join(dir, 'local')
    await buildCatalog(root, { namespaces: [['a']], tables: [{ namespace: ['a'], name: 't', rows: 5 }] })
    const uri = pathToFileURL(root).href
    const { connection } = await call<{ connection: ConnectionInfo }>('connections/saved/connect', { kind: 'object-store', draft: { name: 'Local', uri } })
    expect((await call<{ items: string[] }>('tables/list', { connectionId: connection.id, namespace: ['a'] })).items).toEqual(['t'])
    expect(await call<unknown>('connections/capabilities', { connectionId: connection.id })).toBeNull()
  })
})
