import * as arrow from 'apache-arrow'
import { AppError, type TableViewSpec } from '../../../contract'
import type { IndexSummary } from '../client'

/** Rows per request when a REST view is scanned (bounded bytes: a 768-d float vector is 3 KB a row). */
export const SCAN_PAGE_ROWS = 2048

/**
 * Every row of a view over REST: server queries of {@link SCAN_PAGE_ROWS} rows, offset after offset, all
 * at the view's version (so the pages of one scan agree even while the table changes). A search view is one
 * request of its `k` rows.
 */
export async function* restScan(
  readPage: (offset: number, limit: number) => Promise<Uint8Array>,
  view: TableViewSpec,
  signal?: AbortSignal,
): AsyncGenerator<arrow.RecordBatch> {
  const pageRows = view.search ? view.search.k : SCAN_PAGE_ROWS
  for (let offset = 0; ; ) {
    signal?.throwIfAborted()
    const table = arrow.tableFromIPC(await readPage(offset, pageRows))
    for (const batch of table.batches) if (batch.numRows > 0) yield batch
    offset += table.numRows
    if (view.search || table.numRows < pageRows) return
  }
}

/** The number of rows of a query reply (Arrow IPC file or stream). */
export function countFromReply(bytes: Uint8Array): number {
  try {
    return arrow.tableFromIPC(bytes).numRows
  } catch (error) {
    throw new AppError('corrupt', 'The server sent search results as Arrow data we cannot read', { detail: String(error) })
  }
}

/** ListTableIndicesResponse: `{indexes: [{index_name, columns, index_type?}]}`. */
export function indexesFromReply(reply: unknown): IndexSummary[] {
  const list = (reply as { indexes?: unknown } | null)?.indexes
  if (!Array.isArray(list)) throw new AppError('internal', 'The server sent an index list without "indexes"')
  return list.flatMap((entry: unknown) => {
    const e = entry as { index_name?: unknown; columns?: unknown; index_type?: unknown }
    if (typeof e?.index_name !== 'string' || !Array.isArray(e.columns)) return []
    return [{ name: e.index_name, type: typeof e.index_type === 'string' ? e.index_type : 'unknown', columns: e.columns.filter((c): c is string => typeof c === 'string') }]
  })
}
