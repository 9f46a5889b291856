import type { KeyboardEvent } from 'react'

type Cell = { row: number; col: number }

export interface GridKeys {
  /** The active cell, if any; keys move from the first row in view otherwise. */
  active: Cell | null
  firstRow: number
  /** Rows a PageUp/PageDown moves: a viewport's worth less one, so one row stays in sight. */
  pageRows: number
  rowCount: number
  columnCount: number
  /** Move the active cell there; `extend` (Shift) grows the selection instead of collapsing it. */
  moveTo(row: number, col: number, extend: boolean): void
  /** The selection's own keys (copy, select all, Escape…): true when it took the key. */
  selectionKey(event: KeyboardEvent<HTMLDivElement>, current: Cell): boolean
  /** The Menu key or Shift+F10 on the active cell. */
  openMenu(cell: Cell): void
}

/**
 * The grid's keyboard, spreadsheet-like: arrows, PageUp/PageDown, Home/End (Ctrl: the table's corners),
 * Shift to extend, the selection's keys, and the context menu keys.
 */
export function onGridKeyDown(event: KeyboardEvent<HTMLDivElement>, keys: GridKeys): void {
  const { active, pageRows, rowCount, moveTo } = keys
  const current = active ?? { row: keys.firstRow, col: 0 }
  const ctrl = event.ctrlKey || event.metaKey
  const lastCol = keys.columnCount - 1
  const extend = event.shiftKey
  const moves: Record<string, () => void> = {
    ArrowDown: () => moveTo(current.row + 1, current.col, extend),
    ArrowUp: () => moveTo(current.row - 1, current.col, extend),
    ArrowRight: () => moveTo(current.row, current.col + 1, extend),
    ArrowLeft: () => moveTo(current.row, current.col - 1, extend),
    PageDown: () => moveTo(current.row + pageRows, current.col, extend),
    PageUp: () => moveTo(current.row - pageRows, current.col, extend),
    Home: () => (ctrl ? moveTo(0, 0, extend) : moveTo(current.row, 0, extend)),
    End: () => (ctrl ? moveTo(rowCount - 1, lastCol, extend) : moveTo(current.row, lastCol, extend)),
  }
  if (keys.selectionKey(event, current)) {
    event.preventDefault()
    return
  }
  if ((event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) && active) {
    event.preventDefault()
    keys.openMenu(active)
    return
  }
  const move = moves[event.key]
  if (move) {
    event.preventDefault()
    move()
  }
}
