import type { RecordBatch } from 'apache-arrow'
import { throwIfAborted } from './errors'

/** Text formats bound a batch by bytes too: a few thousand very wide rows are already a big batch. */
export const MAX_BATCH_BYTES = 32 * 1024 * 1024
/** The inference sample is bounded by bytes as well as rows: a few very wide rows must not hold the file in memory. */
const MAX_SAMPLE_BYTES = 32 * 1024 * 1024

/**
 * The first rows of a row-by-row reader, read to infer the schema (then replayed as the first batches): up to
 * `limit` rows or 32 MiB; `ended` when they are the whole file.
 */
export async function readSample<Row>(next: () => Promise<Row | null>, limit: number, rowBytes: (row: Row) => number, signal?: AbortSignal): Promise<{ sample: Row[]; ended: boolean }> {
  const sample: Row[] = []
  let bytes = 0
  while (sample.length < limit && bytes < MAX_SAMPLE_BYTES) {
    throwIfAborted(signal)
    const row = await next()
    if (!row) return { sample, ended: true }
    sample.push(row)
    bytes += rowBytes(row)
  }
  return { sample, ended: false }
}

export interface RowBatching<Row> {
  /** Rows already read to infer the schema; emptied once batched. */
  sample: Row[]
  /** Whether the sample holds the whole file. */
  ended: boolean
  /** The next row, or null at the end. */
  next: () => Promise<Row | null>
  rowBytes: (row: Row) => number
  toBatch: (rows: Row[]) => RecordBatch
  batchRows: number
  signal?: AbortSignal
  close: () => Promise<void>
}

/**
 * Batches of a row-by-row text reader (CSV, JSON lines): first the inference sample, then the rest of
 * the file, each batch bounded by rows and by bytes. Closes the reader however iteration ends.
 */
export async function* rowBatches<Row>(options: RowBatching<Row>): AsyncGenerator<RecordBatch> {
  const { sample, next, rowBytes, toBatch, batchRows, signal } = options
  try {
    for (let i = 0; i < sample.length; i += batchRows) yield toBatch(sample.slice(i, i + batchRows))
    sample.length = 0
    if (options.ended) return
    let rows: Row[] = []
    let bytes = 0
    for (;;) {
      throwIfAborted(signal)
      const row = await next()
      if (!row) break
      rows.push(row)
      bytes += rowBytes(row)
      if (rows.length >= batchRows || bytes >= MAX_BATCH_BYTES) {
        yield toBatch(rows)
        rows = []
        bytes = 0
      }
    }
    if (rows.length > 0) yield toBatch(rows)
  } finally {
    await options.close()
  }
}
