import { createContext } from 'react'

/**
 * Which table a table view shows, as a key that outlives the session: the connection's location (a
 * directory path or an endpoint URL, never a credential) and the table's path. Per-table preferences
 * (hidden columns) are kept under it.
 */
export const TableIdentity = createContext<string | null>(null)

export function tableIdentity(location: string, namespace: readonly string[], name: string): string {
  return JSON.stringify([location, ...namespace, name])
}
