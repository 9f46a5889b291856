import type { CSSProperties, DragEvent, MouseEvent } from 'react'
import { ChevronIcon, DatabaseIcon, FolderIcon, TableIcon } from '../../components/Icons'
import { ServerIcon } from '../../components/ServerIcon'
import { CloudIcon } from '../../components/CloudIcon'
import { Spinner } from '../../components/Spinner'
import type { TreeItemRow, TreeStatusRow } from './treeModel'

const INDENT = 14

/** A listing's state under its parent: loading (with a spinner), an error (with Retry) or empty. */
export function TreeStatusLine({ row, style, onRetry }: { row: TreeStatusRow; style: CSSProperties; onRetry(parentKey: string): void }) {
  return (
    <div role="none" className={`tree-status tree-status-${row.status}`} style={style}>
      <span style={{ width: (row.level - 1) * INDENT + 18 }} className="tree-indent" />
      {row.status === 'loading' && <Spinner label={row.text} />}
      <span className="tree-status-text" title={row.error?.hint ? `${row.text} ${row.error.hint}` : row.text}>
        {row.text}
      </span>
      {row.status === 'error' && (
        <button type="button" className="link-button" tabIndex={-1} onClick={() => onRetry(row.parentKey)}>
          Retry
        </button>
      )}
    </div>
  )
}

export interface TreeItemProps {
  row: TreeItemRow
  style: CSSProperties
  selected: boolean
  /** The roving tabindex: the one item Tab reaches. */
  tabbable: boolean
  /** Files are dragged over this row. */
  dropTarget: boolean
  /** Connections shown with the server icon (REST), and roots that are catalogs on object storage (a cloud). */
  remote: boolean
  cloud: boolean
  onFocus(): void
  onClick(event: MouseEvent): void
  /** The middle button (a table: open it in a new tab). */
  onMiddleClick?(): void
  onContextMenu?(event: MouseEvent): void
  /** The row's drop target handlers (connection and namespace rows that take files). */
  drop?: ReturnType<typeof dropHandlers>
}

/** One connection, namespace or table: a WAI-ARIA treeitem with its level, position, expanded and selected state. */
export function TreeItem({ row, style, selected, tabbable, dropTarget, remote, cloud, onFocus, onClick, onMiddleClick, onContextMenu, drop }: TreeItemProps) {
  const expandable = row.kind !== 'table'
  return (
    <div
      data-key={row.key}
      role="treeitem"
      aria-label={row.name}
      aria-level={row.level}
      aria-setsize={row.setsize}
      aria-posinset={row.posinset}
      aria-expanded={expandable ? row.expanded : undefined}
      aria-selected={selected}
      aria-busy={row.busy || undefined}
      tabIndex={tabbable ? 0 : -1}
      className={`tree-item tree-${row.kind}${selected ? ' selected' : ''}${dropTarget ? ' drop-target' : ''}`}
      {...drop}
      style={style}
      title={row.kind === 'table' ? `${[...row.namespace, row.name].join('/')}` : undefined}
      onFocus={onFocus}
      onContextMenu={onContextMenu}
      onClick={onClick}
      // The middle button's own meaning (autoscroll) is not wanted on a row.
      onMouseDown={onMiddleClick ? (event) => event.button === 1 && event.preventDefault() : undefined}
      onAuxClick={onMiddleClick ? (event) => event.button === 1 && onMiddleClick() : undefined}
    >
      <span style={{ width: (row.level - 1) * INDENT }} className="tree-indent" />
      {expandable ? <ChevronIcon className="tree-chevron" expanded={row.expanded} /> : <span className="tree-chevron" />}
      <ItemIcon row={row} remote={remote} cloud={cloud} />
      <span className="tree-name">{row.name}</span>
      {row.busy && <Spinner label={`Loading ${row.name}`} />}
    </div>
  )
}

function ItemIcon({ row, remote, cloud }: { row: TreeItemRow; remote: boolean; cloud: boolean }) {
  if (row.kind === 'connection' && remote) return <ServerIcon className="tree-icon icon-connection icon-remote" />
  if (row.kind === 'connection' && cloud) return <CloudIcon className="tree-icon icon-connection icon-remote" />
  if (row.kind === 'connection') return <DatabaseIcon className="tree-icon icon-connection" />
  if (row.kind === 'namespace') return <FolderIcon className="tree-icon icon-namespace" open={row.expanded} />
  return <TableIcon className="tree-icon icon-table" />
}

/**
 * Drop target handlers of a connection or namespace row. The drop is marked handled with
 * preventDefault (not stopPropagation), so the window's own drop handler still ends its overlay.
 */
export function dropHandlers(row: TreeItemRow, onDropFiles: (row: TreeItemRow, transfer: DataTransfer) => void, setDropKey: (update: (key: string | null) => string | null) => void) {
  const carriesFiles = (event: DragEvent) => !!event.dataTransfer && [...event.dataTransfer.types].includes('Files')
  const over = (event: DragEvent) => {
    if (!carriesFiles(event)) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'copy'
    setDropKey(() => row.key)
  }
  return {
    onDragEnter: over,
    onDragOver: over,
    onDragLeave: (event: DragEvent<HTMLElement>) => {
      if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return
      setDropKey((key) => (key === row.key ? null : key))
    },
    onDrop: (event: DragEvent) => {
      setDropKey(() => null)
      if (!carriesFiles(event) || event.dataTransfer.files.length === 0) return
      event.preventDefault()
      onDropFiles(row, event.dataTransfer)
    },
  }
}
