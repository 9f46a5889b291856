import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import { namespaceClientContract } from './contract-suite'
import { viewContract } from './view-suite'
import { lifecycleContract } from '../lifecycle/contract'

namespaceClientContract('dir (temp directory)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'lcb-contract-dir-'))
  const client = await connectNamespace('dir', { root, create: 'true' })
  return { client, cleanup: () => rm(root, { recursive: true, force: true }) }
})

viewContract('dir (temp directory)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'lcb-views-dir-'))
  const client = await connectNamespace('dir', { root, create: 'true' })
  return { client, root, cleanup: () => rm(root, { recursive: true, force: true }) }
})

lifecycleContract('dir (temp directory)', async () => {
  const root = await mkdtemp(join(tmpdir(), 'lcb-lifecycle-dir-'))
  const client = await connectNamespace('dir', { root, create: 'true' })
  return { client, cleanup: () => rm(root, { recursive: true, force: true }) }
})
