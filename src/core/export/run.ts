import type { RecordBatch, Schema } from 'apache-arrow'
import { AppError, viewPredicate, type ExportFormat, type ExportProgress, type TableRef, type TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { writeFileAtomically } from './file'
import { readAhead } from './readAhead'
import { scanView } from './scanFallback'
import { WRITERS } from './writers'

export interface ExportOptions {
  signal?: AbortSignal
  onProgress?: (progress: ExportProgress) => void
  progressIntervalMs?: number
}

/**
 * Export one table view to `path` in `format`: the view's rows stream from the catalog batch by batch
 * into the format's writer, into a temporary file renamed to `path` at the end.
 */
export async function exportView(
  client: NamespaceClient,
  source: TableRef,
  view: TableViewSpec,
  format: ExportFormat,
  path: string,
  options: ExportOptions = {},
): Promise<{ rows: number; bytes: number }> {
  const id = { namespace: source.namespace, name: source.name }
  const description = await client.describeTable(id, { signal: options.signal })
  const schema = projectSchema(description.schema, view.columns)
  // Two batches requested ahead: the catalog reads the next while the writer encodes this one.
  const batches = readAhead(scanView(client, id, view, { signal: options.signal }), 2)
  return exportBatches(batches, format, path, { ...options, schema, totalRows: viewPredicate(view) !== undefined || view.search || view.rowSet ? null : description.rowCount })
}

/** The writing half of {@link exportView}, for any stream of batches (the benchmark feeds bare lancedb's). */
export async function exportBatches(
  batches: AsyncIterable<RecordBatch>,
  format: ExportFormat,
  path: string,
  options: ExportOptions & { schema?: Schema; totalRows?: number | null } = {},
): Promise<{ rows: number; bytes: number }> {
  const started = Date.now()
  let rows = 0
  let lastEmit = 0
  const interval = options.progressIntervalMs ?? 100
  let sinkBytes = () => 0
  const report = (force: boolean) => {
    const now = Date.now()
    if (!options.onProgress || (!force && now - lastEmit < interval)) return
    lastEmit = now
    const seconds = Math.max(0.001, (now - started) / 1000)
    const bytes = sinkBytes()
    options.onProgress({ rows, totalRows: options.totalRows ?? null, bytesWritten: bytes, rowsPerSecond: Math.round(rows / seconds), bytesPerSecond: Math.round(bytes / seconds) })
  }
  const { bytes } = await writeFileAtomically(
    path,
    async (sink) => {
      sinkBytes = () => sink.bytes
      await WRITERS[format](abortable(batches, options.signal), sink, options.schema, (n) => {
        rows += n
        report(false)
      })
    },
    options.signal,
  )
  report(true)
  return { rows, bytes }
}

async function* abortable(batches: AsyncIterable<RecordBatch>, signal?: AbortSignal): AsyncIterable<RecordBatch> {
  for await (const batch of batches) {
    signal?.throwIfAborted()
    yield batch
  }
  signal?.throwIfAborted()
}

function projectSchema(schema: Schema, columns: readonly string[] | undefined): Schema {
  if (!columns) return schema
  const names = new Set(schema.fields.map((f) => f.name))
  const unknown = columns.find((c) => !names.has(c))
  if (unknown !== undefined) throw new AppError('invalid_input', `The table has no column named "${unknown.slice(0, 100)}"`)
  return schema.select([...columns])
}
