import { useCallback, useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { objectStoreScheme, type AppErrorData, type ConnectionInfo } from '../../../contract'
import { invalidate } from '../../queries/invalidate'
import { capabilitiesQuery } from '../../queries/connections'
import { contentsQuery } from '../../queries/namespaces'
import type { WriteAction } from './ActionDialog'
import { affectedNamespace, menuItemsFor, unsupportedReason, withNamespaceContents, type MenuItem, type NamespaceContents, type TreeActionTarget } from './treeActions'
import { READ_ONLY_REASON } from '../lifecycle'

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
  /** The menu's **Open in new tab** on a table. */
  openInNewTab?(target: TreeActionTarget): void
}

/** What is open: the context menu, or the dialog of the action chosen in it (one at a time). */
export type TreeActionsOpen =
  | { kind: 'menu'; target: TreeActionTarget; x: number; y: number; contents?: NamespaceContents }
  | { kind: 'write'; action: WriteAction; target: TreeActionTarget }
  | { kind: 'cascade' | 'properties' | 'new-table'; target: TreeActionTarget }

/**
 * The tree's write operations: the context menu's items (disabled where the connection's capability map says the
 * server does not support them, or where the connection is read-only), the dialog of the chosen action, and what
 * the tree shows after it. `TreeActionLayer` renders them.
 */
export function useTreeActions({ connections, reload, expand, onChanged, contentsOf, openInNewTab }: TreeActionsOptions) {
  const [open, setOpen] = useState<TreeActionsOpen | null>(null)
  const menu = open?.kind === 'menu' ? open : null
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

  const openMenu = useCallback(
    (target: TreeActionTarget, x: number, y: number) => {
      const known = target.kind === 'namespace' ? contentsOf?.(target.connectionId, target.namespace) : undefined
      setOpen({ kind: 'menu', target, x, y, contents: known })
    },
    [contentsOf],
  )
  const close = useCallback(() => setOpen(null), [])

  let items: MenuItem[] = []
  if (menu) {
    // What the namespace holds: the answer of namespaces/contents (fresh) once it is here, else the tree's listing.
    const known = listed ? { namespaces: listed.namespaces.length, tables: listed.tables.length, atLeast: listed.truncated } : menu.contents
    const caps = asks ? capabilities : null
    const base = menuItemsFor(menu.target, caps, known)
    const withContents = menu.target.kind === 'namespace' ? withNamespaceContents(base, listed) : base
    // A read-only connection: every write is disabled with the reason — unless it is already disabled for a reason
    // that switching Read-only off would not lift (an operation the catalog cannot do at all).
    const readOnly = menuConnection?.readOnly === true
    items = readOnly ? withContents.map((i) => (i.operation && !unsupportedReason(caps, i.operation) ? { ...i, disabled: true, reason: READ_ONLY_REASON } : i)) : withContents
  }

  /** The menu's item chosen: Refresh runs now, every other item opens its dialog. */
  const choose = (item: MenuItem) => {
    if (!menu) return
    const { target } = menu
    if (item.id === 'refresh') {
      setOpen(null)
      reload(target.connectionId, target.namespace)
    } else if (item.id === 'open-new-tab') {
      setOpen(null)
      openInNewTab?.(target)
    }
    else if (item.id === 'create-table') setOpen({ kind: 'new-table', target })
    else if (item.id === 'drop-namespace-cascade') setOpen({ kind: 'cascade', target })
    else if (item.id === 'namespace-properties') setOpen({ kind: 'properties', target })
    else setOpen({ kind: 'write', action: item.id, target })
  }

  /** A write failed (its dialog shows why and stays open). */
  const failed = (action: WriteAction, target: TreeActionTarget, error: AppErrorData) => {
    // The client has learnt the route is unsupported: next time the item is disabled with the reason.
    if (error.code === 'unsupported') void invalidate.capabilities(client, target.connectionId)
    // Not empty after all (changed behind the app's back): show what it holds now.
    if (action === 'drop-namespace' && error.code !== 'unsupported') reload(target.connectionId, target.namespace)
  }

  /** A write succeeded. What it made stale is its rule's (queries/invalidate.ts); here, what the tree shows next. */
  const done = (action: WriteAction, target: TreeActionTarget, result: { name?: string; namespace?: string[] }) => {
    setOpen(null)
    if (action === 'create-namespace') expand(target.connectionId, affectedNamespace(action, target))
    // A table renamed into another namespace: show it there.
    if (result.namespace) {
      for (let depth = 1; depth <= result.namespace.length; depth++) expand(target.connectionId, result.namespace.slice(0, depth))
    }
    onChanged?.(action, target, result)
  }

  /** A namespace dropped with everything in it. */
  const cascadeDone = (target: TreeActionTarget) => {
    setOpen(null)
    onChanged?.('drop-namespace', target, {})
  }

  /** A table created from the schema editor: show its namespace's listing. */
  const tableCreated = (target: TreeActionTarget) => {
    setOpen(null)
    expand(target.connectionId, target.namespace)
  }

  return { openMenu, open, items, choose, close, failed, done, cascadeDone, tableCreated }
}

export type TreeActions = ReturnType<typeof useTreeActions>

function isObjectStoreLocation(location: string | undefined): boolean {
  const scheme = location ? objectStoreScheme(location) : null
  return scheme !== null && scheme !== 'file'
}
