import type { Table as LanceTable } from '@lancedb/lancedb'
import type { RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../../contract'
import { buildQuery } from './buildQuery'

/**
 * Rows per query of {@link scanWindows}. One streaming Lance query over a whole table reads ahead without a
 * bound we can set (peak RSS ~820 MiB scanning 1M 768-d rows); queries of 8,192 rows at growing offsets
 * keep it near 560 MiB at the same speed (measured in `npm run bench -- export`).
 */
export const SCAN_WINDOW_ROWS = 8192

interface OpenWindow {
  batches: AsyncIterator<RecordBatch>
  first: Promise<IteratorResult<RecordBatch>>
}

/**
 * Every row of a plain view (no filter, sort or search) in table order, one bounded query per window.
 * Offsets on an unfiltered scan are cheap (Lance skips whole fragments by their row counts); with a filter
 * each window would re-evaluate the predicate from the start, so filtered views stream as one query.
 * The next window's query is opened once half of this one has been handed on: Lance starts reading it while
 * the consumer works through the rest, instead of after it has asked for more. Waiting for each new query's
 * first batch cost ~0.5 s of a profile's 4.3 s over 1M 768-d rows; opening it early costs ~45 MiB more peak RSS
 * (measured with the profile's scan, 2026-11-30). `nextEarly` false opens each only when asked (export: its writer
 * is slower than Lance, so an early window only held ~50 MiB more).
 */
export async function* scanWindows(table: LanceTable, view: TableViewSpec, signal?: AbortSignal, window = SCAN_WINDOW_ROWS, nextEarly = true): AsyncGenerator<RecordBatch> {
  const open = (offset: number): OpenWindow => {
    const batches = (buildQuery(table, view, { offset, limit: window }) as AsyncIterable<RecordBatch>)[Symbol.asyncIterator]()
    const first = batches.next()
    // Its error, if any, is met when the window is read; until then it must not count as unhandled.
    first.catch(() => undefined)
    return { batches, first }
  }
  let current = open(0)
  let following: OpenWindow | null = null
  try {
    for (let offset = 0; ; offset += window) {
      signal?.throwIfAborted()
      let rows = 0
      for (let step = await current.first; !step.done; step = await current.batches.next()) {
        rows += step.value.numRows
        if (nextEarly && following === null && rows * 2 >= window && rows < window) following = open(offset + window)
        yield step.value
      }
      if (rows < window) return
      current = following ?? open(offset + window)
      following = null
    }
  } finally {
    for (const w of [current, following]) {
      if (!w) continue
      await w.first.catch(() => undefined)
      await w.batches.return?.(undefined)
    }
  }
}
