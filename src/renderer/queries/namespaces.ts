import { queryOptions } from '@tanstack/react-query'
import type { AppErrorData } from '../../contract'
import { call } from '../api'
import { keys } from './keys'

// Reads of one namespace that the tree's actions and the lifecycle dialogs both make, asked afresh each time.

/** What a namespace holds now, at any depth: asked each time it is needed (a menu, a drop dialog), never kept. */
export function contentsQuery(connectionId: string, namespace: readonly string[]) {
  return queryOptions({
    queryKey: keys.contents(connectionId, namespace),
    queryFn: () => call('namespaces/contents', { connectionId, namespace: [...namespace] }),
    staleTime: 0,
    gcTime: 0,
  })
}

/** A namespace's properties, read each time the Properties dialog opens. */
export function namespaceQuery(connectionId: string, namespace: readonly string[]) {
  return queryOptions({
    queryKey: keys.namespace(connectionId, namespace),
    queryFn: () => call('namespaces/describe', { connectionId, namespace: [...namespace] }),
    staleTime: 0,
    gcTime: 0,
  })
}

/** What is known about one namespace's children, loaded lazily page by page: the tree's listing query's data. */
export interface NamespaceNode {
  status: 'loading' | 'loaded' | 'error'
  namespaces: string[]
  tables: string[]
  /** What is being listed while `status` is `loading`. */
  phase?: 'namespaces' | 'tables'
  error?: AppErrorData
}
