import { registerImplementation } from '../connect'
import { storageOptionsFromProperties } from '../objectStore'
import { DirNamespaceClient } from './client'

export { DEFAULT_LIST_LIMIT, DirNamespaceClient, type DirOpenOptions } from './client'
export { inspectRoot, type RootLayout } from './root'

/**
 * `connectNamespace('dir', { root })` opens a catalog for browsing; `create: 'true'` makes a new one. `root` may be
 * an object-store URI; its storage options are given as `storage.<key>` properties (the namespace specification's form).
 */
registerImplementation('dir', ['root'], (properties) =>
  DirNamespaceClient.open(properties.root!, {
    create: properties.create === 'true',
    storageOptions: storageOptionsFromProperties(properties),
    // `recover: 'false'`: a read-only connection finds what crashed writers left and writes nothing.
    recover: properties.recover !== 'false',
  }),
)
