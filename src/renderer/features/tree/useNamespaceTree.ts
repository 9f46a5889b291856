import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { keys } from '../../queries/keys'
import { ensureListing, loadListing, useListings } from './queries'
import { flattenTree, namespaceKey, type TreeRow } from './treeModel'

/**
 * The namespace tree: what each namespace holds (the query cache's listings, loaded lazily: queries.ts), which
 * namespaces are expanded (this hook's own state), and the filter. Roots are the open connections.
 */
export function useNamespaceTree(connections: readonly ConnectionInfo[], filter: string) {
  const client = useQueryClient()
  const nodes = useListings()
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const knownRoots = useRef(new Set<string>())

  // A new connection appears expanded, its first level loading at once.
  useEffect(() => {
    for (const connection of connections) {
      const key = namespaceKey(connection.id, [])
      if (knownRoots.current.has(key)) continue
      knownRoots.current.add(key)
      setExpanded((previous) => new Set(previous).add(key))
      ensureListing(client, connection.id, [])
    }
    // A closed connection's listings (and those still running) go with it.
    const open = new Set(connections.map((c) => c.id))
    for (const query of client.getQueryCache().findAll({ queryKey: ['tree'] })) {
      const connectionId = query.queryKey[1] as string
      if (!open.has(connectionId)) {
        client.removeQueries({ queryKey: keys.tree(connectionId) })
        knownRoots.current.delete(namespaceKey(connectionId, []))
      }
    }
  }, [connections, client])

  useEffect(() => {
    const roots = knownRoots.current
    // A remount (React StrictMode in development) must list the roots again.
    return () => roots.clear()
  }, [])

  const expand = useCallback(
    (connectionId: string, namespace: string[]) => {
      setExpanded((previous) => new Set(previous).add(namespaceKey(connectionId, namespace)))
      ensureListing(client, connectionId, namespace)
    },
    [client],
  )

  const collapse = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous)
      next.delete(key)
      return next
    })
  }, [])

  /** List what is expanded again; forget the rest so it is listed afresh when opened again. */
  const refresh = useCallback(
    (onlyConnectionId?: string) => {
      for (const query of client.getQueryCache().findAll({ queryKey: onlyConnectionId ? keys.tree(onlyConnectionId) : ['tree'] })) {
        const [, connectionId, namespace] = query.queryKey as [string, string, string[]]
        if (expanded.has(namespaceKey(connectionId, namespace))) void loadListing(client, connectionId, namespace)
        else client.removeQueries({ queryKey: query.queryKey, exact: true })
      }
    },
    [client, expanded],
  )

  const reload = useCallback((connectionId: string, namespace: string[]) => loadListing(client, connectionId, namespace), [client])

  const rows: TreeRow[] = useMemo(() => flattenTree(connections, nodes, expanded, filter), [connections, nodes, expanded, filter])

  return { rows, nodes, expanded, expand, collapse, refresh, reload }
}
