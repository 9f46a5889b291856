import { basename, extname } from 'node:path'
import { RecordBatchReader, Table, tableToIPC, type RecordBatch, type Schema } from 'apache-arrow'
import { componentProblem, type ImportColumnType, type ImportMode, type ImportPreview, type SheetLayout } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { openSource } from './open'
import type { BatchSource } from './source'
import { describeDiff, isEmptyDiff, schemaDiff, schemaInfo } from './schema'
import { FORMAT_LABELS } from './sniff'
import { planSchema } from './readSide'
import { describeOrNull } from './write'

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

/** What the file itself tells, for the import sheet: read from the file alone (in a reader process in the app). */
export interface InspectRequest {
  path: string
  fileName: string
  vectorColumns?: string[]
  /** CSV: keep dates and timestamps as text. */
  datesAsText?: boolean
  sheet?: string
  layout?: SheetLayout
  /** CSV and JSON: column → type to import it as. */
  columnTypes?: Record<string, ImportColumnType>
  signal?: AbortSignal
  /** Called once the file is open, before its first batch is read (a reader process tells its host what it reads). */
  onOpened?: (source: BatchSource) => void | Promise<void>
}

export interface PreviewRequest extends InspectRequest {
  client: NamespaceClient
  namespace: readonly string[]
  name?: string
  mode?: ImportMode
}

/** The preview's parts that come from the file (everything but the target's name, mode and existing table). */
export type FileInspection = Omit<ImportPreview, 'name' | 'nameProblem' | 'existing' | 'modeProblem'>

/** A file inspected: what the sheet shows of it, and the first rows in the written schema (Arrow IPC stream bytes). */
export interface Inspection {
  file: FileInspection
  sample: Uint8Array
}

/**
 * What the import sheet shows: the schema that will be written, the first rows (in that schema,
 * as Arrow IPC), vector candidates, the row count when cheap, and what the target name holds.
 * Reads only the first batch of the file.
 */
export async function previewImport(req: PreviewRequest): Promise<ImportPreview> {
  return previewOf(await inspectFile(req), req)
}

/** The first rows (up to {@link PREVIEW_ROWS}) in the written schema, as Arrow IPC stream bytes. */
export async function previewSample(req: PreviewRequest): Promise<Uint8Array> {
  return (await inspectFile(req)).sample
}

/** Read the file's first batch and say what will be written: the file's side of the preview, never the catalog's. */
export async function inspectFile(req: InspectRequest): Promise<Inspection> {
  const source = await openSource(req.path, { fileName: req.fileName, signal: req.signal, datesAsText: req.datesAsText, columnTypes: req.columnTypes, sheet: req.sheet, layout: req.layout })
  let first: RecordBatch | null
  const batches = source.batches()
  try {
    await req.onOpened?.(source)
    const step = await batches.next()
    first = step.done ? null : step.value
  } finally {
    await batches.return(undefined).catch(() => undefined)
    await source.close().catch(() => undefined)
  }
  const { transform, candidates } = planSchema(source, first, req.vectorColumns)
  const sampleBatches = first ? [transform.apply(first.slice(0, Math.min(first.numRows, PREVIEW_ROWS)))] : []
  const sample = new Table(transform.schema, sampleBatches)
  const file: FileInspection = {
    fileName: req.fileName,
    format: source.format,
    formatLabel: FORMAT_LABELS[source.format],
    bytes: source.size,
    suggestedName: suggestTableName(req.fileName),
    schema: schemaInfo(transform.schema),
    conversions: source.conversions ?? [],
    ...(source.readAs ? { readAs: source.readAs } : {}),
    ...(source.sheets ? { sheets: source.sheets } : {}),
    ...(source.columns ? { columns: source.columns } : {}),
    sampleRowCount: sample.numRows,
    rowCount: source.rowCount,
    vectorCandidates: candidates,
  }
  return { file, sample: tableToIPC(sample, 'stream') }
}

/**
 * The preview of an inspected file for a target: its name checked, what the name holds now, whether the mode fits.
 * `schema` is the written schema (read from the sample's bytes when absent: our own encoding, never the file).
 */
export async function previewOf(inspection: Inspection, req: Omit<PreviewRequest, 'path'>, schema?: Schema): Promise<ImportPreview> {
  const { file } = inspection
  const name = req.name ?? file.suggestedName
  const nameProblem = componentProblem(name)
  const mode = req.mode ?? 'create'
  let existing: ImportPreview['existing'] = null
  let modeProblem: string | null = null
  if (nameProblem === null) {
    const id: TableId = { namespace: req.namespace, name }
    const found = await describeOrNull(req.client, id, req.signal)
    if (found) {
      const written = schema ?? RecordBatchReader.from(inspection.sample).open().schema
      const diff = schemaDiff(found.schema, written)
      existing = { version: found.version, rowCount: found.rowCount, schemaDiff: isEmptyDiff(diff) ? null : diff }
      if (mode === 'create') modeProblem = `A table named "${name}" already exists; choose another name, or overwrite or append`
      if (mode === 'append' && !isEmptyDiff(diff)) modeProblem = `The columns differ from the table's: ${describeDiff(diff)}`
    } else if (mode === 'append') {
      modeProblem = `There is no table "${name}" to append to`
    }
  }
  return { ...file, name, nameProblem, existing, modeProblem }
}
