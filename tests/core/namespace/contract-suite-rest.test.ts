import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/rest'
import { KEY, serveTemp } from '../../server/support'
import { namespaceClientContract } from './contract-suite'
import { viewContract } from './view-suite'
import { lifecycleContract } from '../lifecycle/contract'

namespaceClientContract('rest (our server on loopback)', async () => {
  const server = await serveTemp()
  const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
  return { client, cleanup: () => server.close() }
})

viewContract('rest (our server on loopback)', async () => {
  const server = await serveTemp()
  const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
  return { client, root: server.root, cleanup: () => server.close() }
})

lifecycleContract('rest (our server on loopback)', async () => {
  const server = await serveTemp()
  const client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
  return { client, cleanup: () => server.close() }
})
