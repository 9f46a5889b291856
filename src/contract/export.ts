import { z } from 'zod'
import { componentSchema, namespacePathSchema } from './component'
import type { AppErrorData } from './result'
import type { TableRef } from './types'
import { tableViewSchema } from './view'

/**
 * Export: the rows of a table view (filter, sort and visible columns applied, at its version) written
 * to a file, streamed batch by batch in core, followed through `jobs/progress` events.
 */

export const exportFormatSchema = z.enum(['csv', 'jsonl', 'arrow', 'parquet'])
export type ExportFormat = z.infer<typeof exportFormatSchema>

export const EXPORT_FORMATS: Record<ExportFormat, { label: string; extension: string }> = {
  csv: { label: 'CSV', extension: 'csv' },
  jsonl: { label: 'JSON lines', extension: 'jsonl' },
  arrow: { label: 'Arrow IPC (file)', extension: 'arrow' },
  parquet: { label: 'Parquet', extension: 'parquet' },
}

export const exportJobIdSchema = z.string().regex(/^x[A-Za-z0-9_-]{1,64}$/, 'must be an export job id')

export const exportStartInput = z.object({
  connectionId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a connection id'),
  namespace: namespacePathSchema,
  name: componentSchema,
  view: tableViewSchema,
  format: exportFormatSchema,
  /**
   * Where to write (Electron: the path from `dialogs/saveFile`). Absent = a download: the host keeps the
   * file in its own temporary folder and serves it once (the harness, `GET /api/exports/<jobId>`).
   */
  path: z.string().min(1, 'must not be empty').max(4096).optional(),
})

export interface ExportProgress {
  rows: number
  /** Rows the view holds, when known. */
  totalRows: number | null
  bytesWritten: number
  rowsPerSecond: number
  bytesPerSecond: number
}

export interface ExportJobInfo {
  id: string
  kind: 'export'
  /** `queued`: waiting for a free slot or for memory (see `queueReason`); Cancel ends it at once. */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  format: ExportFormat
  /** The file name shown (the chosen file's base name, or the download's name). */
  fileName: string
  source: TableRef
  /** True when the file is a download the host serves (no `path` was given). */
  download: boolean
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
  progress: ExportProgress
  error: AppErrorData | null
  result: { rows: number; bytes: number } | null
}
