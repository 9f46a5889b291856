import { Table, type Data, type RecordBatch, type Schema } from 'apache-arrow'

export interface ChunkLimits {
  /** Rows per chunk (a commit): a backstop; bytes decide for real tables. */
  maxRows: number
  /** Bytes per chunk (decoded Arrow): one commit, and so one table version, per this many bytes. */
  maxBytes: number
}

/**
 * One commit per 32 MiB of decoded data: a narrow 3M-row table imports in a handful of versions (a commit per
 * 10k rows, a bound chosen for 768-d vectors, made 300), while memory stays bounded. About three copies of a chunk
 * are held at a time — Lance's while it writes one, its IPC bytes here, and the next chunk being gathered — plus the
 * reader's own buffers: at 64 MiB a 3M-row Parquet import through polars peaked at 708–712 MiB RSS, at 32 MiB at
 * 574 (the same minutes), and a 1 GB CSV's anonymous memory went from 664 to about 500 MiB.
 */
export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { maxRows: 16_000_000, maxBytes: 32 * 1024 * 1024 }

/**
 * The limits an import uses: {@link DEFAULT_CHUNK_LIMITS}, or `LCB_IMPORT_COMMIT_MB` MiB per commit when set (less
 * memory on a small machine; more, smaller commits — tests use it to see an import between two commits).
 */
export function defaultChunkLimits(): ChunkLimits {
  const mb = Number(process.env.LCB_IMPORT_COMMIT_MB)
  return Number.isFinite(mb) && mb >= 1 && mb <= 4096 ? { ...DEFAULT_CHUNK_LIMITS, maxBytes: Math.round(mb * 1024 * 1024) } : DEFAULT_CHUNK_LIMITS
}

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
 * Regroups batches of any size into Arrow Tables of at most `maxRows` rows and about `maxBytes` bytes,
 * slicing big batches (zero-copy) and gathering small ones. Push batches; `flush` returns the rest.
 */
export class Rechunker {
  private pending: RecordBatch[] = []
  private rows = 0
  private bytes = 0

  constructor(
    private readonly schema: Schema,
    private readonly limits: ChunkLimits,
  ) {}

  *push(batch: RecordBatch): Generator<Table> {
    const { limits } = this
    if (batch.numRows === 0) return
    const perRow = batchBytes(batch) / batch.numRows
    let offset = 0
    while (offset < batch.numRows) {
      const byRows = limits.maxRows - this.rows
      const byBytes = Math.max(1, Math.floor((limits.maxBytes - this.bytes) / Math.max(perRow, 1)))
      const take = Math.min(batch.numRows - offset, byRows, this.rows === 0 ? Math.max(1, byBytes) : byBytes)
      if (take <= 0) {
        yield this.flush()!
        continue
      }
      this.pending.push(offset === 0 && take === batch.numRows ? batch : batch.slice(offset, offset + take))
      this.rows += take
      this.bytes += take * perRow
      offset += take
      if (this.rows >= limits.maxRows || this.bytes >= limits.maxBytes) yield this.flush()!
    }
  }

  flush(): Table | null {
    if (this.pending.length === 0) return null
    const table = new Table(this.schema, this.pending)
    this.pending = []
    this.rows = 0
    this.bytes = 0
    return table
  }
}

/** {@link Rechunker} over a stream of batches. */
export async function* rechunk(batches: AsyncIterable<RecordBatch>, schema: Schema, limits: ChunkLimits): AsyncGenerator<Table> {
  const chunker = new Rechunker(schema, limits)
  for await (const batch of batches) yield* chunker.push(batch)
  const rest = chunker.flush()
  if (rest) yield rest
}
