import { useState, type RefObject } from 'react'
import { offsetToCenter, offsetToReveal, type Geometry } from './geometry'

/** A visible column as the active cell needs it: where it starts and how wide it is. */
interface ColumnBox {
  getStart(): number
  getSize(): number
}

export interface ActiveCellOptions {
  viewKey: string
  rowCount: number
  columns: readonly ColumnBox[]
  gutterWidth: number
  g: Geometry
  scrollRef: RefObject<HTMLDivElement | null>
  offsetRef: RefObject<number>
  scrollToOffset(offset: number): void
}

/**
 * The grid's active cell: one per view (stored with the view's key and read as `null` under any other, so a new
 * view needs no second render to reset it), and the move that makes a cell active and scrolls it into sight.
 */
export function useActiveCell({ viewKey, rowCount, columns, gutterWidth, g, scrollRef, offsetRef, scrollToOffset }: ActiveCellOptions) {
  const [activeCell, setActiveCell] = useState<{ viewKey: string; cell: { row: number; col: number } | null }>({ viewKey, cell: null })
  const active = activeCell.viewKey === viewKey ? activeCell.cell : null
  const setActive = (cell: { row: number; col: number } | null) => setActiveCell({ viewKey, cell })

  const revealColumn = (col: number) => {
    const element = scrollRef.current
    const column = columns[col]
    if (!element || !column) return
    const left = gutterWidth + column.getStart()
    const right = left + column.getSize()
    if (left - gutterWidth < element.scrollLeft) element.scrollLeft = left - gutterWidth
    else if (right > element.scrollLeft + element.clientWidth) element.scrollLeft = right - element.clientWidth
  }

  /** Make (row, col) the active cell and scroll to it: as little as possible, or with the row centred. */
  const moveActive = (row: number, col: number, centre = false) => {
    if (rowCount === 0 || columns.length === 0) return null
    const r = Math.min(Math.max(row, 0), rowCount - 1)
    const c = Math.min(Math.max(col, 0), columns.length - 1)
    setActive({ row: r, col: c })
    scrollToOffset(centre ? offsetToCenter(g, r) : offsetToReveal(g, offsetRef.current ?? 0, r))
    revealColumn(c)
    return { row: r, col: c }
  }

  return { active, setActive, moveActive }
}
