import { stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { AppError } from '../../../contract'
import type { BatchSource, OpenOptions } from '../source'
import { recordSource, type RecordRow } from './records'
import { XLSX_MAX_CELL_CHARS, XLSX_MAX_COLUMN, XLSX_MAX_ROW } from './limits'
import { local, openWorkbook, parseXmlRows, WorkbookError, WorkbookLimit, type Workbook } from './xlsxBook'

type Cell = string | number | boolean | Date | null

/** A sheet row: its number in the sheet and its non-empty cells by column number (1-based). */
interface SheetRow {
  number: number
  cells: Map<number, Cell>
}

/**
 * An Excel workbook (.xlsx): one sheet — the first tab, or the one named in `options.sheet` — streamed row by
 * row (the sheet's XML is never held whole; the workbook's shared strings are). The first non-empty row names the
 * columns; each row below is a record, typed like JSON values: numbers, text, true/false, and cells formatted as
 * dates become zone-less timestamps. Formulas give their saved result; error cells (#N/A, #DIV/0!) are empty.
 */
export async function openXlsx(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  let book: Workbook
  try {
    book = await openWorkbook(path, fileName)
  } catch (error) {
    throw unreadable(fileName, error)
  }
  let stream: Readable | null = null
  const close = async () => {
    stream?.destroy()
    book.close()
  }
  try {
    const names = book.sheets.map((s) => s.name)
    if (names.length === 0) throw new AppError('invalid_input', `${fileName} holds no worksheets`, { hint: 'Save a workbook with its data on a sheet' })
    const sheet = options.sheet === undefined ? book.sheets[0]! : book.sheets.find((s) => s.name === options.sheet)
    if (!sheet) throw new AppError('invalid_input', `${fileName} has no sheet named "${options.sheet}"`, { hint: `Its sheets: ${names.join(', ')}` })
    stream = await book.open(sheet.entry)
    // Progress: the share of the sheet's XML read so far, as a share of the file (the sheet is most of it).
    let chars = 0
    const sheetSize = Math.max(1, book.size(sheet.entry))
    const { size } = await stat(path)
    const rows = sheetRows(stream, book, (n) => (chars += n))[Symbol.asyncIterator]()
    const pull = async (): Promise<SheetRow | null> => {
      try {
        const step = await rows.next()
        return step.done ? null : step.value
      } catch (error) {
        throw unreadable(fileName, error)
      }
    }
    const header = await headerRow(pull, fileName, sheet.name)
    const next = async (): Promise<RecordRow | null> => {
      for (;;) {
        const row = await pull()
        if (!row) return null
        if (row.cells.size === 0) continue
        const record = recordOf(row, header.columns)
        return { value: record.value, line: row.number, bytes: record.bytes }
      }
    }
    const others = names.filter((n) => n !== sheet.name)
    const readAs = [
      `sheet "${sheet.name}"${others.length > 0 ? ` (the workbook also has ${others.map((n) => `"${n}"`).join(', ')})` : ''}`,
      `column names: row ${header.row}`,
    ]
    const bytesRead = () => Math.min(size, Math.round((chars / sheetSize) * size))
    const columns = [...header.columns.values()]
    return await recordSource({ format: 'xlsx', path, options, bytesRead, next, close, readAs: () => readAs, sheets: { names, chosen: sheet.name }, columns, where: (row) => `row ${row}` })
  } catch (error) {
    await close()
    throw error
  }
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
}

/** The first row holding anything names the columns: blank names become "column N", repeats get a suffix. */
async function headerRow(pull: () => Promise<SheetRow | null>, fileName: string, sheet: string): Promise<Header> {
  for (;;) {
    const row = await pull()
    if (!row) throw new AppError('invalid_input', `The sheet "${sheet}" of ${fileName} is empty`, { hint: 'Put the column names in the first row and the data below them' })
    if (row.cells.size === 0) continue
    const named = new Map([...row.cells].map(([col, v]) => [col, v instanceof Date ? v.toISOString() : String(v).trim()]))
    const columns = new Map<number, string>()
    const used = new Set<string>()
    // Per name, the suffix to try next: a header of 16,384 like names costs one try each, not the square.
    const nextSuffix = new Map<string, number>()
    let last = 0
    for (const col of named.keys()) last = Math.max(last, col)
    for (let col = 1; col <= last; col++) {
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
    return { columns, row: row.number }
  }
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
