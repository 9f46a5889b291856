import { z } from 'zod'
import { parseCellRange, SHEET_LAST_ROW } from './cellRange'
import { componentSchema, namespacePathSchema, type NamespacePath } from './component'
import { dataFormatSchema } from './dataFormat'
import type { AppErrorData } from './result'
import type { FieldInfo, TableRef } from './types'

/**
 * Import: a file becomes a table. The renderer previews a source, starts a job, and follows it
 * through `jobs/progress` events; the core streams the file in chunks (see src/core/import).
 */

export const importModeSchema = z.enum(['create', 'overwrite', 'append'])
export type ImportMode = z.infer<typeof importModeSchema>

export const uploadIdSchema = z.string().regex(/^u[A-Za-z0-9_-]{1,64}$/, 'must be an upload id')

/**
 * Where the bytes are: a local path (Electron: `webUtils.getPathForFile`) or an upload the
 * harness staged from an HTTP body (no paths in a browser).
 */
export const importSourceSchema = z.union([
  z.object({ path: z.string().min(1, 'must not be empty').max(4096) }).strict(),
  z.object({ uploadId: uploadIdSchema }).strict(),
])
export type ImportSource = z.infer<typeof importSourceSchema>

/** What a column of a CSV or JSON file can be imported as, chosen in the sheet instead of the inferred type. */
export const importColumnTypeSchema = z.enum(['text', 'integer', 'float', 'boolean', 'date', 'timestamp', 'timestamptz'])
export type ImportColumnType = z.infer<typeof importColumnTypeSchema>

const importTarget = z.object({
  connectionId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a connection id'),
  namespace: namespacePathSchema,
  source: importSourceSchema,
  /**
   * List-of-float columns to write as vectors (`FixedSizeList<Float32>[d]`). Absent = every
   * detected candidate; `[]` = none.
   */
  vectorColumns: z.array(z.string().min(1).max(1024)).max(1000).optional(),
  /** CSV: keep ISO-8601 dates and timestamps as text (default: infer Date32 / Timestamp columns). */
  datesAsText: z.boolean().optional(),
  /** CSV and JSON: column name → the type to import it as (instead of the inferred one). */
  columnTypes: z.record(z.string().min(1).max(1024), importColumnTypeSchema).optional(),
  /** Excel: the sheet to import (by name); absent = the workbook's first sheet. */
  sheet: z.string().min(1).max(256).optional(),
  /**
   * Excel: sheets read one after another into one table (their header rows must name the same columns); when
   * given, `sheet` is ignored. Each sheet as a table of its own is one import per sheet (`sheet`).
   */
  sheets: z.array(z.string().min(1).max(256)).min(1).max(64).optional(),
  /** Excel: the row (1-based, as the sheet numbers it) naming the columns; rows above it are left out. Absent = found. */
  headerRow: z.number().int().min(1).max(SHEET_LAST_ROW).optional(),
  /** Excel: only these cells, in A1 notation (`B3:F200`, `B:F`). */
  range: z
    .string()
    .max(32)
    .superRefine((text, ctx) => {
      const range = parseCellRange(text)
      if (typeof range === 'string') ctx.addIssue({ code: 'custom', message: range })
    })
    .optional(),
  /**
   * Harness uploads: keep the staged file when this job ends (another import of the same upload follows: one job
   * per sheet). The last job's end deletes it.
   */
  keepUpload: z.boolean().optional(),
})

export const importPreviewInput = importTarget.extend({
  /** The table name to check against; absent = the name suggested from the file name. */
  name: z.string().max(1024).optional(),
  mode: importModeSchema.optional(),
})

export const importStartInput = importTarget.extend({
  name: componentSchema,
  mode: importModeSchema.default('create'),
  /** The data file format of a new table (create, overwrite); absent = the catalog's majority format (`catalog/dataFormats`). */
  dataFormat: dataFormatSchema.optional(),
})

export type ImportFormat = 'arrow-file' | 'arrow-stream' | 'parquet' | 'csv' | 'jsonl' | 'json' | 'xlsx'

export interface VectorCandidate {
  column: string
  dimension: number
  /** The column's type in the file, e.g. `List<Float64>`. */
  sourceType: string
  /** Whether it will be written as a vector (from `vectorColumns`). */
  accepted: boolean
}

/** How the file's schema differs from an existing table's (what blocks `append`). */
export interface SchemaDiff {
  /** Columns of the table the file lacks. */
  missing: string[]
  /** Columns of the file the table lacks. */
  extra: string[]
  /** Same name, different type. */
  changed: { column: string; table: string; file: string }[]
}

/** A column whose type is converted losslessly on the way in, e.g. `name`: Utf8View → Utf8. */
export interface ImportConversion {
  column: string
  from: string
  to: string
  /** What the conversion keeps, in words (a timestamp zone normalised to UTC: where the file's zone went). */
  note?: string
}

/** Excel: the workbook's sheets, the one read, and where its columns are named. */
export interface SheetsRead {
  names: string[]
  chosen: string
  /** The row (1-based, as the sheet numbers it) that names the columns. */
  headerRow?: number
  /** Rows above the header left out as titles because they looked like titles (none when a header row was chosen). */
  titleRows?: number
  /** The cells read, in A1 notation, when a range was chosen. */
  range?: string
  /** The sheets read into the one table, in order, when more than one. */
  read?: string[]
}

/** A column of a text file (CSV, JSON) as inferred from its first rows, and what it can be changed to. */
export interface ImportColumnInfo {
  name: string
  /** The type written (the inferred one, or the one chosen in `columnTypes`). */
  type: string
  /** The choice it corresponds to (null for nested JSON types, which can only become text). */
  choice: ImportColumnType | null
  /** The choice inference made. */
  inferred: ImportColumnType | null
  choices: ImportColumnType[]
  /** Why the type was inferred, where not obvious ("text: values with leading zeros, e.g. 00501"). */
  reason: string | null
  /** Empty cells (CSV) or null/missing values (JSON) among the sampled rows; they become nulls. */
  nulls: number
  sampledRows: number
}

export interface ImportPreview {
  fileName: string
  format: ImportFormat
  formatLabel: string
  bytes: number
  /** A valid table name made from the file name. */
  suggestedName: string
  /** The name checked (input `name`, else `suggestedName`) and why it is not valid, or null. */
  name: string
  nameProblem: string | null
  /** The schema that will be written (vector choices applied). */
  schema: FieldInfo[]
  /** Columns converted on the way in because Lance cannot store the file's type (may be absent: none). */
  conversions?: ImportConversion[]
  /** How the file is read, in words: compression, encoding, CSV delimiter, which JSON key holds the rows. */
  readAs?: string[]
  /** CSV and JSON: each column's inferred type, why, its empty cells, and the types it can be changed to. */
  columns?: ImportColumnInfo[]
  /** Excel: the workbook's sheets in tab order, the one read, and where its header was. */
  sheets?: SheetsRead
  /** Rows `import/sample` returns (up to 20). */
  sampleRowCount: number
  /** Total rows when cheap to know (Arrow file footer, Parquet metadata); null for streams and text. */
  rowCount: number | null
  vectorCandidates: VectorCandidate[]
  /** The table of that name in the target namespace, if it exists. */
  existing: { version: number; rowCount: number; schemaDiff: SchemaDiff | null } | null
  /** Why the chosen mode (input `mode`, default `create`) cannot run, or null when it can. */
  modeProblem: string | null
}

export type JobState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled'

export interface ImportProgress {
  bytesRead: number
  totalBytes: number
  rows: number
  /** Known for Arrow files and Parquet, else null. */
  totalRows: number | null
  rowsPerSecond: number
  bytesPerSecond: number
  /** Seconds left, from the byte rate; null until it can be estimated. */
  etaSeconds: number | null
  /** What the job is doing now. */
  phase: 'waiting' | 'reading' | 'writing' | 'committing' | 'cleaning up' | 'finished'
}

export interface ImportJobInfo {
  id: string
  /** `recovery`: a finished note saying what opening a catalog cleaned up after a crash (see `note`). */
  kind: 'import' | 'recovery'
  /** In words, what a `recovery` entry did. */
  note?: string
  state: JobState
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  fileName: string
  format: ImportFormat | null
  mode: ImportMode
  target: TableRef
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
  progress: ImportProgress
  /** Why it failed (state `failed`). */
  error: AppErrorData | null
  /** The written table (state `done`). */
  result: { version: number; rowCount: number } | null
}

export type { NamespacePath }
