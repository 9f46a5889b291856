/**
 * The grid's selection: a rectangle of cells between an anchor (where it started) and a focus (the
 * active cell, which Shift+arrows and Shift+click move). Whole rows, whole columns and "all" are
 * rectangles that span every column or every row; rows and columns are indexes into the table and
 * into the visible columns.
 */
export interface CellPosition {
  row: number
  col: number
}

export interface Selection {
  anchor: CellPosition
  focus: CellPosition
}

export interface CellRange {
  top: number
  bottom: number
  left: number
  right: number
}

export function rangeOf(selection: Selection): CellRange {
  return {
    top: Math.min(selection.anchor.row, selection.focus.row),
    bottom: Math.max(selection.anchor.row, selection.focus.row),
    left: Math.min(selection.anchor.col, selection.focus.col),
    right: Math.max(selection.anchor.col, selection.focus.col),
  }
}

export function inRange(range: CellRange | null, row: number, col: number): boolean {
  return range !== null && row >= range.top && row <= range.bottom && col >= range.left && col <= range.right
}

export function rangeSize(range: CellRange): { rows: number; columns: number } {
  return { rows: range.bottom - range.top + 1, columns: range.right - range.left + 1 }
}

/** One cell. */
export function cellSelection(at: CellPosition): Selection {
  return { anchor: at, focus: at }
}

/** Extend from the current anchor (or `at` itself when there is none) to `at`. */
export function extendTo(selection: Selection | null, at: CellPosition): Selection {
  return { anchor: selection?.anchor ?? at, focus: at }
}

/** Whole rows from `fromRow` to `toRow` (every visible column). */
export function rowsSelection(fromRow: number, toRow: number, lastCol: number): Selection {
  return { anchor: { row: fromRow, col: 0 }, focus: { row: toRow, col: lastCol } }
}

/** A whole column (every row). */
export function columnSelection(col: number, rowCount: number): Selection {
  return { anchor: { row: 0, col }, focus: { row: Math.max(0, rowCount - 1), col } }
}

/** Every cell. */
export function allSelection(rowCount: number, columnCount: number): Selection {
  return { anchor: { row: 0, col: 0 }, focus: { row: Math.max(0, rowCount - 1), col: Math.max(0, columnCount - 1) } }
}

/** Whether the selection is one cell (then copy copies that value with its column name). */
export function isSingleCell(selection: Selection): boolean {
  return selection.anchor.row === selection.focus.row && selection.anchor.col === selection.focus.col
}
