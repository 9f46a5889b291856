import type { TableRef } from '../../../contract'
import { namespaceKey, tableKey } from '../../lib/nodeKeys'

export type Selection =
  | { kind: 'table'; key: string; ref: TableRef }
  | { kind: 'namespace'; key: string; connectionId: string; namespace: string[] }
  /** A query view over one catalog (features/sql); `key` tells two apart. */
  | { kind: 'query'; key: string; connectionId: string }
  | null

/** A write from the tree's context menu, as far as the selection cares. */
export interface TreeWrite {
  action: 'rename-table' | 'drop-table' | 'drop-namespace' | (string & {})
  target: { connectionId: string; namespace: string[]; name: string }
  result: { name?: string; namespace?: string[] }
}

/** The selection after a write: a renamed table stays selected under its new name; a dropped one gives way to its namespace. */
export function nextSelection(current: Selection, { action, target, result }: TreeWrite): Selection {
  if (!current) return current
  const { connectionId, namespace } = target
  if (action === 'rename-table' && result.name) {
    const to = result.namespace ?? namespace
    return current.kind === 'table' && current.key === tableKey(connectionId, namespace, target.name) ? { kind: 'table', key: tableKey(connectionId, to, result.name), ref: { connectionId, namespace: to, name: result.name } } : current
  }
  if (action === 'drop-table') {
    return current.kind === 'table' && current.key === tableKey(connectionId, namespace, target.name) ? { kind: 'namespace', key: namespaceKey(connectionId, namespace), connectionId, namespace } : current
  }
  if (action === 'drop-namespace') {
    // A query reads the catalog by name: it stays (its next run says what is gone).
    if (current.kind === 'query') return current
    const parent = namespace.slice(0, -1)
    const [c, ns] = current.kind === 'table' ? [current.ref.connectionId, current.ref.namespace] : [current.connectionId, current.namespace]
    const inside = c === connectionId && namespace.every((part, i) => ns[i] === part)
    return inside ? { kind: 'namespace', key: namespaceKey(connectionId, parent), connectionId, namespace: parent } : current
  }
  return current
}
