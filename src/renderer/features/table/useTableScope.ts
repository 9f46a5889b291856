import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import type { TableRef } from '../../../contract'
import { tableScope } from './queries'

/**
 * A table view's hold on what is cached of its table. `reload` reads the table afresh (Reload, Try again):
 * everything cached about it is dropped, so the view shows "Opening…" again (a write's own staleness is its
 * rule's: queries/invalidate.ts). Leaving the table drops what was read of it, so opening it again reads it afresh,
 * as "open" promises — after the unmount, and only when nothing shows it any more (another tab, a split, or a
 * remount in development keeps it).
 */
export function useTableScope(tableRef: TableRef): { reload: () => void } {
  const client = useQueryClient()
  const reload = useCallback(() => void client.resetQueries({ queryKey: tableScope(tableRef) }), [client, tableRef])
  const scope = JSON.stringify(tableScope(tableRef))
  useEffect(
    () => () => {
      const queryKey = JSON.parse(scope) as unknown[]
      setTimeout(() => {
        if (!client.getQueryCache().findAll({ queryKey }).some((query) => query.getObserversCount() > 0)) client.removeQueries({ queryKey })
      })
    },
    [client, scope],
  )
  return { reload }
}
