import { useQuery } from '@tanstack/react-query'
import type { Operation } from '../../../contract'
import { operationLabels } from '../../../contract'
import { capabilitiesQuery } from '../../queries/connections'

/**
 * Why a lifecycle action is unavailable on this connection, from what the REST client learned
 * (`connections/capabilities`: a route that answered "unsupported" or 404, or optimize, which the contract
 * lacks). Each action names its own operation and the read route of its family: a server without
 * `index/list` has no index routes to write with either. Directory connections answer null: nothing is refused.
 * Re-read whenever a panel opens and after each list a panel loads (`invalidate.capabilities`), so a route
 * refused once disables its action from then on instead of failing on every click.
 */
export function useLifecycleBlocks(connectionId: string, panel: string | null): (...operations: Operation[]) => string | undefined {
  const capabilities = useQuery({ ...capabilitiesQuery(connectionId), enabled: panel !== null })
  return (...operations) => {
    for (const operation of operations) {
      const entry = capabilities.data?.[operation]
      if (entry && entry.supported === false) return `This server does not support ${operationLabels[operation]}${entry.reason ? ` (${entry.reason})` : ''}`
    }
    return undefined
  }
}
