import type { Table as LanceTable } from '@lancedb/lancedb'
import { Table as ArrowTable, type RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../../contract'
import { buildQuery } from './buildQuery'
import type { QueryWindow } from '../../query/window'

/**
 * Sorted reads in two phases. Lance sorts a page with a TopK over `offset + limit` rows *of every selected
 * column*: on 1M rows with 768-d vectors a page at offset 500k held 5.8 GB and took 10–30 s (docs/user-guide.md,
 * "Ask the data"). Instead: (1) sort only the sort columns with their `_rowid` (16 bytes a row), then (2) take the page's
 * rows by id (`takeRowIds`) and put them back in the sorted order. Same rows, same order; memory stays small.
 */
export async function sortedRowIds(table: LanceTable, view: TableViewSpec, window: QueryWindow): Promise<bigint[]> {
  const keyColumns = [...new Set((view.sort ?? []).map((s) => s.column))]
  const keys = await buildQuery(table, { ...view, columns: keyColumns }, { ...window, withRowId: true }).toArrow()
  const column = keys.getChild('_rowid')
  return column ? Array.from(column as Iterable<bigint>, (v) => BigInt(v)) : []
}

/** The rows with these ids, in this order, with the view's columns (every column when it names none). */
export async function takeInOrder(table: LanceTable, ids: readonly bigint[], columns: string[] | undefined): Promise<ArrowTable> {
  let take = table.takeRowIds(ids).withRowId()
  if (columns) take = take.select(columns)
  const taken = await take.toArrow()
  const rowIds = taken.getChild('_rowid')!
  const at = new Map<bigint, number>()
  for (let i = 0; i < taken.numRows; i++) at.set(BigInt(rowIds.get(i) as bigint), i)
  const names = taken.schema.fields.map((f) => f.name).filter((n) => n !== '_rowid')
  const rows = taken.select(names)
  // One-row slices (zero-copy) in the sorted order.
  const batches: RecordBatch[] = []
  for (const id of ids) {
    const i = at.get(id)
    if (i !== undefined) batches.push(...rows.slice(i, i + 1).batches)
  }
  return new ArrowTable(rows.schema, batches)
}

/** Every row of a sorted view, in order: the sorted ids streamed, their rows taken a chunk at a time. */
export async function* scanSorted(table: LanceTable, view: TableViewSpec, signal?: AbortSignal, chunk = 1024): AsyncGenerator<RecordBatch> {
  const keyColumns = [...new Set((view.sort ?? []).map((s) => s.column))]
  const keys = buildQuery(table, { ...view, columns: keyColumns }, { withRowId: true })
  let pending: bigint[] = []
  const flush = async function* (ids: bigint[]) {
    const rows = await takeInOrder(table, ids, view.columns)
    for (const batch of rows.batches) yield batch
  }
  for await (const batch of keys) {
    signal?.throwIfAborted()
    const column = batch.getChild('_rowid')
    if (!column) continue
    for (const v of column as Iterable<bigint>) pending.push(BigInt(v))
    while (pending.length >= chunk) {
      yield* flush(pending.slice(0, chunk))
      pending = pending.slice(chunk)
    }
  }
  if (pending.length > 0) yield* flush(pending)
}
