import { AppError } from '../../../contract'
import { EMPTY_ROOT_WORDS } from '../../../contract/connections'
import type { StorageOptions } from '../../../contract/objectStore'
import { probeAzure } from './azure'
import { probeS3 } from './s3'
import type { ObjectStoreLocation } from './location'
import type { RootListing } from './listing'

/**
 * How an object-store root holds its catalog (the layouts of a local directory, dir/root.ts: a `__manifest`, or
 * `*.lance` tables only), or `unknown` when it cannot be listed without lancedb.
 */
export type StoreLayout = 'manifest' | 'tables-only' | 'unknown'

/**
 * Look at an object-store root before lancedb does (it writes `__manifest` when missing): the same decisions
 * as {@link inspectRoot} for a local directory, from a read-only listing. Errors (no such container, refused
 * credentials, endpoint unreachable) come back in words from the listing.
 */
export async function inspectStoreRoot(location: ObjectStoreLocation, options: StorageOptions, { create = false } = {}): Promise<StoreLayout> {
  const listing = await listRoot(location, options)
  if (listing === null) return create ? 'manifest' : 'unknown'
  if (listing.manifest) return 'manifest'
  if (listing.tables) return create ? 'manifest' : 'tables-only'
  if (create) return 'manifest'
  if (listing.empty) {
    throw new AppError('not_a_catalog', `${location.uri} ${EMPTY_ROOT_WORDS}`, {
      hint: 'Create a catalog here, or check the prefix in the location (a catalog holds a __manifest folder or *.lance tables)',
    })
  }
  throw new AppError('not_a_catalog', `${location.uri} does not hold a Lance catalog (no __manifest and no *.lance tables)`, {
    hint: 'Check the prefix in the location',
  })
}

function listRoot(location: ObjectStoreLocation, options: StorageOptions): Promise<RootListing | null> {
  if (location.scheme === 'az') return probeAzure(location, options)
  if (location.scheme === 's3') return probeS3(location, options)
  return Promise.resolve(null)
}
