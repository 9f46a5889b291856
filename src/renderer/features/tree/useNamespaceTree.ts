import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { isAbort, listAllPages } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { flattenTree, namespaceKey, type NamespaceNode, type TreeRow } from './treeModel'

/**
 * The namespace tree's state: what each namespace holds (loaded lazily, following every page of
 * the listing), which namespaces are expanded, and the filter. Roots are the open connections.
 */
export function useNamespaceTree(connections: readonly ConnectionInfo[], filter: string) {
  const [nodes, setNodes] = useState<ReadonlyMap<string, NamespaceNode>>(() => new Map())
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  const loads = useRef(new Map<string, AbortController>())
  const knownRoots = useRef(new Set<string>())

  const setNode = useCallback((key: string, node: NamespaceNode) => {
    setNodes((previous) => new Map(previous).set(key, node))
  }, [])

  const load = useCallback(
    async (connectionId: string, namespace: string[]) => {
      const key = namespaceKey(connectionId, namespace)
      loads.current.get(key)?.abort()
      const controller = new AbortController()
      loads.current.set(key, controller)
      const input = { connectionId, namespace }
      try {
        setNode(key, { status: 'loading', phase: 'namespaces', namespaces: [], tables: [] })
        // Partial results are shown as pages arrive, with a progress row: never a silently truncated list.
        const namespaces = await listAllPages(
          'namespaces/list',
          input,
          (soFar) => setNode(key, { status: 'loading', phase: 'namespaces', namespaces: soFar, tables: [] }),
          controller.signal,
        )
        setNode(key, { status: 'loading', phase: 'tables', namespaces, tables: [] })
        const tables = await listAllPages(
          'tables/list',
          input,
          (soFar) => setNode(key, { status: 'loading', phase: 'tables', namespaces, tables: soFar }),
          controller.signal,
        )
        setNode(key, { status: 'loaded', namespaces, tables })
      } catch (error) {
        if (isAbort(error) && controller.signal.aborted) return
        setNode(key, { status: 'error', namespaces: [], tables: [], error: errorData(error) })
      } finally {
        if (loads.current.get(key) === controller) loads.current.delete(key)
      }
    },
    [setNode],
  )

  // A new connection appears expanded, its first level loading at once.
  useEffect(() => {
    for (const connection of connections) {
      const key = namespaceKey(connection.id, [])
      if (knownRoots.current.has(key)) continue
      knownRoots.current.add(key)
      setExpanded((previous) => new Set(previous).add(key))
      void load(connection.id, [])
    }
  }, [connections, load])

  // Stop listings of closed connections.
  useEffect(() => {
    const open = new Set(connections.map((c) => c.id))
    for (const [key, controller] of loads.current) {
      const id = (JSON.parse(key.slice(2)) as string[])[0] ?? ''
      if (!open.has(id)) controller.abort()
    }
  }, [connections])

  useEffect(() => {
    const current = loads.current
    const roots = knownRoots.current
    return () => {
      current.forEach((controller) => controller.abort())
      // A remount (React StrictMode in development) must load the roots again.
      roots.clear()
    }
  }, [])

  const expand = useCallback(
    (connectionId: string, namespace: string[]) => {
      const key = namespaceKey(connectionId, namespace)
      setExpanded((previous) => new Set(previous).add(key))
      const node = nodes.get(key)
      if (!node || node.status === 'error') void load(connectionId, namespace)
    },
    [nodes, load],
  )

  const collapse = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous)
      next.delete(key)
      return next
    })
  }, [])

  /** Reload what is expanded; forget the rest so it loads fresh when opened again. */
  const refresh = useCallback(
    (onlyConnectionId?: string) => {
      const next = new Map(nodes)
      const toReload: [string, string[]][] = []
      for (const key of nodes.keys()) {
        const [connectionId = '', ...namespace] = JSON.parse(key.slice(2)) as string[]
        if (onlyConnectionId && connectionId !== onlyConnectionId) continue
        if (expanded.has(key)) toReload.push([connectionId, namespace])
        else next.delete(key)
      }
      setNodes(next)
      for (const [connectionId, namespace] of toReload) void load(connectionId, namespace)
    },
    [nodes, expanded, load],
  )

  const rows: TreeRow[] = useMemo(() => flattenTree(connections, nodes, expanded, filter), [connections, nodes, expanded, filter])

  return { rows, nodes, expanded, expand, collapse, refresh, reload: load }
}
