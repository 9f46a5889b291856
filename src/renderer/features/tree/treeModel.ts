import type { AppErrorData, ConnectionInfo } from '../../../contract'
import { formatCount } from '../../lib/format'
import { namespaceKey, tableKey } from '../../lib/nodeKeys'
import type { NamespaceNode } from '../../queries/namespaces'

export { namespaceKey, tableKey }
export type { NamespaceNode }

export type ItemKind = 'connection' | 'namespace' | 'table'

export interface TreeItemRow {
  type: 'item'
  key: string
  kind: ItemKind
  name: string
  level: number
  connectionId: string
  /** For connection/namespace rows: the namespace itself. For table rows: the namespace holding it. */
  namespace: string[]
  expanded: boolean
  posinset: number
  setsize: number
  parentKey: string | null
  busy: boolean
}

export interface TreeStatusRow {
  type: 'status'
  key: string
  level: number
  parentKey: string
  status: 'loading' | 'error' | 'empty'
  text: string
  error?: AppErrorData
}

export type TreeRow = TreeItemRow | TreeStatusRow
function loadingText(node: NamespaceNode | undefined): string {
  if (!node) return 'Loading…'
  const count = node.namespaces.length + node.tables.length
  return count > 0 ? `Loading… ${formatCount(count)} so far` : 'Loading…'
}

/**
 * The tree flattened into the rows a virtualized list renders: roots are connections; a namespace's
 * children are its namespaces then its tables. With a filter, only loaded nodes whose name contains
 * it (case-insensitive) are shown, with their ancestors.
 */
export function flattenTree(
  connections: readonly ConnectionInfo[],
  nodes: ReadonlyMap<string, NamespaceNode>,
  expanded: ReadonlySet<string>,
  filter: string,
): TreeRow[] {
  const needle = filter.trim().toLowerCase()
  const rows: TreeRow[] = []
  if (needle === '') {
    const emitChildren = (connectionId: string, namespace: string[], level: number, parentKey: string) => {
      const node = nodes.get(parentKey)
      const children = node ? node.namespaces.length + node.tables.length : 0
      let position = 0
      if (node) {
        for (const name of node.namespaces) {
          const path = [...namespace, name]
          const key = namespaceKey(connectionId, path)
          const isOpen = expanded.has(key)
          const child = nodes.get(key)
          position += 1
          rows.push({ type: 'item', key, kind: 'namespace', name, level, connectionId, namespace: path, expanded: isOpen, posinset: position, setsize: children, parentKey, busy: child?.status === 'loading' })
          if (isOpen) emitChildren(connectionId, path, level + 1, key)
        }
        for (const name of node.tables) {
          position += 1
          rows.push({ type: 'item', key: tableKey(connectionId, namespace, name), kind: 'table', name, level, connectionId, namespace, expanded: false, posinset: position, setsize: children, parentKey, busy: false })
        }
      }
      if (!node || node.status === 'loading') {
        rows.push({ type: 'status', key: `${parentKey}#status`, level, parentKey, status: 'loading', text: loadingText(node) })
      } else if (node.status === 'error' && node.error) {
        rows.push({ type: 'status', key: `${parentKey}#status`, level, parentKey, status: 'error', text: node.error.message, error: node.error })
      } else if (children === 0) {
        rows.push({ type: 'status', key: `${parentKey}#status`, level, parentKey, status: 'empty', text: 'No namespaces or tables' })
      }
    }
    connections.forEach((connection, index) => {
      const key = namespaceKey(connection.id, [])
      const isOpen = expanded.has(key)
      rows.push({ type: 'item', key, kind: 'connection', name: connection.label, level: 1, connectionId: connection.id, namespace: [], expanded: isOpen, posinset: index + 1, setsize: connections.length, parentKey: null, busy: nodes.get(key)?.status === 'loading' })
      if (isOpen) emitChildren(connection.id, [], 2, key)
    })
    return rows
  }

  const matches = (name: string) => name.toLowerCase().includes(needle)
  // Returns the rows of this namespace's matching subtree (children only).
  const filteredChildren = (connectionId: string, namespace: string[], level: number, parentKey: string): TreeRow[] => {
    const node = nodes.get(parentKey)
    if (!node) return []
    const groups: TreeItemRow[][] = []
    for (const name of node.namespaces) {
      const path = [...namespace, name]
      const key = namespaceKey(connectionId, path)
      const below = filteredChildren(connectionId, path, level + 1, key)
      if (below.length > 0 || matches(name)) {
        const row: TreeItemRow = { type: 'item', key, kind: 'namespace', name, level, connectionId, namespace: path, expanded: below.length > 0, posinset: 0, setsize: 0, parentKey, busy: false }
        groups.push([row, ...(below as TreeItemRow[])])
      }
    }
    for (const name of node.tables) {
      if (matches(name)) {
        groups.push([{ type: 'item', key: tableKey(connectionId, namespace, name), kind: 'table', name, level, connectionId, namespace, expanded: false, posinset: 0, setsize: 0, parentKey, busy: false }])
      }
    }
    groups.forEach((group, i) => {
      group[0]!.posinset = i + 1
      group[0]!.setsize = groups.length
    })
    return groups.flat()
  }
  const roots: TreeRow[][] = []
  for (const connection of connections) {
    const key = namespaceKey(connection.id, [])
    const below = filteredChildren(connection.id, [], 2, key)
    if (below.length > 0 || matches(connection.label)) {
      roots.push([{ type: 'item', key, kind: 'connection', name: connection.label, level: 1, connectionId: connection.id, namespace: [], expanded: below.length > 0, posinset: 0, setsize: 0, parentKey: null, busy: false }, ...below])
    }
  }
  roots.forEach((group, i) => {
    const first = group[0] as TreeItemRow
    first.posinset = i + 1
    first.setsize = roots.length
  })
  return roots.flat()
}

/** Next item whose name starts with `prefix`, searching after `fromIndex` and wrapping (type-ahead). */
export function findByPrefix(rows: readonly TreeRow[], fromIndex: number, prefix: string): number {
  const needle = prefix.toLowerCase()
  for (let step = 1; step <= rows.length; step += 1) {
    const index = (fromIndex + step) % rows.length
    const row = rows[index]
    if (row && row.type === 'item' && row.name.toLowerCase().startsWith(needle)) return index
  }
  return -1
}
