import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'
import { keys } from '../../queries/keys'

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
