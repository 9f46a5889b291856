import { AppError } from '../../../contract'
import { isEmptyRootError } from '../../../contract/connections'
import type { StorageOptions } from '../../../contract/objectStore'
import { inspectStoreRoot, parseRoot } from '../objectStore'
import { DirNamespaceClient } from './client'
import { inspectRoot } from './root'

/**
 * **Create a catalog here**: make an empty directory (or an empty object-store prefix) a Lance directory
 * namespace. lancedb's `connectNamespace("dir")` with the manifest on writes `<root>/__manifest` when it connects,
 * and nothing else; the first table can then be created or dropped on it.
 *
 * Only an empty root is accepted: a folder or prefix that holds anything (a catalog, tables, someone's files) is
 * refused before anything is written, so this cannot write into a place that was not meant for it. A missing
 * directory is refused too (the user chose a path, not a parent to create it under).
 */
export async function createCatalogHere(root: string, options: { storageOptions?: StorageOptions } = {}): Promise<DirNamespaceClient> {
  const parsed = parseRoot(root)
  try {
    if ('store' in parsed) {
      const layout = await inspectStoreRoot(parsed.store, options.storageOptions ?? {})
      if (layout === 'unknown') {
        throw new AppError('unsupported', `${parsed.store.uri} cannot be listed with these credentials, so the app cannot tell whether it is empty; nothing was written`, {
          hint: 'Use an account key, a SAS token or an S3 access key, or create the catalog with lancedb',
        })
      }
    } else await inspectRoot(parsed.local)
  } catch (error) {
    if (error instanceof AppError && isEmptyRootError(error.toData())) return DirNamespaceClient.open(root, { create: true, storageOptions: options.storageOptions })
    throw error
  }
  throw new AppError('already_exists', `${root} already holds a Lance catalog`, { hint: 'Open it instead' })
}
