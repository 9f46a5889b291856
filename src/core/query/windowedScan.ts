import type { Table as LanceTable } from '@lancedb/lancedb'
import type { RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../contract'
import { buildQuery } from './buildQuery'

/**
 * Rows per query of {@link scanWindows}. One streaming Lance query over a whole table reads ahead without a
 * bound we can set (peak RSS ~820 MiB scanning 1M 768-d rows); queries of 8,192 rows at growing offsets
 * keep it near 560 MiB at the same speed (measured in `npm run bench -- export`).
 */
export const SCAN_WINDOW_ROWS = 8192

/**
 * Every row of a plain view (no filter, sort or search) in table order, one bounded query per window.
 * Offsets on an unfiltered scan are cheap (Lance skips whole fragments by their row counts); with a filter
 * each window would re-evaluate the predicate from the start, so filtered views stream as one query.
 */
export async function* scanWindows(table: LanceTable, view: TableViewSpec, signal?: AbortSignal, window = SCAN_WINDOW_ROWS): AsyncGenerator<RecordBatch> {
  for (let offset = 0; ; offset += window) {
    signal?.throwIfAborted()
    let rows = 0
    for await (const batch of buildQuery(table, view, { offset, limit: window }) as AsyncIterable<RecordBatch>) {
      rows += batch.numRows
      yield batch
    }
    if (rows < window) return
  }
}
