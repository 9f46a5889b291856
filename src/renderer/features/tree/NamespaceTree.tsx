import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react'
import { ChevronIcon, DatabaseIcon, FolderIcon, TableIcon } from '../../components/Icons'
import { ServerIcon } from '../../components/ServerIcon'
import { CloudIcon } from '../../components/CloudIcon'
import { Spinner } from '../../components/Spinner'
import { findByPrefix, type TreeItemRow, type TreeRow } from './treeModel'

const ROW_HEIGHT = 24
const INDENT = 14
const TYPE_AHEAD_RESET_MS = 700

export interface NamespaceTreeProps {
  rows: readonly TreeRow[]
  selectedKey: string | null
  /** Enter or click: open a table, select a namespace. */
  onActivate(row: TreeItemRow): void
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
 * Drop target handlers of a connection or namespace row. The drop is marked handled with
 * preventDefault (not stopPropagation), so the window's own drop handler still ends its overlay.
 */
function dropHandlers(row: TreeItemRow, onDropFiles: (row: TreeItemRow, transfer: DataTransfer) => void, setDropKey: (update: (key: string | null) => string | null) => void) {
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

/**
 * The namespace tree as a virtualized flat list (so 10,000 children stay smooth), with the
 * WAI-ARIA tree pattern: role tree/treeitem, aria-level/-setsize/-posinset/-expanded/-selected,
 * and a roving tabindex (one item is tabbable; arrows move focus).
 */
export function NamespaceTree({ rows, selectedKey, onActivate, onExpand, onCollapse, onRetry, label, onContextMenu, remoteConnections, cloudConnections, onDropFiles }: NamespaceTreeProps) {
  const [dropKey, setDropKey] = useState<string | null>(null)
  const scrollRef = useRef<HTMLDivElement>(null)
  const [focusedKey, setFocusedKey] = useState<string | null>(null)
  const focusAfterRender = useRef(false)
  const typeAhead = useRef({ text: '', at: 0 })

  const itemIndexes = useMemo(() => {
    const map = new Map<string, number>()
    rows.forEach((row, index) => {
      if (row.type === 'item') map.set(row.key, index)
    })
    return map
  }, [rows])

  // The tabbable item: the focused one if still shown, else the selected one, else the first.
  const activeKey = useMemo(() => {
    if (focusedKey && itemIndexes.has(focusedKey)) return focusedKey
    if (selectedKey && itemIndexes.has(selectedKey)) return selectedKey
    const first = rows.find((row) => row.type === 'item')
    return first ? first.key : null
  }, [focusedKey, selectedKey, itemIndexes, rows])

  // eslint-disable-next-line react-hooks/incompatible-library -- useVirtualizer returns functions React Compiler cannot memoize; this component is not compiled.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 12,
    // Keep the focused item rendered even when scrolled out of view, so keyboard focus is never lost.
    rangeExtractor: (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      const focused = activeKey ? itemIndexes.get(activeKey) : undefined
      if (focused === undefined || indexes.includes(focused)) return indexes
      return [...indexes, focused].sort((a, b) => a - b)
    },
  })

  const moveFocus = useCallback(
    (key: string) => {
      focusAfterRender.current = true
      setFocusedKey(key)
      const index = itemIndexes.get(key)
      if (index !== undefined) virtualizer.scrollToIndex(index, { align: 'auto' })
    },
    [itemIndexes, virtualizer],
  )

  // Move DOM focus once the newly focused item is rendered (it may have been virtualized away).
  useLayoutEffect(() => {
    if (!focusAfterRender.current || !activeKey) return
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(activeKey)}"]`)
    if (element) {
      focusAfterRender.current = false
      element.focus({ preventScroll: true })
    }
  })

  const items = useMemo(() => rows.filter((row): row is TreeItemRow => row.type === 'item'), [rows])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!activeKey) return
    const current = rows[itemIndexes.get(activeKey) ?? -1]
    if (!current || current.type !== 'item') return
    const position = items.indexOf(current)
    const go = (row: TreeItemRow | undefined) => {
      if (row) moveFocus(row.key)
    }
    const expandable = current.kind !== 'table'
    let handled = true
    if (onContextMenu && (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey))) {
      const box = (event.target as HTMLElement).getBoundingClientRect()
      onContextMenu(current, box.left + 24, box.bottom)
      event.preventDefault()
      event.stopPropagation()
      return
    }
    switch (event.key) {
      case 'ArrowDown':
        go(items[position + 1])
        break
      case 'ArrowUp':
        go(items[position - 1])
        break
      case 'Home':
        go(items[0])
        break
      case 'End':
        go(items[items.length - 1])
        break
      case 'ArrowRight':
        if (expandable && !current.expanded) onExpand(current)
        else if (expandable) {
          const next = items[position + 1]
          if (next && next.parentKey === current.key) go(next)
        }
        break
      case 'ArrowLeft':
        if (expandable && current.expanded) onCollapse(current)
        else if (current.parentKey) go(items.find((row) => row.key === current.parentKey))
        break
      case 'Enter':
      case ' ':
        if (expandable) {
          if (current.expanded) onCollapse(current)
          else onExpand(current)
        }
        onActivate(current)
        break
      default:
        handled = false
        if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
          const now = performance.now()
          const state = typeAhead.current
          state.text = now - state.at > TYPE_AHEAD_RESET_MS ? event.key : state.text + event.key
          state.at = now
          const from = itemIndexes.get(activeKey) ?? 0
          // A longer prefix may still match the current item; a fresh one starts after it.
          const found = findByPrefix(rows, state.text.length > 1 ? from - 1 : from, state.text)
          if (found >= 0) go(rows[found] as TreeItemRow)
          handled = true
        }
    }
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  return (
    <div className="tree-scroll" ref={scrollRef}>
      <div
        role="tree"
        aria-label={label}
        className="tree"
        onKeyDown={onKeyDown}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((virtualRow) => {
          const row = rows[virtualRow.index]
          if (!row) return null
          const style = { transform: `translateY(${virtualRow.start}px)`, height: ROW_HEIGHT }
          if (row.type === 'status') {
            return (
              <div key={row.key} role="none" className={`tree-status tree-status-${row.status}`} style={style}>
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
          const expandable = row.kind !== 'table'
          const selected = row.key === selectedKey
          return (
            <div
              key={row.key}
              data-key={row.key}
              role="treeitem"
              aria-label={row.name}
              aria-level={row.level}
              aria-setsize={row.setsize}
              aria-posinset={row.posinset}
              aria-expanded={expandable ? row.expanded : undefined}
              aria-selected={selected}
              aria-busy={row.busy || undefined}
              tabIndex={row.key === activeKey ? 0 : -1}
              className={`tree-item tree-${row.kind}${selected ? ' selected' : ''}${dropKey === row.key ? ' drop-target' : ''}`}
              {...(onDropFiles && expandable ? dropHandlers(row, onDropFiles, setDropKey) : {})}
              style={style}
              title={row.kind === 'table' ? `${[...row.namespace, row.name].join('/')}` : undefined}
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
              onClick={() => {
                setFocusedKey(row.key)
                if (expandable) {
                  if (row.expanded) onCollapse(row)
                  else onExpand(row)
                }
                onActivate(row)
              }}
            >
              <span style={{ width: (row.level - 1) * INDENT }} className="tree-indent" />
              {expandable ? <ChevronIcon className="tree-chevron" expanded={row.expanded} /> : <span className="tree-chevron" />}
              {row.kind === 'connection' && remoteConnections?.has(row.connectionId) ? (
                <ServerIcon className="tree-icon icon-connection icon-remote" />
              ) : row.kind === 'connection' && cloudConnections?.has(row.connectionId) ? (
                <CloudIcon className="tree-icon icon-connection icon-remote" />
              ) : row.kind === 'connection' ? (
                <DatabaseIcon className="tree-icon icon-connection" />
              ) : row.kind === 'namespace' ? (
                <FolderIcon className="tree-icon icon-namespace" open={row.expanded} />
              ) : (
                <TableIcon className="tree-icon icon-table" />
              )}
              <span className="tree-name">{row.name}</span>
              {row.busy && <Spinner label={`Loading ${row.name}`} />}
            </div>
          )
        })}
      </div>
    </div>
  )
}
