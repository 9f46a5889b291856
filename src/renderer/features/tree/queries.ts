import { queryOptions, useQueryClient, type Query, type QueryClient } from '@tanstack/react-query'
import { useCallback, useRef, useSyncExternalStore } from 'react'
import { listAllPages } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { keys, namespaceOfPart } from '../../queries/keys'
import { namespaceKey, type NamespaceNode } from './treeModel'

/**
 * What one namespace holds, following every page of the listing. Partial results are put in the cache as pages
 * arrive (the tree shows them with a progress row: never a silently truncated list). Kept while the window lives:
 * nothing observes a collapsed namespace, yet the filter and the context menu still read what it held.
 */
export function listingQuery(client: QueryClient, connectionId: string, namespace: readonly string[]) {
  const queryKey = keys.listing(connectionId, namespace)
  return queryOptions({
    queryKey,
    queryFn: async ({ signal }): Promise<NamespaceNode> => {
      const input = { connectionId, namespace: [...namespace] }
      const show = (node: NamespaceNode) => client.setQueryData(queryKey, node)
      show({ status: 'loading', phase: 'namespaces', namespaces: [], tables: [] })
      const namespaces = await listAllPages('namespaces/list', input, (soFar) => show({ status: 'loading', phase: 'namespaces', namespaces: soFar, tables: [] }), signal)
      show({ status: 'loading', phase: 'tables', namespaces, tables: [] })
      const tables = await listAllPages('tables/list', input, (soFar) => show({ status: 'loading', phase: 'tables', namespaces, tables: soFar }), signal)
      return { status: 'loaded', namespaces, tables }
    },
    gcTime: Infinity,
  })
}

/**
 * List a namespace now, or again: a listing still running is cancelled and started over (it may predate a write).
 * Failures are the tree's to show (an error row with Retry), not the caller's.
 */
export async function loadListing(client: QueryClient, connectionId: string, namespace: readonly string[]): Promise<void> {
  const options = listingQuery(client, connectionId, namespace)
  await client.cancelQueries({ queryKey: options.queryKey, exact: true })
  await client.fetchQuery({ ...options, staleTime: 0 }).catch(() => undefined)
}

/** List a namespace unless it is listed (or being listed) already; a failed listing is tried again. */
export function ensureListing(client: QueryClient, connectionId: string, namespace: readonly string[]): void {
  const state = client.getQueryState(keys.listing(connectionId, namespace))
  if (!state || state.status === 'error' || (state.data === undefined && state.fetchStatus === 'idle')) void loadListing(client, connectionId, namespace)
}

function nodeOf(query: Query): NamespaceNode {
  const { status, data, error, fetchStatus } = query.state
  if (status === 'error' && fetchStatus === 'idle') return { status: 'error', namespaces: [], tables: [], error: errorData(error) }
  return (data as NamespaceNode | undefined) ?? { status: 'loading', phase: 'namespaces', namespaces: [], tables: [] }
}

/** Every namespace listing in the cache, by the tree's namespace key (`treeModel.namespaceKey`). */
export function useListings(): ReadonlyMap<string, NamespaceNode> {
  const cache = useQueryClient().getQueryCache()
  const snapshot = useRef<ReadonlyMap<string, NamespaceNode> | null>(null)
  const subscribe = useCallback(
    (onChange: () => void) =>
      cache.subscribe((event) => {
        if (event.query.queryKey[0] !== 'tree' || event.type === 'observerResultsUpdated') return
        snapshot.current = null
        onChange()
      }),
    [cache],
  )
  const read = () => {
    if (!snapshot.current) {
      const nodes = new Map<string, NamespaceNode>()
      for (const query of cache.findAll({ queryKey: ['tree'] })) {
        const [, connectionId, part] = query.queryKey as [string, string, string]
        nodes.set(namespaceKey(connectionId, namespaceOfPart(part)), nodeOf(query))
      }
      snapshot.current = nodes
    }
    return snapshot.current
  }
  return useSyncExternalStore(subscribe, read)
}

/** List what is expanded again; forget the rest so it is listed afresh when opened again. */
export function refreshTree(client: QueryClient, expanded: ReadonlySet<string>, onlyConnectionId?: string): void {
  for (const query of client.getQueryCache().findAll({ queryKey: onlyConnectionId ? keys.tree(onlyConnectionId) : ['tree'] })) {
    const [, connectionId, part] = query.queryKey as [string, string, string]
    const namespace = namespaceOfPart(part)
    if (expanded.has(namespaceKey(connectionId, namespace))) void loadListing(client, connectionId, namespace)
    else client.removeQueries({ queryKey: query.queryKey, exact: true })
  }
}
