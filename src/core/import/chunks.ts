import { Table, type Data, type RecordBatch, type Schema } from 'apache-arrow'

export interface ChunkLimits {
  /** Rows per chunk: 10k measured fastest with the lowest memory (perf-baselines §3). */
  maxRows: number
  /** Bytes per chunk, so wide rows (big vectors, long text) still make bounded chunks. */
  maxBytes: number
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxRows: 10_000, maxBytes: 64 * 1024 * 1024 }

/** Bytes held by a batch's buffers (an estimate for slices, which share their parent's buffers). */
export function batchBytes(batch: RecordBatch): number {
  return dataBytes(batch.data)
}

function dataBytes(data: Data): number {
  let n = 0
  for (const buf of [data.values, data.valueOffsets, data.nullBitmap, data.typeIds] as (ArrayBufferView | undefined)[]) {
    if (buf) n += buf.byteLength
  }
  for (const child of data.children) n += dataBytes(child)
  return n
}

/**
 * Regroup batches of any size into Arrow Tables of at most `maxRows` rows and about `maxBytes`
 * bytes, slicing big batches (zero-copy) and gathering small ones.
 */
export async function* rechunk(batches: AsyncIterable<RecordBatch>, schema: Schema, limits: ChunkLimits): AsyncGenerator<Table> {
  let pending: RecordBatch[] = []
  let rows = 0
  let bytes = 0
  for await (const batch of batches) {
    if (batch.numRows === 0) continue
    const perRow = batchBytes(batch) / batch.numRows
    let offset = 0
    while (offset < batch.numRows) {
      const byRows = limits.maxRows - rows
      const byBytes = Math.max(1, Math.floor((limits.maxBytes - bytes) / Math.max(perRow, 1)))
      const take = Math.min(batch.numRows - offset, byRows, rows === 0 ? Math.max(1, byBytes) : byBytes)
      if (take <= 0) {
        yield new Table(schema, pending)
        pending = []
        rows = 0
        bytes = 0
        continue
      }
      pending.push(offset === 0 && take === batch.numRows ? batch : batch.slice(offset, offset + take))
      rows += take
      bytes += take * perRow
      offset += take
      if (rows >= limits.maxRows || bytes >= limits.maxBytes) {
        yield new Table(schema, pending)
        pending = []
        rows = 0
        bytes = 0
      }
    }
  }
  if (pending.length > 0) yield new Table(schema, pending)
}
