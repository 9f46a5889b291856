import { createRequire } from 'node:module'
import type Bindings from '@duckdb/node-bindings'
import { DuckDBDataChunk, type DuckDBAppender, type DuckDBType, type DuckDBValue } from '@duckdb/node-api'
import { TimeUnit, Type, type Data, type DataType, type RecordBatch } from 'apache-arrow'
import { AppError } from '../../contract'
import { duckValueOf } from './values'

/**
 * The raw C API under `@duckdb/node-api` (the same copy it loads): it copies a whole column slice into a DuckDB
 * vector in one call, where the node-api's value setters cost a call per value.
 */
const duckdb: typeof Bindings = createRequire(require.resolve('@duckdb/node-api'))('@duckdb/node-bindings')

/** Rows in a DuckDB data chunk (DuckDB's vector size). */
export const CHUNK_ROWS = duckdb.vector_size()

type Vec = ReturnType<typeof duckdb.data_chunk_get_vector>

/**
 * Lance → DuckDB: each Arrow batch goes into a DuckDB table through an appender, a data chunk of 2,048 rows at a
 * time (one chunk reused for the whole load: making one costs more than filling it). Fixed-width columns (integers,
 * floats, dates, timestamps, decimals, vectors as `FLOAT[d]`) are copied as bytes (Arrow and DuckDB lay them out
 * alike, validity bits included); short text as DuckDB's inlined strings in one copy, longer text value by value
 * through DuckDB's string setter; nested types (lists, structs) through the node-api's values. Measured in
 * `npm run bench -- sql` (docs/benchmarks.md).
 */
export class BatchWriter {
  private readonly chunk: DuckDBDataChunk

  constructor(
    private readonly appender: DuckDBAppender,
    private readonly types: readonly DuckDBType[],
  ) {
    this.chunk = DuckDBDataChunk.create(types)
  }

  append(batch: RecordBatch): void {
    const columns = batch.schema.fields.map((_, i) => batch.getChildAt(i)!.data[0]!)
    if (columns.length !== this.types.length) throw new Error(`a batch of ${columns.length} columns for a table of ${this.types.length}`)
    for (let start = 0; start < batch.numRows; start += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, batch.numRows - start)
      this.chunk.reset()
      fillChunk(this.chunk, columns, start, rows)
      this.appender.appendDataChunk(this.chunk)
    }
  }
}

/**
 * Rows `[start, start + rows)` of Arrow columns into a DuckDB data chunk (at most {@link CHUNK_ROWS} rows), column
 * `i` into the chunk's vector `i`: the appender's chunks and the held tables' scan (heldScan.ts) alike.
 */
export function fillChunk(chunk: DuckDBDataChunk, columns: readonly Data[], start: number, rows: number, inline?: readonly (Uint8Array | undefined)[]): void {
  chunk.rowCount = rows
  columns.forEach((data, i) => {
    const structs = inline?.[i]
    if (!structs) return writeColumn(chunk, i, data, start, rows)
    const vector = duckdb.data_chunk_get_vector(chunk.chunk, i)
    copyInto(vector, structs, start * 16, rows * 16)
    writeValidity(vector, data, data.offset + start, rows)
  })
}

/**
 * A text or binary column whose every value is short (≤ 12 bytes: flags, codes, ids) as DuckDB's `string_t` structs,
 * laid out once for a column scanned again and again (heldScan.ts); undefined for other columns.
 */
export function inlineStrings(data: Data): Uint8Array | undefined {
  if (data.type.typeId !== Type.Utf8 && data.type.typeId !== Type.Binary) return undefined
  const laid = layoutShortStrings(data.valueOffsets as Int32Array, data.values as Uint8Array, 0, data.length, 'stop')
  return laid && laid.long.length === 0 ? laid.structs : undefined
}

/** One batch through a {@link BatchWriter} of its own (tests, one-off loads). */
export function appendBatch(appender: DuckDBAppender, types: readonly DuckDBType[], batch: RecordBatch): void {
  new BatchWriter(appender, types).append(batch)
}

function writeColumn(chunk: DuckDBDataChunk, index: number, data: Data, start: number, rows: number): void {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, index)
  if (writeFast(vector, data, start, rows)) return
  // Nested and rare types: value by value through the node-api.
  const values: DuckDBValue[] = new Array(rows)
  for (let row = 0; row < rows; row++) values[row] = duckValueOf(data, start + row)
  chunk.setColumnValues(index, values)
}

/** Bytes per value of a fixed-width column that DuckDB stores as Arrow does, or 0. */
function fixedWidth(type: DataType): number {
  switch (type.typeId) {
    case Type.Int:
      return (type as unknown as { bitWidth: number }).bitWidth / 8
    case Type.Float:
      return [0, 4, 8][(type as unknown as { precision: number }).precision] ?? 0
    case Type.Date:
      return (type as unknown as { unit: number }).unit === 0 ? 4 : 0 // DateDay; DateMillisecond is converted
    case Type.Timestamp: {
      const { unit, timezone } = type as unknown as { unit: TimeUnit; timezone: string | null }
      // TIMESTAMPTZ is microseconds only: other units with a zone are converted.
      return timezone && unit !== TimeUnit.MICROSECOND ? 0 : 8
    }
    default:
      return 0
  }
}

/**
 * apache-arrow slices a fixed-width column's values and a variable-width column's offsets with the column (index 0 is
 * its first row); its validity bits and boolean values keep the bit offset `data.offset`.
 */
function writeFast(vector: Vec, data: Data, start: number, rows: number): boolean {
  const type = data.type
  const at = start
  const width = fixedWidth(type)
  if (data.nullCount === data.length) {
    // Null throughout (Arrow may leave out its values): only the validity, every row null.
    duckdb.vector_ensure_validity_writable(vector)
    duckdb.copy_data_to_vector_validity(vector, 0, new ArrayBuffer(Math.ceil(rows / 64) * 8), 0, Math.ceil(rows / 64) * 8)
    return true
  }
  if (width > 0) {
    copyInto(vector, data.values as ArrayBufferView, at * width, rows * width)
  } else if (type.typeId === Type.Utf8 || type.typeId === Type.Binary) {
    writeStrings(vector, data, at, rows)
  } else if (type.typeId === Type.Bool) {
    const bits = data.values as Uint8Array
    const out = new Uint8Array(rows)
    const bit = data.offset + start
    for (let row = 0; row < rows; row++) out[row] = (bits[(bit + row) >> 3]! >> ((bit + row) & 7)) & 1
    duckdb.copy_data_to_vector(vector, 0, out.buffer as ArrayBuffer, 0, rows)
  } else if (type.typeId === Type.Decimal) {
    writeDecimal(vector, data, at, rows)
  } else if (type.typeId === Type.Timestamp) {
    writeTimestampTz(vector, data, at, rows)
  } else if (type.typeId === Type.FixedSizeList) {
    const child = data.children[0]!
    const size = (type as unknown as { listSize: number }).listSize
    const childWidth = fixedWidth(child.type)
    if (childWidth === 0 || child.nullCount > 0) return false
    copyInto(duckdb.array_vector_get_child(vector), child.values as ArrayBufferView, at * size * childWidth, rows * size * childWidth)
  } else {
    return false
  }
  writeValidity(vector, data, data.offset + start, rows)
  return true
}

/**
 * Copy `byteCount` bytes of `view` from `from` into the vector, after checking they are there: a native copy past
 * the end would read foreign memory (a damaged batch is refused in words instead).
 */
function copyInto(vector: Vec, view: ArrayBufferView, from: number, byteCount: number): void {
  if (from + byteCount <= view.byteLength) {
    duckdb.copy_data_to_vector(vector, 0, view.buffer as ArrayBuffer, view.byteOffset + from, byteCount)
    return
  }
  throw new AppError('corrupt', 'A column read from Lance is shorter than its row count says', { hint: 'The table may be damaged: open it in the table view to check' })
}

/** Arrow's validity bits for rows [at, at + rows) into the vector's mask (both LSB-first); none when nothing is null. */
function writeValidity(vector: Vec, data: Data, at: number, rows: number): void {
  if (data.nullCount === 0 || !data.nullBitmap) return
  const bitmap = data.nullBitmap
  const bytes = Math.ceil(rows / 64) * 8
  let mask: Uint8Array
  if (at % 8 === 0) {
    mask = new Uint8Array(bytes)
    mask.set(bitmap.subarray(at / 8, Math.min(bitmap.length, at / 8 + Math.ceil(rows / 8))))
  } else {
    mask = new Uint8Array(bytes)
    for (let row = 0; row < rows; row++) if ((bitmap[(at + row) >> 3]! >> ((at + row) & 7)) & 1) mask[row >> 3]! |= 1 << (row & 7)
  }
  duckdb.vector_ensure_validity_writable(vector)
  duckdb.copy_data_to_vector_validity(vector, 0, mask.buffer as ArrayBuffer, 0, bytes)
}

/** Decimal128 into DuckDB's storage: int16/32/64 by precision (the low bytes of Arrow's 16), int128 as is. */
function writeDecimal(vector: Vec, data: Data, at: number, rows: number): void {
  const precision = (data.type as unknown as { precision: number }).precision
  const words = data.values as Uint32Array
  const raw = new Uint8Array(words.buffer, words.byteOffset, words.byteLength)
  if (precision > 18) return copyInto(vector, raw, at * 16, rows * 16)
  if (raw.byteLength < (at + rows) * 16) return copyInto(vector, raw, at * 16, rows * 16)
  const lows = new BigInt64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8)
  const out = precision <= 4 ? new Int16Array(rows) : precision <= 9 ? new Int32Array(rows) : new BigInt64Array(rows)
  for (let row = 0; row < rows; row++) {
    const low = lows[(at + row) * 2]!
    if (out instanceof BigInt64Array) out[row] = low
    else out[row] = Number(low)
  }
  duckdb.copy_data_to_vector(vector, 0, out.buffer as ArrayBuffer, 0, out.byteLength)
}

/** A zoned timestamp in seconds, milliseconds or nanoseconds as DuckDB's microseconds (nanoseconds truncate). */
function writeTimestampTz(vector: Vec, data: Data, at: number, rows: number): void {
  const unit = (data.type as unknown as { unit: TimeUnit }).unit
  const values = data.values as BigInt64Array
  const out = new BigInt64Array(rows)
  if (values.length < at + rows) return copyInto(vector, values, at * 8, rows * 8)
  for (let row = 0; row < rows; row++) {
    const v = values[at + row]!
    out[row] = unit === TimeUnit.SECOND ? v * 1_000_000n : unit === TimeUnit.MILLISECOND ? v * 1000n : v / 1000n
  }
  duckdb.copy_data_to_vector(vector, 0, out.buffer as ArrayBuffer, 0, out.byteLength)
}

/** DuckDB keeps strings of up to 12 bytes inside the 16-byte `string_t` itself: length (uint32), then the bytes. */
const INLINE_BYTES = 12

/**
 * Rows `[from, from + rows)` of a text or binary column (Arrow's offsets and bytes) as DuckDB's `string_t` structs:
 * each short value (≤ 12 bytes) laid in as its length and bytes; each longer value's row is listed in `long`, its struct
 * left for the caller (`'stop'`: give up at the first, for a column kept only when all are short). Undefined when the
 * offsets point past the bytes (a damaged batch).
 */
function layoutShortStrings(offsets: Int32Array, bytes: Uint8Array, from: number, rows: number, onLong: 'list' | 'stop' = 'list'): { structs: Uint8Array; long: number[] } | undefined {
  if (offsets.length < from + rows + 1 || offsets[from + rows]! > bytes.length) return undefined
  const structs = new Uint8Array(rows * 16)
  const lengths = new DataView(structs.buffer)
  const long: number[] = []
  for (let row = 0; row < rows; row++) {
    const start = offsets[from + row]!
    const length = offsets[from + row + 1]! - start
    if (length > INLINE_BYTES) {
      long.push(row)
      if (onLong === 'stop') break
      continue
    }
    lengths.setUint32(row * 16, length, true)
    // Byte by byte: a short string is a few bytes, and a subarray per row (an allocation) cost more than its copy.
    for (let b = 0, to = row * 16 + 4; b < length; b++) structs[to + b] = bytes[start + b]!
  }
  return { structs, long }
}

/**
 * Text and binary: the short values (DuckDB's inlined strings: flags, codes, ids) laid out as `string_t` structs in
 * one buffer and copied in one call; each longer value goes through DuckDB's string setter, which copies it into the
 * vector's own heap.
 */
function writeStrings(vector: Vec, data: Data, at: number, rows: number): void {
  const offsets = data.valueOffsets as Int32Array
  const bytes = data.values as Uint8Array
  const laid = layoutShortStrings(offsets, bytes, at, rows)
  if (!laid) return copyInto(vector, bytes, 0, Infinity)
  duckdb.copy_data_to_vector(vector, 0, laid.structs.buffer as ArrayBuffer, 0, laid.structs.byteLength)
  for (const row of laid.long) duckdb.vector_assign_string_element_len(vector, row, bytes.subarray(offsets[at + row]!, offsets[at + row + 1]!))
}
