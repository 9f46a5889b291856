import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { keys } from '../../queries/keys'
import { useNavigation } from '../navigation'
import { ensureListing, loadListing, refreshTree, useListings } from './queries'
import { parseNamespaceKey } from '../../lib/nodeKeys'
import { flattenTree, namespaceKey, type TreeRow } from './treeModel'

/**
 * The namespace tree: what each namespace holds (the query cache's listings, loaded lazily: queries.ts), which
 * namespaces are expanded (the window's navigation state), and the filter. Roots are the open connections.
 */
export function useNamespaceTree(connections: readonly ConnectionInfo[], filter: string) {
  const client = useQueryClient()
  const nodes = useListings()
  const { expanded, expand, collapse } = useNavigation()
  const knownRoots = useRef(new Set<string>())

  // A new connection appears expanded, its first level loading at once; a closed one's listings go with it.
  useEffect(() => {
    for (const connection of connections) {
      if (knownRoots.current.has(connection.id)) continue
      knownRoots.current.add(connection.id)
      expand(connection.id, [])
    }
    const open = new Set(connections.map((c) => c.id))
    for (const query of client.getQueryCache().findAll({ queryKey: ['tree'] })) {
      const connectionId = query.queryKey[1] as string
      if (!open.has(connectionId)) client.removeQueries({ queryKey: keys.tree(connectionId) })
    }
    for (const id of knownRoots.current) if (!open.has(id)) knownRoots.current.delete(id)
  }, [connections, client, expand])

  // A namespace just expanded is listed unless it is already (or is being) listed; a failed listing is tried again.
  const listed = useRef<ReadonlySet<string>>(new Set())
  useEffect(() => {
    for (const key of expanded) {
      if (listed.current.has(key)) continue
      const { connectionId, namespace } = parseNamespaceKey(key)
      ensureListing(client, connectionId, namespace)
    }
    listed.current = expanded
  }, [expanded, client])

  const refresh = useCallback((onlyConnectionId?: string) => refreshTree(client, expanded, onlyConnectionId), [client, expanded])
  const reload = useCallback((connectionId: string, namespace: string[]) => loadListing(client, connectionId, namespace), [client])
  /** Expand a namespace (again): a failed listing is tried again even when it stayed expanded. */
  const open = useCallback(
    (connectionId: string, namespace: string[]) => {
      if (expanded.has(namespaceKey(connectionId, namespace))) ensureListing(client, connectionId, namespace)
      expand(connectionId, namespace)
    },
    [client, expand, expanded],
  )

  const rows: TreeRow[] = useMemo(() => flattenTree(connections, nodes, expanded, filter), [connections, nodes, expanded, filter])

  return { rows, nodes, expanded, expand: open, collapse, refresh, reload }
}
