import { AppError, objectStoreScheme, type ConnectionInfo } from '../../contract'
import type { WriteMethod } from '../../contract/methods'

/** Where the Read-only switch is remembered: per saved connection and per directory. */
export interface ReadOnlyStore {
  readOnlyOf(key: string): Promise<boolean | undefined>
  setReadOnly(key: string, value: boolean): Promise<void>
}

export class MemoryReadOnlyStore implements ReadOnlyStore {
  private readonly values = new Map<string, boolean>()
  async readOnlyOf(key: string): Promise<boolean | undefined> {
    return this.values.get(key)
  }
  async setReadOnly(key: string, value: boolean): Promise<void> {
    this.values.set(key, value)
  }
}

export function isReadOnlyStore(value: unknown): value is ReadOnlyStore {
  return !!value && typeof (value as ReadOnlyStore).readOnlyOf === 'function' && typeof (value as ReadOnlyStore).setReadOnly === 'function'
}

/** The key a connection's switch is remembered under: the saved connection, else the directory. */
export function readOnlyKey(info: ConnectionInfo): string {
  return info.savedId ? `saved:${info.savedId}` : `${info.kind}:${info.location}`
}

/** On by default for remote catalogs (REST servers, buckets), off for local directories (and the demo, and file://). */
export function defaultReadOnly(info: ConnectionInfo): boolean {
  const scheme = objectStoreScheme(info.location)
  return info.kind === 'rest' || (scheme !== null && scheme !== 'file')
}

/**
 * The contract's writes that change a catalog (refused on a read-only connection): a subset of `WRITE_METHODS`
 * (contract/methods.ts), which also holds writes to the app's own state (settings, saved connections, jobs).
 */
export const CATALOG_WRITES: ReadonlySet<string> = new Set<WriteMethod>([
  'namespaces/create',
  'namespaces/drop',
  'tables/drop',
  'tables/rename',
  'tables/createEmpty',
  'import/start',
  'versions/restore',
  'tags/create',
  'tags/delete',
  'indexes/create',
  'indexes/start',
  'indexes/drop',
  'tables/optimize',
  'columns/add',
  'columns/alter',
  'columns/drop',
  'sql/saveAsTable',
  'rows/delete',
])

export function readOnlyError(label: string): AppError {
  return new AppError('permission_denied', `${label} is read-only`, { hint: 'Switch “Read-only” off for this connection to change it' })
}
