import { useCallback, useState, type ReactNode } from 'react'
import type { CapabilitySnapshot, ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import { ActionDialog, type WriteAction } from './ActionDialog'
import { TreeContextMenu } from './TreeContextMenu'
import { affectedNamespace, menuItemsFor, type TreeActionTarget } from './treeActions'
import { NewTableDialog } from '../lifecycle/SchemaEditor'

export interface TreeActionsOptions {
  connections: readonly ConnectionInfo[]
  /** Reload one namespace's listing (after a write). */
  reload(connectionId: string, namespace: string[]): void
  /** Show a namespace's children (after creating one in it). */
  expand(connectionId: string, namespace: string[]): void
  /** A write changed `target` (dropped, renamed): the app may move its selection. */
  onChanged?(action: WriteAction, target: TreeActionTarget, result: { name?: string }): void
}

/**
 * The tree's write operations: the context menu (items disabled where the connection's capability
 * map says the server does not support them), the dialog of the chosen action, and the reload after.
 */
export function useTreeActions({ connections, reload, expand, onChanged }: TreeActionsOptions) {
  const [menu, setMenu] = useState<{ target: TreeActionTarget; x: number; y: number } | null>(null)
  const [dialog, setDialog] = useState<{ action: WriteAction; target: TreeActionTarget } | null>(null)
  // "New table…" opens the schema editor (src/renderer/features/lifecycle).
  const [newTable, setNewTable] = useState<TreeActionTarget | null>(null)
  // connectionId → snapshot (null: a directory, everything works). Absent: not fetched yet.
  const [capabilities, setCapabilities] = useState<ReadonlyMap<string, CapabilitySnapshot | null>>(() => new Map())

  const refreshCapabilities = useCallback(
    (connectionId: string) => {
      if (connections.find((c) => c.id === connectionId)?.kind !== 'rest') return
      call('connections/capabilities', { connectionId })
        .then((snapshot) => setCapabilities((previous) => new Map(previous).set(connectionId, snapshot)))
        .catch(() => undefined)
    },
    [connections],
  )

  const openMenu = useCallback(
    (target: TreeActionTarget, x: number, y: number) => {
      setMenu({ target, x, y })
      refreshCapabilities(target.connectionId)
    },
    [refreshCapabilities],
  )

  const closeMenu = useCallback(() => setMenu(null), [])

  let element: ReactNode = null
  if (menu) {
    const items = menuItemsFor(menu.target, capabilities.get(menu.target.connectionId))
    element = (
      <TreeContextMenu
        x={menu.x}
        y={menu.y}
        label={`Actions for ${menu.target.name}`}
        items={items}
        onClose={closeMenu}
        onChoose={(item) => {
          setMenu(null)
          if (item.id === 'refresh') reload(menu.target.connectionId, menu.target.namespace)
          else if (item.id === 'create-table') setNewTable(menu.target)
          else setDialog({ action: item.id, target: menu.target })
        }}
      />
    )
  } else if (dialog) {
    const { action, target } = dialog
    element = (
      <ActionDialog
        action={action}
        target={target}
        onCancel={() => setDialog(null)}
        onFailed={(error) => {
          // The client has learnt the route is unsupported: next time the item is disabled with the reason.
          if (error.code === 'unsupported') refreshCapabilities(target.connectionId)
        }}
        onDone={(result) => {
          setDialog(null)
          const namespace = affectedNamespace(action, target)
          reload(target.connectionId, namespace)
          if (action === 'create-namespace') expand(target.connectionId, namespace)
          onChanged?.(action, target, result)
        }}
      />
    )
  } else if (newTable) {
    element = (
      <NewTableDialog
        connectionId={newTable.connectionId}
        namespace={newTable.namespace}
        where={newTable.kind === 'connection' ? `the root of ${newTable.name}` : `“${newTable.namespace.join(' / ')}”`}
        onCancel={() => setNewTable(null)}
        onDone={() => {
          setNewTable(null)
          reload(newTable.connectionId, newTable.namespace)
          expand(newTable.connectionId, newTable.namespace)
        }}
      />
    )
  }

  return { openMenu, element, capabilities, refreshCapabilities }
}
