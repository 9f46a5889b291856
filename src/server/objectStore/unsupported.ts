import { AppError } from '../../contract'

/**
 * What our server cannot do on an object-store catalog with lancedb 0.31.0, and why. Each needs an edit of the
 * catalog's `__manifest` table that lancedb does not expose: locally we open `__manifest` through a symlink
 * (`m.lance`), but object stores have no symlinks and lancedb's `openTable` always appends `.lance`.
 */
export const OBJECT_STORE_UNSUPPORTED = {
  rename:
    'Renaming tables is not supported on object storage: lancedb 0.31.0 has no rename for directory catalogs ("rename_table not implemented"), and our own rename edits __manifest, which lancedb cannot open on object storage',
  register:
    'Registering and deregistering tables is not supported on object storage: both edit __manifest, which lancedb 0.31.0 cannot open on object storage',
  declareChild:
    'Declaring a table in a child namespace is not supported on object storage: it reserves a __manifest row, which lancedb 0.31.0 cannot write on object storage. Create it through the CreateTable route of this server (an Arrow body) instead, or declare the table at the root of the catalog',
} as const

export function objectStoreUnsupported(what: keyof typeof OBJECT_STORE_UNSUPPORTED): AppError {
  return new AppError('unsupported', OBJECT_STORE_UNSUPPORTED[what])
}
