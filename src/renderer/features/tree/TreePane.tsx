import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState, type ReactNode } from 'react'
import { parseNamespaceKey } from '../../lib/nodeKeys'
import { useConnections } from '../../queries/connections'
import { TreeActionLayer, useTreeActions } from '../actions'
import { AddMenu, isBucket, useRemote } from '../connections'
import { useNavigation } from '../navigation'
import { prefetchTable } from '../table'
import { Sidebar } from './Sidebar'
import { namespaceKey, type TreeItemRow } from './treeModel'
import { useNamespaceTree } from './useNamespaceTree'

/**
 * The sidebar: the tree of every open connection with its filter, its context menu and the dialogs of its
 * writes (mounted here), and the header's buttons. A click on a table starts reading it before React renders it.
 */
export function TreePane({ collapseButton, importButton, onDropFiles }: { collapseButton: ReactNode; importButton: ReactNode; onDropFiles(row: TreeItemRow, transfer: DataTransfer): void }) {
  const client = useQueryClient()
  const connections = useConnections()
  const navigation = useNavigation()
  const remote = useRemote()
  const [filter, setFilter] = useState('')
  const tree = useNamespaceTree(connections, filter)
  const { nodes } = tree
  const contentsOf = useCallback(
    (connectionId: string, namespace: readonly string[]) => {
      const node = nodes.get(namespaceKey(connectionId, [...namespace]))
      return node?.status === 'loaded' ? { namespaces: node.namespaces.length, tables: node.tables.length } : undefined
    },
    [nodes],
  )
  const treeActions = useTreeActions({
    connections,
    reload: (connectionId, namespace) => void tree.reload(connectionId, namespace),
    expand: tree.expand,
    onChanged: (action, target, result) => navigation.afterTreeWrite({ action, target, result }),
    contentsOf,
  })
  const remoteIds = useMemo(() => new Set(connections.filter((c) => c.kind === 'rest').map((c) => c.id)), [connections])
  const cloudIds = useMemo(() => new Set(connections.filter((c) => isBucket(c.location)).map((c) => c.id)), [connections])
  const { hideStart, selectTable, selectNamespace } = navigation
  const onActivate = useCallback(
    (row: TreeItemRow) => {
      hideStart()
      if (row.kind === 'table') {
        const ref = { connectionId: row.connectionId, namespace: row.namespace, name: row.name }
        prefetchTable(client, ref)
        selectTable(ref)
      } else selectNamespace(row.connectionId, row.namespace)
    },
    [client, hideStart, selectTable, selectNamespace],
  )
  return (
    <>
      <Sidebar
        collapseButton={collapseButton}
        connections={connections}
        rows={tree.rows}
        selectedKey={navigation.selection?.key ?? null}
        filter={filter}
        onFilter={setFilter}
        onRefresh={() => tree.refresh()}
        onOpenNew={() => navigation.showStart()}
        onActivate={onActivate}
        addMenu={<AddMenu saved={remote.saved} onNew={remote.openNew} onOpen={remote.connect} />}
        onDropFiles={onDropFiles}
        importButton={importButton}
        onContextMenu={(row, x, y) => treeActions.openMenu({ kind: row.kind, connectionId: row.connectionId, namespace: row.namespace, name: row.name }, x, y)}
        remoteConnections={remoteIds}
        cloudConnections={cloudIds}
        onExpand={(row) => tree.expand(row.connectionId, row.namespace)}
        onCollapse={(row) => tree.collapse(row.key)}
        onRetry={(parentKey) => {
          const { connectionId, namespace } = parseNamespaceKey(parentKey)
          void tree.reload(connectionId, namespace)
        }}
      />
      <TreeActionLayer actions={treeActions} />
    </>
  )
}
