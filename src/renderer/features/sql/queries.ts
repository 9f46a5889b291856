import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'
import { keys } from '../../queries/keys'

/** The catalog's namespaces, tables and columns for completion; under the tables' scope, so a table write makes it stale. */
export function sqlNamesQuery(connectionId: string) {
  return queryOptions({
    queryKey: [...keys.tables(connectionId), 'sql-names'] as const,
    queryFn: ({ signal }) => call('sql/names', { connectionId }, signal),
    staleTime: 60_000,
    // Completion without the catalog's names still completes SQL: no retries to wait for.
    retry: false,
  })
}

/** The catalog's query history, newest first (kept in the settings, never in the catalog). */
export function sqlHistoryQuery(connectionId: string) {
  return queryOptions({
    queryKey: keys.sqlHistory(connectionId),
    queryFn: ({ signal }) => call('sql/history/list', { connectionId }, signal),
  })
}
