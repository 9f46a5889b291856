import type { ReactNode } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { PlusIcon, RefreshIcon } from '../../components/Icons'
import { NamespaceTree } from './NamespaceTree'
import type { TreeItemRow, TreeRow } from './treeModel'

export interface SidebarProps {
  connections: readonly ConnectionInfo[]
  rows: readonly TreeRow[]
  selectedKey: string | null
  filter: string
  onFilter(text: string): void
  onRefresh(): void
  onOpenNew(): void
  onActivate(row: TreeItemRow, options?: { newTab?: boolean }): void
  onExpand(row: TreeItemRow): void
  onCollapse(row: TreeItemRow): void
  onRetry(parentKey: string): void
  /** A header button beside "+": connect to a server (new or saved). */
  addMenu?: ReactNode
  onContextMenu?(row: TreeItemRow, x: number, y: number): void
  remoteConnections?: ReadonlySet<string>
  cloudConnections?: ReadonlySet<string>
  /** Files dropped on a connection or namespace row: import them there. */
  onDropFiles?(row: TreeItemRow, transfer: DataTransfer): void
  /** A header button for "Import…" (files into the selected namespace). */
  importButton?: ReactNode
  /** A header button that hides the sidebar. */
  collapseButton?: ReactNode
}

/** Left pane: the namespace tree of every open connection, with its filter and refresh. */
export function Sidebar(props: SidebarProps) {
  const { connections, rows, filter } = props
  return (
    <nav className="sidebar" aria-label="Catalogs">
      <div className="sidebar-header">
        <span className="sidebar-title">Catalogs</span>
        <button type="button" className="icon-button" aria-label="Open directory" title="Open directory" onClick={props.onOpenNew}>
          <PlusIcon />
        </button>
        {props.addMenu}
        {props.importButton}
        <button type="button" className="icon-button" aria-label="Refresh tree" title="Refresh tree" onClick={props.onRefresh} disabled={connections.length === 0}>
          <RefreshIcon />
        </button>
        {props.collapseButton}
      </div>
      <div className="sidebar-filter">
        <input
          type="search"
          className="text-input small"
          placeholder="Filter loaded items"
          aria-label="Filter loaded namespaces and tables"
          value={filter}
          onChange={(event) => props.onFilter(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') props.onFilter('')
          }}
        />
      </div>
      {connections.length === 0 ? (
        <div className="sidebar-empty muted">No catalog open</div>
      ) : filter.trim() !== '' && rows.length === 0 ? (
        <div className="sidebar-empty muted">Nothing loaded matches “{filter.trim()}”</div>
      ) : (
        <NamespaceTree
          rows={rows}
          selectedKey={props.selectedKey}
          onActivate={props.onActivate}
          onExpand={props.onExpand}
          onCollapse={props.onCollapse}
          onRetry={props.onRetry}
          onContextMenu={props.onContextMenu}
          remoteConnections={props.remoteConnections}
          cloudConnections={props.cloudConnections}
          onDropFiles={props.onDropFiles}
          label="Namespaces and tables"
        />
      )}
    </nav>
  )
}
