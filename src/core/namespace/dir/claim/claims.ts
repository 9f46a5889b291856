import { createHash } from 'node:crypto'
import type { StorageOptions } from '../../../../contract/objectStore'
import { azureAccess } from '../../objectStore/azure'
import { s3Access } from '../../objectStore/s3'
import { parseRoot } from '../../objectStore/location'
import { AzureClaimStore } from './azureStore'
import { FileClaimStore } from './fileStore'
import { GcsClaimStore } from './gcsStore'
import { gcsAccess } from '../../objectStore/gcs'
import { S3ClaimStore } from './s3Store'
import { claimName, type Claim, type ClaimOptions } from './lease'
import type { ClaimStore } from './store'

/** The folder of claims in a catalog root (hidden; lancedb lists only `*.lance` directories and `__manifest`). */
export const CLAIMS_DIR = '.lcb-claims'

/**
 * Name claims of one catalog. Namespaces and tables share one name space (one `__manifest` object id), so a
 * claim is keyed by the object id (`ns$name`), hashed to a fixed-length file or blob name.
 */
export class NameClaims {
  constructor(private readonly store: ClaimStore) {}

  /**
   * The claim for the object `parts` (a namespace path, or a table's namespace plus its name), once no live holder
   * has it; null when one still does after the wait.
   */
  claim(parts: readonly string[], options?: ClaimOptions): Promise<Claim | null> {
    return claimName(this.store, `${CLAIMS_DIR}/${keyOf(parts)}.claim`, options)
  }

  /**
   * Write `path` (relative to the root) only if nothing is there: a lasting mark, such as the `.lance-reserved`
   * of a declared table, that no other process can also write. False when it exists.
   */
  async reserve(path: string, body: string): Promise<boolean> {
    return (await this.store.create(path, body)) !== null
  }

  /** Remove a mark written by {@link reserve} (a declared table dropped before it got data); false when absent. */
  async unreserve(path: string): Promise<boolean> {
    const current = await this.store.read(path)
    return current !== null && (await this.store.remove(path, current.tag))
  }
}

function keyOf(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('$'), 'utf8').digest('hex').slice(0, 40)
}

/**
 * The claims of the catalog at `root`: files in a local root, objects on Azure, S3 and GCS. Null on a store whose
 * credentials this module cannot use (Azure service principals, AWS profiles, instance metadata, Google user
 * credentials): creates there rest on Lance's commit alone.
 */
export function claimsFor(root: string, storageOptions: StorageOptions = {}): NameClaims | null {
  const parsed = parseRoot(root)
  if ('local' in parsed) return new NameClaims(new FileClaimStore(parsed.local))
  if (parsed.store.scheme === 'az') {
    const access = azureAccess(storageOptions)
    return access ? new NameClaims(new AzureClaimStore(access, parsed.store)) : null
  }
  if (parsed.store.scheme === 's3') {
    const access = s3Access(storageOptions)
    return access ? new NameClaims(new S3ClaimStore(access, parsed.store)) : null
  }
  if (parsed.store.scheme === 'gs') {
    const access = gcsAccess(storageOptions)
    return access ? new NameClaims(new GcsClaimStore(access, parsed.store)) : null
  }
  return null
}
