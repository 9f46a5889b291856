import type { QueryClient } from '@tanstack/react-query'
import type { TableRef } from '../../contract'
import { keys } from './keys'

/**
 * What a write makes stale. A query on screen is read again at once; one not on screen is read again when next
 * asked for. Namespace listings are listed again even when collapsed: the filter and the context menu read them.
 */
export const invalidate = {
  /** A namespace gained or lost a table or a namespace. */
  listing: (client: QueryClient, connectionId: string, namespace: readonly string[]) =>
    client.invalidateQueries({ queryKey: keys.listing(connectionId, namespace), exact: true, refetchType: 'all' }),

  /** A table got a new version (an import into it, a restore, an index, a schema change): its description and every view of it. */
  table: (client: QueryClient, ref: TableRef) => client.invalidateQueries({ queryKey: keys.table(ref) }),

  /** A table was dropped or renamed away: nothing cached about it is true any more. */
  tableGone: (client: QueryClient, ref: TableRef) => client.removeQueries({ queryKey: keys.table(ref) }),

  /** Files imported into `ref` (a new table, or appended to / overwriting one): its namespace lists it, it shows the new version. */
  imported: (client: QueryClient, ref: TableRef) => Promise.all([invalidate.listing(client, ref.connectionId, ref.namespace), invalidate.table(client, ref)]),

  /** A write was refused as unsupported: the connection's client has learnt something about its server. */
  capabilities: (client: QueryClient, connectionId: string) => client.invalidateQueries({ queryKey: keys.capabilities(connectionId), refetchType: 'all' }),
}
