import { registerImplementation } from '../connect'
import { DirNamespaceClient } from './client'

export { DEFAULT_LIST_LIMIT, DirNamespaceClient, type DirOpenOptions } from './client'
export { inspectRoot, type RootLayout } from './root'

/** `connectNamespace('dir', { root })` opens a catalog for browsing; `create: 'true'` makes a new one. */
registerImplementation('dir', ['root'], (properties) => DirNamespaceClient.open(properties.root!, { create: properties.create === 'true' }))
