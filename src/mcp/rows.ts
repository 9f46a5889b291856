import type { DataType, Table } from 'apache-arrow'
import { base64, cellValue, jsonText } from '../contract'
import { fromIpc } from '../core/arrow'

/** How much of each row an answer shows (the tools' `full_vectors`, `max_cell_chars`, `max_bytes`). */
export interface RowBounds {
  /** Vectors whole (true) or as dimension, norm and the first {@link VECTOR_HEAD} values (false, the default). */
  fullVectors: boolean
  /** Text and nested values longer than this are cut (the cut says how long the value was). */
  maxCellChars: number
  /** The rows' JSON stops before this many bytes (at least one row is always shown). */
  maxBytes: number
}

export const VECTOR_HEAD = 8
export const DEFAULT_ROW_BOUNDS: RowBounds = { fullVectors: false, maxCellChars: 2_000, maxBytes: 48_000 }
/** Binary values show their size and this many leading bytes (base64). */
const BINARY_HEAD = 48

/** Rows as JSON texts (exact: 64-bit integers keep every digit), each within the bounds; stops at `maxBytes`. */
export interface BoundedRows {
  /** One JSON object text per row shown. */
  rows: string[]
  /** Rows of the page not shown because the byte budget ran out. */
  cutForBytes: number
  /** Cells cut short (long text, nested values, vectors summarised, binary). */
  cellsCut: number
}

interface ListLike {
  length: number
  get(index: number): unknown
}

const isListLike = (value: unknown): value is ListLike =>
  typeof value === 'object' && value !== null && typeof (value as ListLike).get === 'function' && typeof (value as ListLike).length === 'number'

function isFloatVector(type: DataType): boolean {
  // FixedSizeList (typeId 16) of floats (typeId 3): what the app calls a vector column.
  return type.typeId === 16 && (type.children?.[0]?.type as DataType | undefined)?.typeId === 3
}

function isBinary(type: DataType): boolean {
  return type.typeId === 4 || type.typeId === 19 || type.typeId === 15
}

/** A vector as its dimension, L2 norm and first few values: enough to tell vectors apart without 768 numbers. */
export function vectorSummary(value: ListLike): { dimension: number; norm: number; first: number[] } {
  let squares = 0
  const first: number[] = []
  for (let i = 0; i < value.length; i += 1) {
    const x = Number(value.get(i))
    squares += x * x
    if (i < VECTOR_HEAD) first.push(x)
  }
  return { dimension: value.length, norm: Math.sqrt(squares), first }
}

/** One cell's JSON text within the bounds, and whether it was cut. */
function cellJson(value: unknown, type: DataType, bounds: RowBounds): { text: string; cut: boolean } {
  if (value === null || value === undefined) return { text: 'null', cut: false }
  if (!bounds.fullVectors && isFloatVector(type) && isListLike(value)) return { text: JSON.stringify({ vector: vectorSummary(value) }), cut: true }
  if (isBinary(type) && value instanceof Uint8Array && value.byteLength > BINARY_HEAD) {
    return { text: JSON.stringify({ binary: { bytes: value.byteLength, first_base64: base64(value.subarray(0, BINARY_HEAD)) } }), cut: true }
  }
  const text = jsonText(value, type)
  if (text.length <= bounds.maxCellChars) return { text, cut: false }
  // A string value stays a string (cut, with its length said); anything else becomes its cut JSON text, said so.
  const whole = typeof value === 'string' ? value : text
  return { text: JSON.stringify({ cut: whole.slice(0, bounds.maxCellChars), chars: whole.length }), cut: true }
}

/** Decode a page of Arrow IPC bytes into bounded JSON rows. */
export function boundedRows(bytes: Uint8Array, bounds: RowBounds, skipColumns: ReadonlySet<string> = new Set()): BoundedRows {
  return boundTable(fromIpc(bytes), bounds, skipColumns)
}

export function boundTable(table: Table, bounds: RowBounds, skipColumns: ReadonlySet<string> = new Set()): BoundedRows {
  const columns = table.schema.fields.filter((f) => !skipColumns.has(f.name)).map((field) => ({ field, vector: table.getChild(field.name)! }))
  const rows: string[] = []
  let bytes = 2
  let cellsCut = 0
  for (let row = 0; row < table.numRows; row += 1) {
    const parts: string[] = []
    let cuts = 0
    for (const { field, vector } of columns) {
      const cell = cellJson(cellValue(vector, row), field.type as DataType, bounds)
      if (cell.cut) cuts += 1
      parts.push(`${JSON.stringify(field.name)}:${cell.text}`)
    }
    let text = `{${parts.join(',')}}`
    if (rows.length > 0 && bytes + text.length + 1 > bounds.maxBytes) return { rows, cutForBytes: table.numRows - row, cellsCut }
    // A first row larger than the whole budget is named, not shown: the answer stays bounded whatever the row holds.
    if (text.length + 2 > bounds.maxBytes) {
      text = JSON.stringify({ row_too_large: { bytes: text.length, how: 'ask for fewer columns, a lower max_cell_chars, or a higher max_bytes' } })
      cuts = 1
    }
    rows.push(text)
    bytes += text.length + 1
    cellsCut += cuts
  }
  return { rows, cutForBytes: 0, cellsCut }
}

/** An answer as JSON text with its rows spliced in as they are (their exact digits kept). */
export function answerWithRows(head: Record<string, unknown>, rows: string[], tail: Record<string, unknown>): string {
  const headText = JSON.stringify(head)
  const tailText = JSON.stringify(tail)
  const inner = `${headText.slice(1, -1)}${headText.length > 2 ? ',' : ''}"rows":[${rows.join(',')}]`
  return `{${inner}${tailText.length > 2 ? `,${tailText.slice(1, -1)}` : ''}}`
}
