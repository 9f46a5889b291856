import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ConnectionInfo } from '../../contract'
import { call } from '../api'
import { keys } from './keys'

// The session's open catalogs and what each can do: read by every feature, so kept below them.

/**
 * What a connection's catalog cannot do (a REST server's refused routes, what lancedb cannot do on object storage;
 * null for a directory: everything works). One snapshot per connection, shared by the tree's menu, the table's
 * toolbar and the lifecycle panels. Stale at once: each of them asks again when it opens, since the client learns
 * from every refusal.
 */
export function capabilitiesQuery(connectionId: string) {
  return queryOptions({
    queryKey: keys.capabilities(connectionId),
    queryFn: () => call('connections/capabilities', { connectionId }),
    staleTime: 0,
  })
}

export const appInfoQuery = queryOptions({ queryKey: keys.appInfo, queryFn: () => call('app/info', {}) })

/** The open connections, as the core listed them at start; opening, closing and switches update the cached list. */
export const connectionsQuery = queryOptions({ queryKey: keys.connections, queryFn: () => call('connections/list', {}) })

const NONE: readonly ConnectionInfo[] = []

/** The open connections (empty until listed). */
export function useConnections(): readonly ConnectionInfo[] {
  return useQuery(connectionsQuery).data ?? NONE
}

export { putConnection, updateConnections } from './connectionList'
