import type { RecordBatch, Schema } from 'apache-arrow'
import type { ImportColumnInfo, ImportColumnType, ImportConversion, SheetLayout, SheetsRead } from '../../contract'
import type { Compression, TextEncoding } from './readers/text'
import type { ImportFormat } from './sniff'
import type { PassThrough } from '../arrow/ipc/reader'

export type { PassThrough, RawBatch } from '../arrow/ipc/reader'

/**
 * A file opened for import: its schema is known before the first batch is written, its batches
 * are read lazily (never the whole file in memory). `batches()` may be called once.
 */
export interface BatchSource {
  readonly format: ImportFormat
  /** The file's schema (text formats: inferred from the first rows). */
  readonly schema: Schema
  /** File size in bytes. */
  readonly size: number
  /** Total rows when known cheaply (Arrow file footer, Parquet metadata), else null. */
  readonly rowCount: number | null
  /** Columns whose type is converted on the way in (Lance cannot store the file's type). */
  readonly conversions?: ImportConversion[]
  /** Text formats: how the file is read, in words (compression, encoding, delimiter, JSON key). */
  readonly readAs?: string[]
  /** Excel: the workbook's sheets in tab order, the one read, where its header was. */
  readonly sheets?: SheetsRead
  /** Text formats: the inferred columns, why, their empty cells, what they can be changed to. */
  readonly columns?: ImportColumnInfo[]
  /** Bytes consumed so far (for progress). */
  bytesRead(): number
  batches(): AsyncGenerator<RecordBatch>
  /**
   * Arrow IPC sources whose batches Lance can take as the file wrote them (see IpcReader.passThrough):
   * call instead of `batches()`; decoded batches come checked, raw ones are checked by arrow-rs.
   */
  readonly passThrough?: PassThrough | null
  close(): Promise<void>
}

export interface OpenOptions {
  /** Shown in messages ("embeddings.csv line 12: …"). */
  fileName: string
  signal?: AbortSignal
  /** Text formats: rows read before the schema is fixed. */
  inferRows?: number
  /** CSV: keep ISO-8601 dates and timestamps as text instead of inferring Date32 / Timestamp columns. */
  datesAsText?: boolean
  /** Text formats: column name → type to import it as instead of the inferred one. */
  columnTypes?: Record<string, ImportColumnType>
  /** Text formats: how the bytes are packed and encoded (from sniffing). */
  compression?: Compression | null
  encoding?: TextEncoding
  /** Excel: the sheet to read (by name); the first when absent. */
  sheet?: string
  /** Excel: the header row, a block of cells, several sheets into one table. */
  layout?: SheetLayout
  /** Rows per batch produced by the text and Parquet readers. */
  batchRows?: number
}

export const DEFAULT_INFER_ROWS = 10_000
export const DEFAULT_BATCH_ROWS = 10_000
