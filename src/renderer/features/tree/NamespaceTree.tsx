import { useState } from 'react'
import type { TreeItemRow, TreeRow } from './treeModel'
import { dropHandlers, TreeItem, TreeStatusLine } from './TreeRows'
import { ROW_HEIGHT, useTreeFocus } from './useTreeFocus'
import { toggle, useTreeKeys } from './useTreeKeys'

export interface NamespaceTreeProps {
  rows: readonly TreeRow[]
  selectedKey: string | null
  /** Enter or click: open a table, select a namespace. Ctrl/Cmd+click, middle-click and Ctrl/Cmd+Enter ask for a new tab. */
  onActivate(row: TreeItemRow, options?: { newTab?: boolean }): void
  onExpand(row: TreeItemRow): void
  onCollapse(row: TreeItemRow): void
  onRetry(parentKey: string): void
  label: string
  /** Right-click, the Menu key or Shift+F10 on an item: open its context menu at (x, y). */
  onContextMenu?(row: TreeItemRow, x: number, y: number): void
  /** Connections shown with the server icon (REST). */
  remoteConnections?: ReadonlySet<string>
  /** Roots that are catalogs on object storage (shown with a cloud). */
  cloudConnections?: ReadonlySet<string>
  /** Files dropped on a connection or namespace row (import into it); the row highlights while dragged over. */
  onDropFiles?(row: TreeItemRow, transfer: DataTransfer): void
}

/**
 * The namespace tree as a virtualized flat list (so 10,000 children stay smooth), with the
 * WAI-ARIA tree pattern: role tree/treeitem, aria-level/-setsize/-posinset/-expanded/-selected,
 * and a roving tabindex (one item is tabbable; arrows move focus: useTreeFocus, useTreeKeys).
 */
export function NamespaceTree({ rows, selectedKey, onActivate, onExpand, onCollapse, onRetry, label, onContextMenu, remoteConnections, cloudConnections, onDropFiles }: NamespaceTreeProps) {
  const [dropKey, setDropKey] = useState<string | null>(null)
  const { scrollRef, virtualizer, itemIndexes, activeKey, setFocusedKey, moveFocus } = useTreeFocus(rows, selectedKey)
  const onKeyDown = useTreeKeys({ rows, itemIndexes, activeKey, moveFocus, onActivate, onExpand, onCollapse, onContextMenu })

  return (
    <div className="tree-scroll" ref={scrollRef}>
      <div role="tree" aria-label={label} className="tree" onKeyDown={onKeyDown} style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtualRow) => {
          const row = rows[virtualRow.index]
          if (!row) return null
          const style = { transform: `translateY(${virtualRow.start}px)`, height: ROW_HEIGHT }
          if (row.type === 'status') return <TreeStatusLine key={row.key} row={row} style={style} onRetry={onRetry} />
          const isConnection = row.kind === 'connection'
          return (
            <TreeItem
              key={row.key}
              row={row}
              style={style}
              selected={row.key === selectedKey}
              tabbable={row.key === activeKey}
              dropTarget={dropKey === row.key}
              remote={isConnection && remoteConnections?.has(row.connectionId) === true}
              cloud={isConnection && cloudConnections?.has(row.connectionId) === true}
              drop={onDropFiles && row.kind !== 'table' ? dropHandlers(row, onDropFiles, setDropKey) : undefined}
              onFocus={() => setFocusedKey(row.key)}
              onContextMenu={
                onContextMenu
                  ? (event) => {
                      event.preventDefault()
                      moveFocus(row.key)
                      onContextMenu(row, event.clientX, event.clientY)
                    }
                  : undefined
              }
              onClick={(event) => {
                setFocusedKey(row.key)
                toggle(row, onExpand, onCollapse)
                onActivate(row, { newTab: event.ctrlKey || event.metaKey })
              }}
              onMiddleClick={
                row.kind === 'table'
                  ? () => {
                      setFocusedKey(row.key)
                      onActivate(row, { newTab: true })
                    }
                  : undefined
              }
            />
          )
        })}
      </div>
    </div>
  )
}
