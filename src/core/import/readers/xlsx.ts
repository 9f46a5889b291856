import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { AppError, formatCellRange, parseCellRange, type CellRange, type SheetsRead } from '../../../contract'
import type { BatchSource, OpenOptions } from '../source'
import { recordSource, type RecordRow } from './records'
import { XLSX_MAX_CELL_CHARS, XLSX_MAX_COLUMN, XLSX_MAX_ROW } from '../../limits'
import { local, openWorkbook, parseXmlRows, WorkbookError, WorkbookLimit, type Workbook } from './xlsxBook'

type Cell = string | number | boolean | Date | null

/** A sheet row: its number in the sheet and its non-empty cells by column number (1-based). */
interface SheetRow {
  number: number
  cells: Map<number, Cell>
}

/** Past a sheet's last row (1,048,576): a record's place is `sheet index × SHEET_ROWS + row`. */
const SHEET_ROWS = 2 ** 21

/** Rows looked at, from the first filled one, to find a header below title rows. */
const DETECT_ROWS = 12

/**
 * An Excel workbook (.xlsx): one sheet — the first tab, or the one named in `options.sheet` — or several read one
 * after another into one table (`layout.sheets`, their headers naming the same columns), streamed row by row (the
 * sheet's XML is never held whole; the workbook's shared strings are). A row names the columns: the one chosen
 * (`layout.headerRow`), else the first filled one — or, when that row holds one cell (a title) above a row of
 * distinct names, that row, the titles left out. `layout.range` (`B3:F200`) keeps only those cells. Each row below
 * the header is a record, typed like JSON values: numbers, text, true/false, and cells formatted as dates become
 * dates (every one a midnight) or zone-less timestamps. Formulas give their saved result; error cells are empty.
 */
export async function openXlsx(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const layout = options.layout ?? {}
  const range = layout.range === undefined ? null : parseCellRange(layout.range)
  if (typeof range === 'string') throw new AppError('invalid_input', `The cell range "${layout.range}" ${range}`, { hint: 'Give the top-left and bottom-right cells, e.g. B3:F200' })
  if (range && layout.headerRow !== undefined && (layout.headerRow < range.firstRow || layout.headerRow > range.lastRow)) {
    throw new AppError('invalid_input', `Header row ${layout.headerRow} is outside the cell range ${formatCellRange(range)}`, { hint: 'Choose a header row inside the range, or widen the range' })
  }
  let book: Workbook
  try {
    book = await openWorkbook(path, fileName)
  } catch (error) {
    throw unreadable(fileName, error)
  }
  const streams: Readable[] = []
  const close = async () => {
    for (const stream of streams) stream.destroy()
    book.close()
  }
  try {
    const names = book.sheets.map((s) => s.name)
    if (names.length === 0) throw new AppError('invalid_input', `${fileName} holds no worksheets`, { hint: 'Save a workbook with its data on a sheet' })
    const wanted = layout.sheets && layout.sheets.length > 0 ? layout.sheets : [options.sheet ?? book.sheets[0]!.name]
    const sheets = wanted.map((name) => {
      const sheet = book.sheets.find((s) => s.name === name)
      if (!sheet) throw new AppError('invalid_input', `${fileName} has no sheet named "${name}"`, { hint: `Its sheets: ${names.join(', ')}` })
      return sheet
    })
    if (new Set(wanted).size !== wanted.length) throw new AppError('invalid_input', `${fileName}: a sheet is named twice among the sheets to import`)
    // Progress: the share of the sheets' XML read so far, as a share of the file (the sheets are most of it).
    let chars = 0
    const sheetsSize = Math.max(1, sheets.reduce((sum, s) => sum + book.size(s.entry), 0))
    const { size } = await stat(path)
    // Every sheet is opened and its header found now, so a sheet whose columns differ is refused before anything is written.
    const opened: { name: string; header: Header; pull: () => Promise<SheetRow | null> }[] = []
    for (const sheet of sheets) {
      const stream = await book.open(sheet.entry)
      streams.push(stream)
      const pull = rowPuller(sheetRows(stream, book, (n) => (chars += n)), range, fileName)
      const header = await headerRow(pull, fileName, sheet.name, layout.headerRow)
      const first = opened[0]
      if (first) {
        const a = [...first.header.columns.values()]
        const b = [...header.columns.values()]
        if (a.length !== b.length || a.some((name, i) => name !== b[i])) {
          throw new AppError('invalid_input', `The sheet "${sheet.name}" of ${fileName} names other columns than "${first.name}" (${clipList(b)} against ${clipList(a)}), so the two cannot be one table`, {
            hint: 'Import each sheet as a table of its own, or give the sheets the same header row',
          })
        }
      }
      opened.push({ name: sheet.name, header, pull })
    }
    const header = opened[0]!.header
    let at = 0
    const next = async (): Promise<RecordRow | null> => {
      for (;;) {
        const sheet = opened[at]
        if (!sheet) return null
        const row = await sheet.pull()
        if (!row) {
          streams[at]?.destroy()
          at++
          continue
        }
        if (row.cells.size === 0) continue
        const record = recordOf(row, sheet.header.columns)
        // Rows are numbered per sheet: with several sheets the place carries its sheet too (see `where`).
        return { value: record.value, line: at * SHEET_ROWS + row.number, bytes: record.bytes }
      }
    }
    const chosen = opened[0]!.name
    const others = names.filter((n) => !wanted.includes(n))
    const readAs = [
      opened.length > 1
        ? `sheets ${opened.map((s) => `"${s.name}"`).join(', ')}, one after another`
        : `sheet "${chosen}"${others.length > 0 ? ` (the workbook also has ${others.map((n) => `"${n}"`).join(', ')})` : ''}`,
      ...(range ? [`cells ${formatCellRange(range)}`] : []),
      `column names: row ${header.row}${header.titles.length > 0 ? ` (above it, left out as a title: ${header.titles.map((t) => `“${clipText(t)}”`).join(', ')})` : ''}`,
    ]
    const read: SheetsRead = { names, chosen, headerRow: header.row, titleRows: header.titles.length }
    if (range) read.range = formatCellRange(range)
    if (opened.length > 1) read.read = opened.map((s) => s.name)
    const bytesRead = () => Math.min(size, Math.round((chars / sheetsSize) * size))
    const columns = [...header.columns.values()]
    const where = (line: number) => {
      const row = line % SHEET_ROWS
      return opened.length > 1 ? `sheet "${opened[Math.floor(line / SHEET_ROWS)]!.name}" row ${row}` : `row ${row}`
    }
    return await recordSource({ format: 'xlsx', path, options, bytesRead, next, close, readAs: () => readAs, sheets: read, columns, where })
  } catch (error) {
    await close()
    throw error
  }
}

/**
 * A sheet's rows one by one, with rows put back (header detection looks ahead) and the cell range applied: cells
 * left or right of it dropped, rows above it skipped, and reading stopped below it.
 */
interface Puller {
  (): Promise<SheetRow | null>
  /** Put rows back, to be pulled again first, in order. */
  unpull(rows: SheetRow[]): void
}

function rowPuller(rows: AsyncGenerator<SheetRow>, range: CellRange | null, fileName: string): Puller {
  const iterator = rows[Symbol.asyncIterator]()
  const back: SheetRow[] = []
  let ended = false
  const pull = async (): Promise<SheetRow | null> => {
    if (back.length > 0) return back.shift()!
    for (;;) {
      if (ended) return null
      let step: IteratorResult<SheetRow>
      try {
        step = await iterator.next()
      } catch (error) {
        throw unreadable(fileName, error)
      }
      if (step.done) return null
      const row = step.value
      if (!range) return row
      if (row.number < range.firstRow) continue
      if (row.number > range.lastRow) {
        ended = true
        return null
      }
      for (const col of row.cells.keys()) if (col < range.firstColumn || col > range.lastColumn) row.cells.delete(col)
      return row
    }
  }
  return Object.assign(pull, { unpull: (rows: SheetRow[]) => back.unshift(...rows) })
}

function clipText(text: string): string {
  const one = text.replace(/\s+/g, ' ')
  return one.length > 40 ? `${one.slice(0, 40)}…` : one
}

function clipList(names: string[]): string {
  const shown = names.slice(0, 4).join(', ')
  return names.length > 4 ? `${shown}, …` : shown
}

/** The sheet's rows as its XML streams in (`<row>` of `<c>` cells, SpreadsheetML). */
async function* sheetRows(stream: Readable, book: Workbook, onChunk: (chars: number) => void): AsyncGenerator<SheetRow> {
  let row: SheetRow | null = null
  let lastRow = 0
  let col = 0
  let cell: { type: string; style: number; text: string; inline: string } | null = null
  let into: 'v' | 'is' | null = null
  yield* parseXmlRows<SheetRow>(stream, (emit) => ({
    open: (tag) => {
      const name = local(tag.name)
      if (name === 'row') {
        lastRow = tag.attributes.r ? Number(tag.attributes.r) : lastRow + 1
        if (!(Number.isInteger(lastRow) && lastRow >= 1 && lastRow <= XLSX_MAX_ROW)) throw beyondSheet(`row ${String(tag.attributes.r ?? lastRow)}`, 'row 1,048,576')
        row = { number: lastRow, cells: new Map() }
        col = 0
      } else if (name === 'c') {
        const ref = String(tag.attributes.r ?? '')
        col = ref ? columnNumber(ref) : col + 1
        if (col > XLSX_MAX_COLUMN) throw beyondSheet(`cell ${ref ? clipRef(ref) : `${columnName(col)}${lastRow}`}`, 'column XFD (16,384)')
        cell = { type: String(tag.attributes.t ?? 'n'), style: Number(tag.attributes.s ?? 0), text: '', inline: '' }
      } else if (name === 'v') into = 'v'
      else if (name === 't' && cell?.type === 'inlineStr') into = 'is'
    },
    text: (text) => {
      if (!cell || !into) return
      if (into === 'v') cell.text += text
      else cell.inline += text
      if (cell.text.length > XLSX_MAX_CELL_CHARS || cell.inline.length > XLSX_MAX_CELL_CHARS) {
        throw new WorkbookLimit(`has a cell in row ${lastRow} (column ${columnName(col)}) of more than ${XLSX_MAX_CELL_CHARS.toLocaleString('en')} characters, the most an Excel cell holds`, 'If the workbook is genuine, save the sheet as CSV and import that')
      }
    },
    close: (tag) => {
      const name = local(tag.name)
      if (name === 'v' || name === 't') into = null
      else if (name === 'c' && cell && row) {
        const value = cellValue(cell, book)
        if (value !== null && value !== '') row.cells.set(col, value)
        cell = null
      } else if (name === 'row' && row) {
        emit(row)
        row = null
      }
    },
  }), onChunk)
}

/** `B12` → 2, `AA3` → 27; past Excel's last column (XFD) it stops counting: any number past it is refused. */
function columnNumber(ref: string): number {
  let n = 0
  for (let i = 0; i < ref.length && n <= XLSX_MAX_COLUMN; i++) {
    const code = ref.charCodeAt(i) & ~0x20 // upper case
    if (code < 65 || code > 90) break
    n = n * 26 + (code - 64)
  }
  return n
}

/** 2 → `B`, 27 → `AA`. */
function columnName(col: number): string {
  let name = ''
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

function clipRef(ref: string): string {
  return ref.length > 20 ? `${ref.slice(0, 20)}…` : ref
}

/** A cell or row past Excel's last one: no spreadsheet program wrote it, and counting up to it would be unbounded work. */
function beyondSheet(what: string, last: string): WorkbookLimit {
  return new WorkbookLimit(`has ${what}, past ${last}, the last an Excel sheet has`, 'Open it in a spreadsheet program and save it again, or save the sheet as CSV and import that')
}

const DAY_MS = 86_400_000

/** A cell's value by its type: shared or inline text, a formula's saved text, a boolean, an error (empty), a number or date. */
function cellValue(cell: { type: string; style: number; text: string; inline: string }, book: Workbook): Cell {
  switch (cell.type) {
    case 's':
      return book.sharedStrings[Number(cell.text)] ?? null
    case 'str':
      return cell.text
    case 'inlineStr':
      return cell.inline
    case 'b':
      return cell.text === '' ? null : cell.text.trim() === '1' || cell.text.trim() === 'true'
    case 'e':
      return null
    case 'd': {
      const date = new Date(cell.text.endsWith('Z') || /[+-]\d\d:\d\d$/.test(cell.text) ? cell.text : `${cell.text}Z`)
      return Number.isFinite(date.getTime()) ? date : null
    }
    default: {
      if (cell.text.trim() === '') return null
      const n = Number(cell.text)
      if (!Number.isFinite(n)) return cell.text
      return book.dateStyles[cell.style] ? new Date(Math.round(serialToMs(n, book.date1904))) : n
    }
  }
}

/** An Excel date serial as epoch ms: days since 1899-12-30 (1900 system, counting its phantom 1900-02-29) or 1904-01-01. */
function serialToMs(serial: number, date1904: boolean): number {
  if (date1904) return (serial - 24107) * DAY_MS
  return (serial < 61 ? serial - 25568 : serial - 25569) * DAY_MS
}

interface Header {
  /** Column number (1-based) → name. */
  columns: Map<number, string>
  row: number
  /** Title rows above the header, left out (found by looking; none when the header row was chosen). */
  titles: string[]
}

/**
 * The row naming the columns: `chosen` (rows above it left out), else the first filled row — unless that row holds
 * one cell and the rows below it, up to the first with two or more cells, do too, and that row's cells are all text
 * and all different: then the one-cell rows are titles ("Sales 2024", "Printed 3 March") and that row is the header.
 * Blank names become "column N", repeats get a suffix.
 */
async function headerRow(pull: Puller, fileName: string, sheet: string, chosen?: number): Promise<Header> {
  let found: SheetRow
  const titles: string[] = []
  if (chosen !== undefined) {
    for (;;) {
      const row = await pull()
      if (row && row.number < chosen) continue
      if (!row || row.number > chosen || row.cells.size === 0) {
        if (row) pull.unpull([row])
        throw new AppError('invalid_input', `Row ${chosen} of the sheet "${sheet}" of ${fileName} is empty${row ? '' : ' (the sheet, or the cell range, ends above it)'}, so it cannot name the columns`, {
          hint: 'Choose the row that holds the column names',
        })
      }
      found = row
      break
    }
  } else {
    const looked: SheetRow[] = []
    while (looked.length < DETECT_ROWS) {
      const row = await pull()
      if (!row) break
      if (row.cells.size > 0) looked.push(row)
    }
    if (looked.length === 0) throw new AppError('invalid_input', `The sheet "${sheet}" of ${fileName} is empty`, { hint: 'Put the column names in the first row and the data below them' })
    const at = looked.findIndex((row) => row.cells.size > 1)
    const candidate = at > 0 ? looked[at]! : null
    const names = candidate ? [...candidate.cells.values()] : []
    const isHeader = candidate !== null && names.every((v) => typeof v === 'string' && v.trim() !== '') && new Set(names.map((v) => String(v).trim())).size === names.length
    const start = isHeader ? at : 0
    for (const row of looked.slice(0, start)) titles.push(String([...row.cells.values()][0]))
    found = looked[start]!
    pull.unpull(looked.slice(start + 1))
  }
  const named = new Map([...found.cells].map(([col, v]) => [col, v instanceof Date ? v.toISOString() : String(v).trim()]))
  const columns = new Map<number, string>()
  const used = new Set<string>()
  // Per name, the suffix to try next: a header of 16,384 like names costs one try each, not the square.
  const nextSuffix = new Map<string, number>()
  let first = Infinity
  let last = 0
  for (const col of named.keys()) {
    first = Math.min(first, col)
    last = Math.max(last, col)
  }
  // Columns left of the header's first name hold nothing to name (a table that starts in column B); rows that do
  // have a cell there still get a "column N".
  for (let col = first; col <= last; col++) {
    const base = named.get(col) || `column ${col}`
    let name = base
    if (used.has(name)) {
      let k = nextSuffix.get(base) ?? 2
      while (used.has(`${base} (${k})`)) k++
      nextSuffix.set(base, k + 1)
      name = `${base} (${k})`
    }
    used.add(name)
    columns.set(col, name)
  }
  return { columns, row: found.number, titles }
}

/** A row as a record over the header's columns (a cell right of them is a column the header did not name). */
function recordOf(row: SheetRow, columns: Map<number, string>): { value: Record<string, unknown>; bytes: number } {
  // Only the row's own cells: a column it lacks is null (records need not hold every column), so a sparse row of a
  // wide sheet costs its cells, not the sheet's width.
  const value: Record<string, unknown> = {}
  let bytes = 0
  for (const [col, v] of row.cells) {
    value[columns.get(col) ?? `column ${col}`] = v
    bytes += typeof v === 'string' ? v.length : 8
  }
  return { value, bytes }
}

function unreadable(fileName: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof WorkbookLimit) return new AppError('unsupported', `${fileName} ${error.message}`, { hint: error.hint })
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('corrupt', `${fileName} cannot be read as an Excel workbook: ${message}`, {
    detail: error instanceof WorkbookError ? undefined : message,
    hint: 'Open it in a spreadsheet program and save it again as .xlsx, or save the sheet as CSV',
  })
}
