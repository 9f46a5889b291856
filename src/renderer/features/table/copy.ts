import type { DataType, Table as ArrowTable, Vector } from 'apache-arrow'
import { cellValue, fieldText, textFooter, textHeader, textRow, type TableRef, type TableViewSpec, type TextColumn, type TextFormat } from '../../../contract'
import { cancellable } from '../../api'
import { tableFromIPC } from 'apache-arrow'
import type { CellRange } from './selection'

/** Copies of more rows than this ask first (and then stream with progress). */
export const LARGE_COPY_ROWS = 10_000
/** Rows fetched per request for values the grid has not loaded (bounded: 768-d vectors are ~3 KB a row). */
const FETCH_ROWS = 2_000

export const COPY_FORMATS: { format: TextFormat; label: string }[] = [
  { format: 'tsv', label: 'Copy' },
  { format: 'csv', label: 'Copy as CSV' },
  { format: 'json', label: 'Copy as JSON' },
  { format: 'markdown', label: 'Copy as Markdown' },
]

export interface RowSource {
  /** The grid's loaded page holding `row`, with the row's index in it (no fetch). */
  cached(row: number): { page: ArrowTable; pageRow: number } | undefined
  /** Rows `[offset, offset + limit)` of the same view, only `columns`. */
  fetch(offset: number, limit: number, columns: string[], signal: AbortSignal): Promise<ArrowTable>
}

/** Fetch through the contract: pages of the table (the same call the grid pages with), projected to the copied columns. */
export function contractFetch(ref: TableRef, view?: TableViewSpec): RowSource['fetch'] {
  // Through the grid's view (version, filter, sort, search), so copied rows are the rows shown. A view's
  // rows may carry computed columns (`_distance`, `_score`): read them all and let the copy pick by name.
  return async (offset, limit, columns, signal) =>
    tableFromIPC(await cancellable('tables/page', { ...ref, namespace: [...ref.namespace], offset, limit, ...(view ? { view } : { columns }) }, signal))
}

/**
 * The text of a range of cells, every value whole (see src/contract/textFormats.ts): rows the grid has
 * loaded come from its cache, the others are fetched in bounded chunks. `onProgress` sees rows done.
 */
export async function copyText(
  range: CellRange,
  columns: readonly string[],
  format: TextFormat,
  source: RowSource,
  signal: AbortSignal,
  onProgress?: (rows: number) => void,
): Promise<string> {
  const names = columns.slice(range.left, range.right + 1)
  if (format === 'tsv' && range.top === range.bottom && names.length === 1) {
    // One cell, plain (Ctrl+C): its whole value alone, as a spreadsheet copies a cell (null → empty).
    const rows = await chunk(range.top, range.top + 1, names, source, signal)
    return fieldText(rows.values(range.top)[0], rows.types[0]) ?? ''
  }
  const parts: string[] = []
  let header: TextColumn[] | null = null
  let index = 0
  for (let start = range.top; start <= range.bottom; start += FETCH_ROWS) {
    signal.throwIfAborted()
    const end = Math.min(range.bottom + 1, start + FETCH_ROWS)
    const rows = await chunk(start, end, names, source, signal)
    if (!header) {
      header = names.map((name, i) => ({ name, type: rows.types[i] }))
      parts.push(textHeader(format, header))
    }
    for (let r = start; r < end; r += 1) {
      const values = rows.values(r)
      parts.push(textRow(format, header, values, index++))
    }
    onProgress?.(end - range.top)
  }
  if (!header) parts.push(textHeader(format, names.map((name) => ({ name }))))
  parts.push(textFooter(format, index))
  return parts.join('')
}

interface Chunk {
  types: (DataType | undefined)[]
  values(row: number): unknown[]
}

async function chunk(start: number, end: number, names: readonly string[], source: RowSource, signal: AbortSignal): Promise<Chunk> {
  let allCached = true
  for (let r = start; r < end && allCached; r += 1) if (!source.cached(r)) allCached = false
  if (allCached) {
    const first = source.cached(start)!.page
    return {
      types: names.map((n) => first.getChild(n)?.type as DataType | undefined),
      values: (row) => {
        const { page, pageRow } = source.cached(row)!
        return names.map((n) => {
          const vector = page.getChild(n)
          return vector ? cellValue(vector as Vector, pageRow) : null
        })
      },
    }
  }
  const table = await source.fetch(start, end - start, [...names], signal)
  const vectors = names.map((n) => table.getChild(n))
  return {
    types: vectors.map((v) => v?.type as DataType | undefined),
    values: (row) => vectors.map((v) => (v ? cellValue(v as Vector, row - start) : null)),
  }
}

/** Put text on the clipboard; a clear error when the browser refuses. */
export async function writeClipboard(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('The clipboard is not available here')
  await navigator.clipboard.writeText(text)
}
