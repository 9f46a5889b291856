import { AppError } from '../../../contract'
import { operationLabels, type CapabilitySnapshot, type Operation } from '../../../contract/connections'

/**
 * What a catalog on object storage cannot do with lancedb 0.31.0, and why, in one wording for the app and our
 * server. Each needs a `__manifest` edit that lancedb does not offer (it answers rename with "not implemented"),
 * which we make locally by opening the manifest through a symlink — object stores have no symlinks, and lancedb
 * always appends `.lance` to a table name — or a crash-safe multi-commit write (staging + publish, journal).
 */
export const OBJECT_STORE_REASONS = {
  rename: 'Renaming tables is not supported on object storage with lancedb 0.31: its directory namespace does not implement rename, and the catalog’s __manifest cannot be edited there (it is reached locally through a symlink)',
  import: 'Importing files into a catalog on object storage is not supported yet: an import writes a hidden staging table and publishes it with a __manifest edit (or journals an append for crash recovery), which lancedb 0.31 cannot do on object storage',
  register: 'Registering and deregistering tables is not supported on object storage with lancedb 0.31: both need a __manifest edit',
  declareChild:
    'Declaring a table in a child namespace is not supported on object storage: it reserves a __manifest row, which lancedb 0.31 cannot write on object storage. Create it through the CreateTable route of this server (an Arrow body) instead, or declare the table at the root of the catalog',
} as const

/**
 * The operations the UI disables on an object-store catalog, with the reason shown to the user. Creating a table
 * ("New table…": one `createEmptyTable`) works; appending rows is what only an import does.
 */
export const OBJECT_STORE_UNSUPPORTED: Partial<Record<Operation, string>> = {
  'table.rename': OBJECT_STORE_REASONS.rename,
  'table.createFromStream': OBJECT_STORE_REASONS.import,
  'table.insert': OBJECT_STORE_REASONS.import,
}

export function objectStoreUnsupported(reason: keyof typeof OBJECT_STORE_REASONS): AppError {
  return new AppError('unsupported', OBJECT_STORE_REASONS[reason], { hint: 'Use a local copy of the catalog for this, or a newer lancedb when it supports it' })
}

/** The capability map the UI reads (`connections/capabilities`): everything supported but the operations above. */
export function objectStoreCapabilities(): CapabilitySnapshot {
  const out = {} as CapabilitySnapshot
  for (const operation of Object.keys(operationLabels) as Operation[]) {
    const reason = OBJECT_STORE_UNSUPPORTED[operation]
    out[operation] = reason ? { supported: false, reason } : { supported: true }
  }
  return out
}
