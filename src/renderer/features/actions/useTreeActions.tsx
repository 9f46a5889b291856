import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react'
import type { CapabilitySnapshot, ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import type { WriteAction } from './ActionDialog'
// Loaded on first use: the first paint does not need the dialog's code (issue 13).
const ActionDialog = lazy(() => import('./ActionDialog').then((m) => ({ default: m.ActionDialog })))
import { TreeContextMenu } from './TreeContextMenu'
import { affectedNamespace, menuItemsFor, type NamespaceContents, type TreeActionTarget } from './treeActions'

export interface TreeActionsOptions {
  connections: readonly ConnectionInfo[]
  /** Reload one namespace's listing (after a write). */
  reload(connectionId: string, namespace: string[]): void
  /** Show a namespace's children (after creating one in it). */
  expand(connectionId: string, namespace: string[]): void
  /** A write changed `target` (dropped, renamed): the app may move its selection. */
  onChanged?(action: WriteAction, target: TreeActionTarget, result: { name?: string }): void
  /** What a namespace holds according to the tree's loaded listing; undefined when not loaded. */
  contentsOf?(connectionId: string, namespace: readonly string[]): NamespaceContents | undefined
}

/**
 * The tree's write operations: the context menu (items disabled where the connection's capability
 * map says the server does not support them), the dialog of the chosen action, and the reload after.
 */
export function useTreeActions({ connections, reload, expand, onChanged, contentsOf }: TreeActionsOptions) {
  const [menu, setMenu] = useState<{ target: TreeActionTarget; x: number; y: number; contents?: NamespaceContents } | null>(null)
  const [dialog, setDialog] = useState<{ action: WriteAction; target: TreeActionTarget } | null>(null)
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
      const known = target.kind === 'namespace' ? contentsOf?.(target.connectionId, target.namespace) : undefined
      setMenu({ target, x, y, contents: known })
      refreshCapabilities(target.connectionId)
      if (target.kind !== 'namespace' || known) return
      // Not loaded in the tree: look (one item of each kind is enough to know it is not empty).
      const input = { connectionId: target.connectionId, namespace: target.namespace, limit: 1 }
      Promise.all([call('namespaces/list', input), call('tables/list', input)])
        .then(([namespaces, tables]) => {
          const contents = { namespaces: namespaces.items.length, tables: tables.items.length, atLeast: true }
          setMenu((current) => (current?.target === target ? { ...current, contents } : current))
        })
        .catch(() => undefined)
    },
    [refreshCapabilities, contentsOf],
  )

  const closeMenu = useCallback(() => setMenu(null), [])

  let element: ReactNode = null
  if (menu) {
    const items = menuItemsFor(menu.target, capabilities.get(menu.target.connectionId), menu.contents)
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
          else setDialog({ action: item.id, target: menu.target })
        }}
      />
    )
  } else if (dialog) {
    const { action, target } = dialog
    element = (
      <Suspense fallback={null}>
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
      </Suspense>
    )
  }

  return { openMenu, element, capabilities, refreshCapabilities }
}
