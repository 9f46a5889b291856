import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import type { AppErrorData, TableRef } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { keys } from '../../queries/keys'

export type Loaded<T> = { state: 'loading' } | { state: 'error'; error: AppErrorData } | { state: 'ready'; value: T }

const plain = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })

/** What each lifecycle panel lists, filed with the table (a write to the table makes it stale). */
const lists = {
  versions: (ref: TableRef) => call('versions/list', plain(ref)),
  indexes: (ref: TableRef) => call('indexes/list', plain(ref)),
  stats: (ref: TableRef) => call('tables/stats', plain(ref)),
}
type Lists = typeof lists

/**
 * What a lifecycle panel lists, through the query cache: read when the panel opens (a closed panel's list is
 * dropped, so opening it again reads afresh) and on `refresh()`. `onSettled` runs after each answer (the panels
 * tell the table view they have news).
 */
export function useLoaded<K extends keyof Lists>(list: K, tableRef: TableRef, onSettled?: () => void): { loaded: Loaded<Awaited<ReturnType<Lists[K]>>>; refresh: () => void } {
  const query = useQuery({
    queryKey: [...keys.table(tableRef), list],
    queryFn: () => lists[list](tableRef) as Promise<Awaited<ReturnType<Lists[K]>>>,
    gcTime: 0,
  })
  const { refetch, dataUpdatedAt, errorUpdatedAt } = query
  useEffect(() => {
    if (dataUpdatedAt > 0 || errorUpdatedAt > 0) onSettled?.()
  }, [dataUpdatedAt, errorUpdatedAt, onSettled])
  const refresh = useCallback(() => void refetch(), [refetch])
  const loaded: Loaded<Awaited<ReturnType<Lists[K]>>> =
    query.status === 'success' ? { state: 'ready', value: query.data } : query.status === 'error' ? { state: 'error', error: errorData(query.error) } : { state: 'loading' }
  return { loaded, refresh }
}
