/**
 * A block of a spreadsheet's cells in A1 notation (`B3:F200`; `B:F` = those columns, every row; `B3:F` = from row
 * 3 down), as the import sheet takes it and the Excel reader reads it. Shared so the sheet refuses what the reader
 * would refuse, before asking.
 */
export interface CellRange {
  /** 1-based, inclusive. */
  firstColumn: number
  lastColumn: number
  firstRow: number
  lastRow: number
}

/** Excel's last row and column (XFD): what an Excel sheet can hold. */
export const SHEET_LAST_ROW = 1_048_576
export const SHEET_LAST_COLUMN = 16_384

const RANGE = /^\$?([A-Z]{1,3})\$?(\d{1,7})?:\$?([A-Z]{1,3})\$?(\d{1,7})?$/i

/** `B` → 2, `AA` → 27. */
export function columnNumberOf(letters: string): number {
  let n = 0
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

/** 2 → `B`, 27 → `AA`. */
export function columnLetters(column: number): string {
  let name = ''
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** The range, or what is wrong with it in words ("must look like B3:F200"). */
export function parseCellRange(text: string): CellRange | string {
  const m = RANGE.exec(text.trim())
  if (!m) return 'must look like B3:F200 (or B:F for whole columns)'
  const firstColumn = columnNumberOf(m[1]!)
  const lastColumn = columnNumberOf(m[3]!)
  const firstRow = m[2] === undefined ? 1 : Number(m[2])
  const lastRow = m[4] === undefined ? SHEET_LAST_ROW : Number(m[4])
  if (lastColumn > SHEET_LAST_COLUMN || firstColumn > SHEET_LAST_COLUMN) return 'goes past column XFD, the last an Excel sheet has'
  if (firstRow < 1 || lastRow > SHEET_LAST_ROW || firstRow > SHEET_LAST_ROW) return 'must stay within rows 1 to 1,048,576'
  if (firstColumn > lastColumn || firstRow > lastRow) return 'must name its top-left cell first, e.g. B3:F200'
  return { firstColumn, lastColumn, firstRow, lastRow }
}

/**
 * Excel: how a sheet is laid out, beyond which sheet (`sheet`): the header row, a block of cells, several sheets
 * read into one table. What the import sheet sends and the reader reads (see `importTarget` in import.ts).
 */
export interface SheetLayout {
  sheets?: string[]
  headerRow?: number
  range?: string
}

/** The layout of an input, or undefined when it sets none (so a request without one looks as it did). */
export function sheetLayoutOf(input: SheetLayout): SheetLayout | undefined {
  const layout: SheetLayout = {}
  if (input.sheets && input.sheets.length > 0) layout.sheets = input.sheets
  if (input.headerRow !== undefined) layout.headerRow = input.headerRow
  if (input.range !== undefined && input.range.trim() !== '') layout.range = input.range.trim()
  return Object.keys(layout).length > 0 ? layout : undefined
}

/** A range in A1 notation, as the reader says it back. */
export function formatCellRange(range: CellRange): string {
  const rows = range.firstRow === 1 && range.lastRow === SHEET_LAST_ROW
  if (rows) return `${columnLetters(range.firstColumn)}:${columnLetters(range.lastColumn)}`
  return `${columnLetters(range.firstColumn)}${range.firstRow}:${columnLetters(range.lastColumn)}${range.lastRow === SHEET_LAST_ROW ? '' : range.lastRow}`
}
