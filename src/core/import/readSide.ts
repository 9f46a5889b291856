import { DataType, RecordBatchFileWriter, type Field, type RecordBatch, type Schema, type Table } from 'apache-arrow'
import { AppError, type ImportMode, type VectorCandidate } from '../../contract'
import { Rechunker, type ChunkLimits } from './chunks'
import { assertWritable } from './schema'
import type { ImportFormat } from './sniff'
import type { BatchSource, PassThrough, RawBatch } from './source'
import { BatchTransform, detectVectorCandidates } from './transform'

/**
 * The reading side of an import: the file opened, its first batch read, the written schema planned, then the chunks
 * to commit (~32 MiB each), encoded as Arrow IPC file bytes where the writer takes bytes. It never touches a catalog:
 * in the app it runs in a reader process (src/core/import/reader), and the host's side (write.ts) writes what it
 * yields. `writeSource` joins both in one process (tests, tools).
 */

/** Rows looked at to detect vector columns (the preview shows 20; more makes the guess safer). */
export const VECTOR_SAMPLE_ROWS = 1000

/** What the writer knows of the file before its first batch: for progress and the job's record. */
export interface SourceInfo {
  readonly format: ImportFormat
  readonly size: number
  readonly rowCount: number | null
  /** Bytes consumed so far (for progress). */
  bytesRead(): number
}

/** One commit's rows: Arrow IPC file bytes (decoded rows we encoded, or the file's own batches framed), or a table. */
export type Chunk =
  /** `release`, where given, once Lance has written `bytes` as they are (their buffer may then take other bytes). */
  | { kind: 'ipc'; bytes: Uint8Array; rows: number; release?: () => void }
  /**
   * The file's own record batch messages, to be framed as an IPC file when they are written (arrow-rs checks them when
   * Lance decodes them); `release` once Lance has finished with them (their buffers serve later batches).
   */
  | { kind: 'raw'; rows: number; frame(): Uint8Array; release(): void }
  /** Decoded rows for a writer that takes tables (lancedb applies embedding functions in its own `add`). */
  | { kind: 'table'; table: Table; rows: number }

/** The file after its first batch: the schema that will be written, then its chunks, once. */
export interface ChunkReader {
  /** The written schema (vector columns as FixedSizeList<Float32>, conversions applied). */
  readonly schema: Schema
  /**
   * The chunks in file order. `appendColumns` (an append) puts each chunk's columns in the table's order. Call once.
   */
  chunks(appendColumns: string[] | null): AsyncGenerator<Chunk>
  close(): Promise<void>
}

export interface ReadSideOptions {
  mode: ImportMode
  /** Columns to write as vectors; absent = every detected candidate. */
  vectorColumns?: string[]
  limits: ChunkLimits
  /** The target takes Arrow IPC bytes (createTableIpc/appendIpc): raw pass-through groups may be sent as they are. */
  ipc: boolean
  /**
   * Decoded chunks as IPC bytes: always across a process boundary; in one process only where the target takes bytes
   * and nothing needs the table itself (embedding functions).
   */
  encode: boolean
}

/**
 * Plan the written schema from the first batch: vector candidates, the accepted ones, the transform.
 * `vectorColumns` naming a column that is not a candidate is an input error.
 */
export function planSchema(source: BatchSource, first: RecordBatch | null, vectorColumns: string[] | undefined) {
  const sample = first ? [first.slice(0, Math.min(first.numRows, VECTOR_SAMPLE_ROWS))] : []
  const candidates = detectVectorCandidates(source.schema, sample)
  for (const name of vectorColumns ?? []) {
    if (!candidates.some((c) => c.column === name)) {
      throw new AppError('invalid_input', `Column "${name}" cannot be imported as a vector`, {
        hint: 'Only list-of-float columns whose rows all have the same length can be vectors',
      })
    }
  }
  const accepted = vectorColumns === undefined ? candidates : candidates.filter((c) => vectorColumns.includes(c.column))
  const transform = new BatchTransform(source.schema, accepted)
  assertWritable(transform.schema)
  const offered: VectorCandidate[] = candidates.map((c) => ({ ...c, accepted: accepted.includes(c) }))
  return { transform, candidates: offered }
}

/**
 * Read the first batch and plan the schema (most bad files fail here, before the writer touches the catalog). The
 * source is closed when this fails, and by the reader's `close` otherwise.
 */
export async function openChunks(source: BatchSource, options: ReadSideOptions): Promise<ChunkReader> {
  const { limits } = options
  // Record batches Lance can take as the file wrote them go to it undecoded (see passThroughFor); an append
  // decodes, as it may reorder the file's columns to the table's.
  const pass = options.mode === 'append' || !options.ipc ? null : passThroughFor(source)
  const batches: AsyncGenerator<RecordBatch | RawBatch> = pass ? pass.batches(limits) : source.batches()
  const close = async () => {
    await batches.return(undefined).catch(() => undefined)
    await source.close().catch(() => undefined)
  }
  let first: RecordBatch | RawBatch | null
  let plan: ReturnType<typeof planSchema>
  try {
    const firstStep = await batches.next()
    first = firstStep.done ? null : firstStep.value
    // (A raw first batch is checked by arrow-rs when the table is created from it.)
    plan = planSchema(source, first && !('raw' in first) ? first : null, options.vectorColumns)
  } catch (error) {
    await close()
    throw error
  }
  const { transform } = plan
  const schema = transform.schema
  const encode = options.encode && !schema.metadata.has('embedding_functions')
  return {
    schema,
    close,
    async *chunks(appendColumns) {
      const all = (async function* () {
        // Hand the first batch over and drop our reference, so it is not held for the whole import.
        const head = first
        first = null
        if (head) yield head
        yield* batches
      })()
      for await (const chunk of chunksOf(all, transform, schema, limits)) {
        if (Array.isArray(chunk)) {
          const messages = chunk.map((b) => b.message)
          yield { kind: 'raw', rows: chunk.reduce((n, b) => n + b.rows, 0), frame: () => pass!.frame(messages), release: () => pass!.release(messages) }
          continue
        }
        const table = appendColumns ? chunk.select(appendColumns) : chunk
        // Encoded here and the decoded chunk let go before it is written: while Lance holds its own copy and the next
        // chunk is gathered, the chunk itself would be one more copy of the same rows (a chunk's worth of peak RSS).
        if (encode) yield { kind: 'ipc', bytes: encodeChunk(table), rows: table.numRows }
        else yield { kind: 'table', table, rows: table.numRows }
      }
    },
  }
}

/**
 * The source's pass-through (record batches handed to Lance as their message bytes, never decoded or
 * re-encoded here) when nothing must change on the way: no list-of-float column that could become a vector (the
 * transform would rewrite it). Views reach Lance as they are; it stores them as their plain types, as the decoded
 * path does.
 */
function passThroughFor(source: BatchSource): PassThrough | null {
  if (!source.passThrough) return null
  const vectorLike = source.schema.fields.some((f) => {
    const type = f.type as DataType
    if (!DataType.isList(type) && !DataType.isFixedSizeList(type)) return false
    const child = (type.children?.[0] as Field | undefined)?.type
    return !!child && DataType.isFloat(child) && !(DataType.isFixedSizeList(type) && String(child) === 'Float32')
  })
  return vectorLike ? null : source.passThrough
}

/**
 * Chunks to write, in file order: decoded batches transformed and regrouped (rechunk), raw batches gathered
 * up to the same row and byte limits (many small batches make one commit, as decoded ones do).
 */
async function* chunksOf(batches: AsyncIterable<RecordBatch | RawBatch>, transform: BatchTransform, schema: Schema, limits: ChunkLimits): AsyncGenerator<Table | RawBatch[]> {
  let group: RawBatch[] = []
  let rows = 0
  let bytes = 0
  // Decoded batches are gathered across the whole file (a commit per `maxBytes`, not per reader batch).
  const decoded = new Rechunker(schema, limits)
  // Raw groups take the same bytes as decoded chunks: their message bytes are held here while Lance decodes its
  // own copy of them (measured: 64 MiB raw groups put a 768-d Arrow import at 695 MiB peak RSS, 32 MiB at ~500).
  const rawBytes = Math.max(1, limits.maxBytes)
  for await (const batch of batches) {
    if (!('raw' in batch)) {
      if (group.length) yield group
      group = []
      rows = bytes = 0
      yield* decoded.push(transform.apply(batch))
      continue
    }
    const rest = decoded.flush()
    if (rest) yield rest
    if (group.length && (rows + batch.rows > limits.maxRows || bytes + batch.bytes > rawBytes)) {
      yield group
      group = []
      rows = bytes = 0
    }
    group.push(batch)
    rows += batch.rows
    bytes += batch.bytes
  }
  const rest = decoded.flush()
  if (rest) yield rest
  if (group.length) yield group
}

/** A decoded chunk as one Arrow IPC file buffer (the bytes lancedb's own `add` would make of it). */
export function encodeChunk(chunk: Table): Uint8Array {
  return RecordBatchFileWriter.writeAll(chunk).toUint8Array(true)
}
