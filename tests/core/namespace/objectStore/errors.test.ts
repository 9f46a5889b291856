import '../../../helpers/no-cloud'
import { createServer } from 'node:net'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/contract'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { fromStoreMessage, parseRoot, storageProperties } from '../../../../src/core/namespace/objectStore'
import { AZURITE_KEY, startAzurite, type Azurite } from '../../../helpers/azurite'
import { accountSas, blobsUnder } from '../../../helpers/azurite-blobs'

/** Errors in words on object storage, against Azurite: each failure a person can meet when opening a catalog. */
let azurite: Azurite
let root: string
const WRONG_KEY = Buffer.alloc(64, 7).toString('base64')

beforeAll(async () => {
  azurite = await startAzurite()
  root = await azurite.freshRoot('cat')
  const client = await DirNamespaceClient.open(root, { create: true, storageOptions: azurite.storageOptions })
  await client.createNamespace(['lab'])
  await client.close()
})
afterAll(async () => {
  await azurite?.stop()
})

async function openFails(uri: string, storageOptions: Record<string, string>): Promise<AppError> {
  try {
    const client = await DirNamespaceClient.open(uri, { storageOptions })
    await client.close()
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    const data = (error as AppError).toData()
    // Secrets never reach what the user (or a log) sees.
    for (const secret of [storageOptions.azure_storage_account_key, storageOptions.azure_storage_sas_key && new URLSearchParams(storageOptions.azure_storage_sas_key).get('sig')]) {
      if (secret) expect(JSON.stringify(data)).not.toContain(secret)
    }
    return error as AppError
  }
  throw new Error('expected opening to fail')
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** What lancedb itself says for the same situation (a listing through it, no probe), mapped by our words. */
async function lancedbSays(uri: string, storageOptions: Record<string, string>): Promise<AppError | null> {
  const options = { ...storageOptions, client_max_retries: '0' }
  try {
    const db = await lancedb.connectNamespace('dir', { root: uri, manifestEnabled: false, extraProperties: storageProperties(options) }, { storageOptions: options })
    await db.tableNames([])
  } catch (error) {
    return fromStoreMessage((error as Error).message, 'store' in parseRoot(uri) ? (parseRoot(uri) as { store: never }).store : null)
  }
  throw new Error('expected lancedb to fail')
}

describe('object-store errors in words (Azurite)', () => {
  it('a wrong account key: the credentials were refused', async () => {
    const options = { ...azurite.storageOptions, azure_storage_account_key: WRONG_KEY }
    const error = await openFails(root, options)
    expect(error.code).toBe('unauthenticated')
    expect(error.message).toMatch(/refused the credentials/)
    expect((await lancedbSays(root, options))?.code).toBe('unauthenticated')
  })

  it('no such container', async () => {
    const error = await openFails('az://no-such-container/cat', azurite.storageOptions)
    expect(error.code).toBe('not_found')
    expect(error.message).toBe('The container "no-such-container" does not exist')
    expect((await lancedbSays('az://no-such-container/cat', azurite.storageOptions))?.code).toBe('not_found')
  })

  it('an endpoint that does not answer', async () => {
    const port = await closedPort()
    const options = { ...azurite.storageOptions, azure_endpoint: `http://127.0.0.1:${port}/devstoreaccount1` }
    const error = await openFails(root, options)
    expect(error.code).toBe('unavailable')
    expect(error.message).toBe(`Cannot reach the storage endpoint http://127.0.0.1:${port}`)
    const viaLance = await lancedbSays(root, options)
    expect(viaLance?.code).toBe('unavailable')
    expect(viaLance?.message).toBe(`Cannot reach the storage endpoint http://127.0.0.1:${port}`)
  })

  it('an endpoint that stops answering while a table is read (lancedb 0.31’s words) is unreachable, not a damaged table', () => {
    const text =
      'Failed to get next batch from stream: lance error: LanceError(IO): Generic N/A error: Cloned error: Cloned error: LanceError(IO): Generic MicrosoftAzure error: ' +
      'Error performing GET http://127.0.0.1:42329/devstoreaccount1/c1/cat/58c1a274_a$t/data/0001.lance in 621.016839ms, after 3 retries, max_retries: 3, retry_timeout: 180s  - HTTP error: error sending request'
    const mapped = fromStoreMessage(text, (parseRoot('az://c1/cat') as { store: never }).store)
    expect([mapped?.code, mapped?.message]).toEqual(['unavailable', 'Cannot reach the storage endpoint http://127.0.0.1:42329'])
  })

  it('access denied: a SAS token that may read but not list', async () => {
    const options = { azure_storage_account_name: 'devstoreaccount1', azure_endpoint: azurite.endpoint, allow_http: 'true', azure_storage_sas_key: accountSas('r') }
    const error = await openFails(root, options)
    expect(error.code).toBe('permission_denied')
    expect(error.message).toMatch(/^Access denied/)
    expect((await lancedbSays(root, options))?.code).toBe('permission_denied')
  })

  it('a SAS token with a wrong signature is refused, and the signature is never shown', async () => {
    const options = { azure_storage_account_name: 'devstoreaccount1', azure_endpoint: azurite.endpoint, allow_http: 'true', azure_storage_sas_key: accountSas('rl', WRONG_KEY) }
    expect((await openFails(root, options)).code).toBe('unauthenticated')
  })

  it('a SAS token that may read and list opens the catalog', async () => {
    const options = { azure_storage_account_name: 'devstoreaccount1', azure_endpoint: azurite.endpoint, allow_http: 'true', azure_storage_sas_key: accountSas('rl') }
    const before = await blobsUnder(azurite, root)
    const client = await DirNamespaceClient.open(root, { storageOptions: options })
    expect((await client.listNamespaces([])).items).toEqual(['lab'])
    await client.close()
    expect(await blobsUnder(azurite, root)).toEqual(before)
  })

  it('a plain-http endpoint without allow_http', async () => {
    const options = { ...azurite.storageOptions, allow_http: 'false' }
    const error = await openFails(root, options)
    expect(error.code).toBe('invalid_input')
    expect(error.message).toMatch(/allow_http=true/)
  })

  it('a location that is not a catalog URI, before anything is sent', async () => {
    expect((await openFails('az://', azurite.storageOptions)).code).toBe('invalid_input')
    expect((await openFails('az://user:pw@c/p', azurite.storageOptions)).message).toMatch(/must not carry credentials/)
    expect((await openFails('az://c/../p', azurite.storageOptions)).message).toMatch(/must not contain "." or ".." path segments/)
    expect((await openFails('az://c/%2e%2e/p', azurite.storageOptions)).code).toBe('invalid_input')
    const badName = await openFails('az://c/p', azurite.storageOptions)
    expect([badName.code, badName.message]).toEqual(['invalid_input', '"c" is not a valid container name'])
  })

  it('the account key is the emulator’s published key, so the test above really used a wrong one', () => {
    expect(WRONG_KEY).not.toBe(AZURITE_KEY)
  })
})
