import { basename, extname } from 'node:path'
import { Table, tableToIPC, type RecordBatch } from 'apache-arrow'
import { componentProblem, type ImportColumnType, type ImportMode, type ImportPreview } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { openSource } from './open'
import { describeDiff, isEmptyDiff, schemaDiff, schemaInfo } from './schema'
import { FORMAT_LABELS } from './sniff'
import { describeOrNull, planSchema } from './write'

export const PREVIEW_ROWS = 20

/** A valid table name from a file name: the stem, other characters turned into `_`. */
export function suggestTableName(fileName: string): string {
  let stem = basename(fileName, extname(fileName))
  if (/\.(gz|gzip|zst|zstd)$/i.test(fileName)) stem = basename(stem, extname(stem))
  // `data.csv.gz`-style double extensions and `.feather` keep only the first stem.
  stem = stem.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '')
  if (stem === '' || stem === '.' || stem === '..') stem = 'imported'
  return stem.slice(0, 255)
}

export interface PreviewRequest {
  path: string
  fileName: string
  client: NamespaceClient
  namespace: readonly string[]
  name?: string
  mode?: ImportMode
  vectorColumns?: string[]
  /** CSV: keep dates and timestamps as text. */
  datesAsText?: boolean
  sheet?: string
  /** CSV and JSON: column → type to import it as. */
  columnTypes?: Record<string, ImportColumnType>
  signal?: AbortSignal
}

/**
 * What the import sheet shows: the schema that will be written, the first rows (in that schema,
 * as Arrow IPC), vector candidates, the row count when cheap, and what the target name holds.
 * Reads only the first batch of the file.
 */
export async function previewImport(req: PreviewRequest): Promise<ImportPreview> {
  return (await inspect(req)).preview
}

/** The first rows (up to {@link PREVIEW_ROWS}) in the written schema, as Arrow IPC stream bytes. */
export async function previewSample(req: PreviewRequest): Promise<Uint8Array> {
  return (await inspect(req)).sample
}

async function inspect(req: PreviewRequest): Promise<{ preview: ImportPreview; sample: Uint8Array }> {
  const source = await openSource(req.path, { fileName: req.fileName, signal: req.signal, datesAsText: req.datesAsText, columnTypes: req.columnTypes, sheet: req.sheet })
  let first: RecordBatch | null
  const batches = source.batches()
  try {
    const step = await batches.next()
    first = step.done ? null : step.value
  } finally {
    await batches.return(undefined).catch(() => undefined)
    await source.close().catch(() => undefined)
  }
  const { transform, candidates } = planSchema(source, first, req.vectorColumns)
  const sampleBatches = first ? [transform.apply(first.slice(0, Math.min(first.numRows, PREVIEW_ROWS)))] : []
  const sample = new Table(transform.schema, sampleBatches)

  const suggestedName = suggestTableName(req.fileName)
  const name = req.name ?? suggestedName
  const nameProblem = componentProblem(name)
  const mode = req.mode ?? 'create'
  let existing: ImportPreview['existing'] = null
  let modeProblem: string | null = null
  if (nameProblem === null) {
    const id: TableId = { namespace: req.namespace, name }
    const found = await describeOrNull(req.client, id, req.signal)
    if (found) {
      const diff = schemaDiff(found.schema, transform.schema)
      existing = { version: found.version, rowCount: found.rowCount, schemaDiff: isEmptyDiff(diff) ? null : diff }
      if (mode === 'create') modeProblem = `A table named "${name}" already exists; choose another name, or overwrite or append`
      if (mode === 'append' && !isEmptyDiff(diff)) modeProblem = `The columns differ from the table's: ${describeDiff(diff)}`
    } else if (mode === 'append') {
      modeProblem = `There is no table "${name}" to append to`
    }
  }
  const preview: ImportPreview = {
    fileName: req.fileName,
    format: source.format,
    formatLabel: FORMAT_LABELS[source.format],
    bytes: source.size,
    suggestedName,
    name,
    nameProblem,
    schema: schemaInfo(transform.schema),
    conversions: source.conversions ?? [],
    ...(source.readAs ? { readAs: source.readAs } : {}),
    ...(source.sheets ? { sheets: source.sheets } : {}),
    ...(source.columns ? { columns: source.columns } : {}),
    sampleRowCount: sample.numRows,
    rowCount: source.rowCount,
    vectorCandidates: candidates,
    existing,
    modeProblem,
  }
  return { preview, sample: tableToIPC(sample, 'stream') }
}
