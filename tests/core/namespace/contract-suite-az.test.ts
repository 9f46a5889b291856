import '../../helpers/no-cloud'
import { afterAll, beforeAll } from 'vitest'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { storageProperties } from '../../../src/core/namespace/objectStore'
import { startAzurite, type Azurite } from '../../helpers/azurite'
import { namespaceClientContract } from './contract-suite'
import { viewContract } from './view-suite'
import { lifecycleContract } from '../lifecycle/contract'

/** The shared contract suites on an `az://` directory catalog in Azurite (one emulator, a container per suite). */
let azurite: Azurite
beforeAll(async () => {
  azurite = await startAzurite()
})
afterAll(async () => {
  await azurite?.stop()
})

async function open(prefix: string) {
  const root = await azurite.freshRoot(prefix)
  const client = await connectNamespace('dir', { root, create: 'true', ...storageProperties(azurite.storageOptions) })
  return { client, root }
}

namespaceClientContract('dir (az:// on Azurite)', async () => {
  const { client } = await open('contract')
  return { client, cleanup: async () => undefined }
})

viewContract('dir (az:// on Azurite)', async () => {
  const { client, root } = await open('views')
  return { client, root, storageOptions: azurite.storageOptions, cleanup: async () => undefined }
})

lifecycleContract('dir (az:// on Azurite)', async () => {
  const { client } = await open('lifecycle')
  return { client, cleanup: async () => undefined }
})
