import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { objectStoreScheme, type ConnectionInfo } from '../../../contract'
import { invalidate } from '../../queries/invalidate'
import { capabilitiesQuery } from '../../queries/connections'
import { contentsQuery } from '../../queries/namespaces'
import type { WriteAction } from './ActionDialog'
// Loaded on first use: the first paint does not need the dialog's code, so the cold open is faster.
const ActionDialog = lazy(() => import('./ActionDialog').then((m) => ({ default: m.ActionDialog })))
import { ContextMenu as TreeContextMenu } from '../../components/ContextMenu'
import { affectedNamespace, menuItemsFor, unsupportedReason, withNamespaceContents, type NamespaceContents, type TreeActionTarget } from './treeActions'
import { CascadeDropDialog, PropertiesDialog, READ_ONLY_REASON, NewTableDialog } from '../lifecycle'

export interface TreeActionsOptions {
  connections: readonly ConnectionInfo[]
  /** List one namespace again (the menu's Refresh; a namespace that turned out not empty). */
  reload(connectionId: string, namespace: string[]): void
  /** Show a namespace's children (after creating one in it). */
  expand(connectionId: string, namespace: string[]): void
  /** A write changed `target` (dropped, renamed): the app may move its selection. */
  onChanged?(action: WriteAction, target: TreeActionTarget, result: { name?: string; namespace?: string[] }): void
  /** What a namespace holds according to the tree's loaded listing; undefined when not loaded. */
  contentsOf?(connectionId: string, namespace: readonly string[]): NamespaceContents | undefined
}

/**
 * The tree's write operations: the context menu (items disabled where the connection's capability
 * map says the server does not support them), the dialog of the chosen action, and what it makes stale after.
 */
export function useTreeActions({ connections, reload, expand, onChanged, contentsOf }: TreeActionsOptions) {
  const [menu, setMenu] = useState<{ target: TreeActionTarget; x: number; y: number; contents?: NamespaceContents } | null>(null)
  const [dialog, setDialog] = useState<{ action: WriteAction; target: TreeActionTarget } | null>(null)
  // "New table…" opens the schema editor (src/renderer/features/lifecycle).
  const [newTable, setNewTable] = useState<TreeActionTarget | null>(null)
  const [nsDialog, setNsDialog] = useState<{ kind: 'cascade' | 'properties'; target: TreeActionTarget } | null>(null)
  const client = useQueryClient()
  // The menu's connection: REST servers, and catalogs on object storage (what lancedb cannot do there is disabled
  // with the reason), are asked what they support each time a menu opens; a directory can do everything.
  const menuConnection = menu ? connections.find((c) => c.id === menu.target.connectionId) : undefined
  const asks = menuConnection !== undefined && (menuConnection.kind === 'rest' || isObjectStoreLocation(menuConnection.location))
  const capabilities = useQuery({ ...capabilitiesQuery(menuConnection?.id ?? ''), enabled: asks }).data
  // A namespace's contents, asked for when its menu opens (the tree's listing may be stale): "Drop namespace…" is
  // disabled when it is not empty, and "Drop namespace and contents…" says what it deletes.
  const namespaceMenu = menu?.target.kind === 'namespace' ? menu.target : null
  const listed = useQuery({ ...contentsQuery(namespaceMenu?.connectionId ?? '', namespaceMenu?.namespace ?? []), enabled: namespaceMenu !== null }).data
  const refreshCapabilities = useCallback((connectionId: string) => void invalidate.capabilities(client, connectionId), [client])

  const openMenu = useCallback(
    (target: TreeActionTarget, x: number, y: number) => {
      const known = target.kind === 'namespace' ? contentsOf?.(target.connectionId, target.namespace) : undefined
      setMenu({ target, x, y, contents: known })
    },
    [contentsOf],
  )

  const closeMenu = useCallback(() => setMenu(null), [])

  let element: ReactNode = null
  if (menu) {
    // What the namespace holds: the answer of namespaces/contents (fresh) once it is here, else the tree's listing.
    const known = listed ? { namespaces: listed.namespaces.length, tables: listed.tables.length, atLeast: listed.truncated } : menu.contents
    const base = menuItemsFor(menu.target, asks ? capabilities : null, known)
    const withContents = menu.target.kind === 'namespace' ? withNamespaceContents(base, listed) : base
    // A read-only connection: every write is disabled with the reason — unless it is already disabled for a reason
    // that switching Read-only off would not lift (an operation the catalog cannot do at all).
    const readOnly = connections.find((c) => c.id === menu.target.connectionId)?.readOnly === true
    const caps = asks ? capabilities : null
    const items = readOnly ? withContents.map((i) => (i.operation && !unsupportedReason(caps, i.operation) ? { ...i, disabled: true, reason: READ_ONLY_REASON } : i)) : withContents
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
          else if (item.id === 'drop-namespace-cascade') setNsDialog({ kind: 'cascade', target: menu.target })
          else if (item.id === 'namespace-properties') setNsDialog({ kind: 'properties', target: menu.target })
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
            // Not empty after all (changed behind the app's back): show what it holds now.
            if (action === 'drop-namespace' && error.code !== 'unsupported') reload(target.connectionId, target.namespace)
          }}
          onDone={(result) => {
            // What the write made stale is its rule's (queries/invalidate.ts); here, what the tree shows next.
            setDialog(null)
            if (action === 'create-namespace') expand(target.connectionId, affectedNamespace(action, target))
            // A table renamed into another namespace: show it there.
            if (result.namespace) {
              for (let depth = 1; depth <= result.namespace.length; depth++) expand(target.connectionId, result.namespace.slice(0, depth))
            }
            onChanged?.(action, target, result)
          }}
        />
      </Suspense>
    )
  } else if (nsDialog?.kind === 'properties') {
    element = <PropertiesDialog target={nsDialog.target} onClose={() => setNsDialog(null)} />
  } else if (nsDialog?.kind === 'cascade') {
    const target = nsDialog.target
    element = (
      <CascadeDropDialog
        target={target}
        onCancel={() => setNsDialog(null)}
        onDone={() => {
          setNsDialog(null)
          onChanged?.('drop-namespace', target, {})
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
          expand(newTable.connectionId, newTable.namespace)
        }}
      />
    )
  }

  return { openMenu, element }
}

function isObjectStoreLocation(location: string | undefined): boolean {
  const scheme = location ? objectStoreScheme(location) : null
  return scheme !== null && scheme !== 'file'
}
