import type { QueryClient } from '@tanstack/react-query'
import type { ConnectionInfo } from '../../contract'
import { keys } from './keys'

// Changes to the cached list of open connections, apart from its read (connections.ts) so the staleness rules
// (invalidate.ts) load without the API client.

/** Change the list of open connections (one opened, closed, or its settings changed). */
export function updateConnections(client: QueryClient, update: (previous: ConnectionInfo[]) => ConnectionInfo[]): void {
  client.setQueryData(keys.connections, (previous: ConnectionInfo[] | undefined) => update(previous ?? []))
}

/** A connection the core opened, or one whose settings changed: added to the list, or put in its place. */
export function putConnection(client: QueryClient, connection: ConnectionInfo): void {
  updateConnections(client, (previous) => (previous.some((c) => c.id === connection.id) ? previous.map((c) => (c.id === connection.id ? connection : c)) : [...previous, connection]))
}
