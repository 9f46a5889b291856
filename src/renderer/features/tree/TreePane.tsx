import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState, type ReactNode } from 'react'
import type { TableRef } from '../../../contract'
import { parseNamespaceKey } from '../../lib/nodeKeys'
import { useConnections } from '../../queries/connections'
import { TreeActionLayer, useTreeActions } from '../actions'
import { AddMenu, isBucket, useRemote } from '../connections'
import { useNavigation } from '../navigation'
import { prefetchTable } from '../table'
import { Sidebar } from './Sidebar'
import { namespaceKey, type TreeItemRow } from './treeModel'
import { useNamespaceTree } from './useNamespaceTree'
import { useWorkbench } from '../workbench'

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
  const { hideStart, selectTable, selectNamespace } = navigation
  const { openTable } = useWorkbench().actions
  const openTableRef = useCallback(
    (ref: TableRef, newTab: boolean) => {
      hideStart()
      prefetchTable(client, ref)
      // A new tab is opened first; the selection then finds it showing the table (else it replaces the tab's table).
      if (newTab) openTable(ref, { newTab: true })
      selectTable(ref)
    },
    [client, hideStart, selectTable, openTable],
  )
  const treeActions = useTreeActions({
    connections,
    reload: (connectionId, namespace) => void tree.reload(connectionId, namespace),
    expand: tree.expand,
    onChanged: (action, target, result) => navigation.afterTreeWrite({ action, target, result }),
    contentsOf,
    openInNewTab: (target) => openTableRef({ connectionId: target.connectionId, namespace: target.namespace, name: target.name }, true),
  })
  const remoteIds = useMemo(() => new Set(connections.filter((c) => c.kind === 'rest').map((c) => c.id)), [connections])
  const cloudIds = useMemo(() => new Set(connections.filter((c) => isBucket(c.location)).map((c) => c.id)), [connections])
  const onActivate = useCallback(
    (row: TreeItemRow, options?: { newTab?: boolean }) => {
      if (row.kind === 'table') openTableRef({ connectionId: row.connectionId, namespace: row.namespace, name: row.name }, options?.newTab === true)
      else {
        hideStart()
        selectNamespace(row.connectionId, row.namespace)
      }
    },
    [openTableRef, hideStart, selectNamespace],
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
