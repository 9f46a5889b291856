import { useMemo, useRef, type KeyboardEvent } from 'react'
import { findByPrefix, type TreeItemRow, type TreeRow } from './treeModel'

const TYPE_AHEAD_RESET_MS = 700

export interface TreeKeysOptions {
  rows: readonly TreeRow[]
  itemIndexes: ReadonlyMap<string, number>
  /** The tabbable item, the one the keys act on. */
  activeKey: string | null
  moveFocus(key: string): void
  /** Enter or Space; Ctrl/Cmd+Enter asks for a new tab. */
  onActivate(row: TreeItemRow, options?: { newTab?: boolean }): void
  onExpand(row: TreeItemRow): void
  onCollapse(row: TreeItemRow): void
  onContextMenu?(row: TreeItemRow, x: number, y: number): void
}

/** Expand a collapsed connection or namespace, collapse an expanded one (a table has nothing to toggle). */
export function toggle(row: TreeItemRow, onExpand: (row: TreeItemRow) => void, onCollapse: (row: TreeItemRow) => void) {
  if (row.kind === 'table') return
  if (row.expanded) onCollapse(row)
  else onExpand(row)
}

/**
 * The tree's keyboard, after the WAI-ARIA tree pattern: arrows, Home and End move focus, Right and Left expand,
 * collapse or go to the first child or the parent, Enter and Space toggle and activate, the Menu key or Shift+F10
 * opens the context menu, and typed characters jump to the next item whose name starts with them (type-ahead).
 */
export function useTreeKeys({ rows, itemIndexes, activeKey, moveFocus, onActivate, onExpand, onCollapse, onContextMenu }: TreeKeysOptions) {
  const typeAhead = useRef({ text: '', at: 0 })
  const items = useMemo(() => rows.filter((row): row is TreeItemRow => row.type === 'item'), [rows])

  return (event: KeyboardEvent<HTMLDivElement>) => {
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
        toggle(current, onExpand, onCollapse)
        onActivate(current, { newTab: event.key === 'Enter' && (event.ctrlKey || event.metaKey) })
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
}
