import { afterAll } from 'vitest'
import { connectNamespace } from '../../src/core/namespace/connect'
import '../../src/core/namespace/rest'
import { startServer } from '../../src/server'
import { namespaceClientContract } from '../core/namespace/contract-suite'
import { lifecycleContract } from '../core/lifecycle/contract'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { KEY } from './support'

// Nothing in this process may reach a real cloud.
Object.assign(process.env, NO_CLOUD_ENV)

// One emulator for the file, a fresh container per suite.
let emulator: Promise<Azurite> | undefined
const azurite = () => (emulator ??= startAzurite())
afterAll(async () => (await emulator)?.stop())

async function serveOnAzurite() {
  const az = await azurite()
  const server = await startServer({ root: await az.freshRoot('catalog'), storageOptions: az.storageOptions, apiKeys: [KEY] })
  const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
  return { client, cleanup: () => server.close() }
}

namespaceClientContract('rest (our server on an az:// catalog)', serveOnAzurite)
lifecycleContract('rest (our server on an az:// catalog)', serveOnAzurite)
