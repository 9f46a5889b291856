import { DataType, RecordBatchFileWriter, Table, tableFromIPC, type Field, type RecordBatch, type Schema } from 'apache-arrow'
import { AppError, type ImportMode, type ImportProgress, type VectorCandidate } from '../../contract'
import type { NamespaceClient, TableDescription } from '../namespace/client'
import { formatNamespace, formatTableId, type TableId } from '../namespace/path'
import { toAppError } from '../errors'
import { Rechunker, defaultChunkLimits, batchBytes, type ChunkLimits } from './chunks'

/** Rows read per page when a staging table is copied over the target (catalogs that cannot rename). */
const COPY_PAGE_ROWS = 10_000
import { ProgressMeter } from './progress'
import { assertWritable, describeDiff, isEmptyDiff, schemaDiff } from './schema'
import type { BatchSource } from './source'
import { BatchTransform, detectVectorCandidates } from './transform'
import { throwIfAborted } from './readers/errors'
import { stagingName } from '../namespace/dir/staging'
import type { PassThrough, RawBatch } from './source'

export interface WriteOptions {
  mode: ImportMode
  signal?: AbortSignal
  onProgress?: (progress: ImportProgress) => void
  /** Columns to write as vectors; absent = every detected candidate. */
  vectorColumns?: string[]
  limits?: ChunkLimits
  progressIntervalMs?: number
  /** Unused since staging names carry the process id and a random part (kept for callers). */
  stagingTag?: string
}

export interface WriteResult {
  version: number
  rowCount: number
  rowsWritten: number
}

/** Rows looked at to detect vector columns (the preview shows 20; more makes the guess safer). */
export const VECTOR_SAMPLE_ROWS = 1000

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

export async function describeOrNull(client: NamespaceClient, id: TableId, signal?: AbortSignal): Promise<TableDescription | null> {
  try {
    return await client.describeTable(id, { signal })
  } catch (error) {
    if (toAppError(error).code === 'not_found') return null
    throw error
  }
}

/**
 * Stream `source` into the table `id`, in chunks, one write in flight while the next chunk is read
 * (perf-baselines §3: 11–24% faster). Guarantees, whatever fails or is cancelled:
 * - `create` refuses an existing table before writing, and leaves no table behind;
 * - `append` refuses a different schema before writing (with the difference), and leaves the table
 *   at the version it had (restoreVersion);
 * - `overwrite` writes a staging table first, so the old table stays as it was (and readable) while
 *   the file is read; only a complete staging table replaces it (see {@link commitOverwrite}).
 */
export async function writeSource(client: NamespaceClient, id: TableId, source: BatchSource, options: WriteOptions): Promise<WriteResult> {
  const { mode, signal } = options
  const limits = options.limits ?? defaultChunkLimits()
  const meter = new ProgressMeter(source.size, source.rowCount, options.onProgress ?? (() => undefined), options.progressIntervalMs)
  // Record batches Lance can take as the file wrote them go to it undecoded (see passThroughFor); an append
  // decodes, as it may reorder the file's columns to the table's.
  const pass = mode === 'append' ? null : passThroughFor(client, source)
  const batches: AsyncGenerator<RecordBatch | RawBatch> = pass ? pass.batches(limits) : source.batches()
  try {
    throwIfAborted(signal)
    meter.update({ phase: 'reading' }, true)
    // Read the first batch before touching the catalog: most bad files fail here, with nothing written.
    // (A raw first batch is checked by arrow-rs when the table is created from it.)
    const firstStep = await batches.next()
    let first: RecordBatch | RawBatch | null = firstStep.done ? null : firstStep.value
    const { transform } = planSchema(source, first && !('raw' in first) ? first : null, options.vectorColumns)
    const schema = transform.schema

    const existing = await describeOrNull(client, id, signal)
    let writeId: TableId = id
    let appendColumns: string[] | null = null
    if (mode === 'create' && existing) {
      throw new AppError('already_exists', `A table named "${id.name}" already exists in ${formatNamespace(id.namespace)}`, {
        hint: 'Choose another name, or import in overwrite or append mode',
      })
    }
    if (mode === 'append') {
      if (!existing) throw new AppError('not_found', `There is no table "${id.name}" in ${formatNamespace(id.namespace)} to append to`, { hint: 'Import in create mode instead' })
      const diff = schemaDiff(existing.schema, schema)
      if (!isEmptyDiff(diff)) {
        throw new AppError('conflict', `The file's columns do not match the table "${id.name}": ${describeDiff(diff)}`, {
          detail: JSON.stringify(diff),
          hint: 'Import into a new table instead, or fix the columns',
        })
      }
      appendColumns = existing.schema.fields.map((f) => f.name)
    }
    // Where the catalog can publish atomically (dir), a new table is written under a hidden staging name and
    // appears under its own name only when complete; overwrite always stages (and then swaps or copies).
    const staged = mode === 'overwrite' || (mode === 'create' && client.replaceTable !== undefined)
    if (staged) writeId = { namespace: id.namespace, name: stagingName(id.name) }
    throwIfAborted(signal)
    // An append is recorded durably first (dir), so a crash mid-way is rolled back on the next open.
    const clearAppend = mode === 'append' && existing && client.recordAppend ? await client.recordAppend(id, existing.version) : null

    // What cleanup must undo.
    let createAttempted = false
    let createRefused = false
    let appended = false
    let rowsWritten = 0
    let inflight: Promise<void> | null = null
    // Decoded chunks go to Lance as IPC bytes where the client takes them (the pass-through's calls), unless lancedb
    // must see the Arrow table itself (embedding functions are applied by its `add`).
    const ipcWrites = !!client.appendIpc && !!client.createTableIpc && !schema.metadata.has('embedding_functions')
    const write = async (chunk: Table | RawBatch[], isFirst: boolean) => {
      if (Array.isArray(chunk)) {
        if (isFirst) createAttempted = true
        else appended = true
        await writeRaw(client, writeId, pass!, chunk, isFirst, () => (createRefused = true))
        rowsWritten += chunk.reduce((n, b) => n + b.rows, 0)
        meter.update({ rows: rowsWritten, bytesRead: source.bytesRead(), phase: 'writing' })
        return
      }
      const rows = chunk.numRows
      const creating = isFirst && mode !== 'append'
      // Encoded here and the decoded chunk let go before Lance writes: while Lance holds its own copy and the next
      // chunk is gathered, the chunk itself would be one more copy of the same rows (a chunk's worth of peak RSS).
      const ipc = ipcWrites ? encodeChunk(appendColumns && !creating ? chunk.select(appendColumns) : chunk) : null
      if (ipc) chunk = null as unknown as Table
      if (creating) {
        createAttempted = true
        try {
          if (ipc) await client.createTableIpc!(writeId, ipc, { mode: 'create' })
          else await client.createTable(writeId, chunk, { mode: 'create' })
        } catch (error) {
          if (toAppError(error).code === 'already_exists') createRefused = true
          throw error
        }
      } else {
        appended = true
        if (ipc) await client.appendIpc!(writeId, ipc)
        else await client.appendRows(writeId, appendColumns ? chunk.select(appendColumns) : chunk)
      }
      rowsWritten += rows
      meter.update({ rows: rowsWritten, bytesRead: source.bytesRead(), phase: 'writing' })
    }
    try {
      const all = (async function* () {
        // Hand the first batch over and drop our reference, so it is not held for the whole import.
        const head = first
        first = null
        if (head) yield head
        yield* batches
      })()
      let isFirst = true
      for await (const chunk of chunksOf(all, transform, schema, limits)) {
        if (inflight) await inflight
        throwIfAborted(signal)
        inflight = write(chunk, isFirst)
        inflight.catch(() => undefined) // awaited on the next turn or in the cleanup; never unhandled
        isFirst = false
        meter.update({ bytesRead: source.bytesRead() })
      }
      if (inflight) await inflight
      inflight = null
      throwIfAborted(signal)
      if (isFirst && mode !== 'append') {
        // No rows: an empty table with the file's schema.
        createAttempted = true
        await client.createEmptyTable(writeId, schema, { mode: 'create' })
      }
    } catch (error) {
      meter.update({ phase: 'cleaning up' }, true)
      if (inflight) await inflight.catch(() => undefined)
      const cleanup = await undo(client, writeId, mode, existing, { createAttempted, createRefused, appended })
      if (!cleanup) await clearAppend?.()
      throw withCleanupNote(asDamaged(toAppError(error), source), cleanup)
    }
    await clearAppend?.()

    if (mode === 'overwrite') {
      meter.update({ phase: 'committing', bytesRead: source.size }, true)
      await commitOverwrite(client, writeId, id, existing, schema, limits)
    } else if (staged) {
      meter.update({ phase: 'committing', bytesRead: source.size }, true)
      try {
        await client.renameTable(writeId, id.name) // publish: refuses a name taken meanwhile
      } catch (error) {
        await dropIfExists(client, writeId).catch(() => undefined)
        throw error
      }
    }
    const done = await client.describeTable(id)
    meter.update({ phase: 'finished', rows: rowsWritten, bytesRead: source.size }, true)
    return { version: done.version, rowCount: done.rowCount, rowsWritten }
  } finally {
    await batches.return(undefined).catch(() => undefined)
    await source.close().catch(() => undefined)
  }
}

export { stagingName }

/**
 * The source's pass-through (record batches handed to Lance as their message bytes, never decoded or
 * re-encoded here) when the catalog can take IPC bytes and nothing must change on the way: no list-of-float
 * column that could become a vector (the transform would rewrite it). Views reach Lance as they are; it
 * stores them as their plain types, as the decoded path does.
 */
function passThroughFor(client: NamespaceClient, source: BatchSource): PassThrough | null {
  if (!client.appendIpc || !client.createTableIpc || !source.passThrough) return null
  const vectorLike = source.schema.fields.some((f) => {
    const type = f.type as DataType
    if (!DataType.isList(type) && !DataType.isFixedSizeList(type)) return false
    const child = (type.children?.[0] as Field | undefined)?.type
    return !!child && DataType.isFloat(child) && !(DataType.isFixedSizeList(type) && String(child) === 'Float32')
  })
  return vectorLike ? null : source.passThrough
}

/** "Failed to read record batch from IPC file: Io error: Data corruption detected Caused by: …" → "Data corruption detected". */
function rustReason(text: string): string {
  let reason = text.split(/\s+Caused by:/)[0]!.trim()
  const prefix = /^(?:Failed to read [^:]*|[A-Za-z ]*error|LanceError\(\w+\)): /i
  while (prefix.test(reason)) reason = reason.replace(prefix, '')
  return reason.length > 200 ? `${reason.slice(0, 200)}…` : reason || text
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
function encodeChunk(chunk: Table): Uint8Array {
  return RecordBatchFileWriter.writeAll(chunk).toUint8Array(true)
}

/**
 * One commit of raw batches (the first creates the table); arrow-rs's complaints about them mean the file's
 * data is damaged.
 */
async function writeRaw(client: NamespaceClient, id: TableId, pass: PassThrough, group: RawBatch[], create: boolean, refused: () => void): Promise<void> {
  const messages = group.map((b) => b.message)
  const file = pass.frame(messages)
  try {
    if (create) await client.createTableIpc!(id, file, { mode: 'create' })
    else await client.appendIpc!(id, file)
    pass.release(messages) // Lance has copied what it needs: the buffers serve later batches
  } catch (error) {
    const e = toAppError(error)
    if (create && e.code === 'already_exists') refused()
    const text = `${e.message} ${e.detail ?? ''}`
    if (e.code !== 'internal' || !/IPC|record batch|Arrow error|Invalid argument|corrupt|decompress|zstd/i.test(text)) throw error
    const reason = rustReason(e.detail ?? e.message)
    throw new AppError('corrupt', `The file's data is damaged (a record batch did not decode: ${reason.trim()})`, {
      detail: e.detail ?? e.message,
      hint: 'Export the file again',
      cause: error,
    })
  }
}

async function undo(
  client: NamespaceClient,
  writeId: TableId,
  mode: ImportMode,
  existing: TableDescription | null,
  state: { createAttempted: boolean; createRefused: boolean; appended: boolean },
): Promise<string | null> {
  try {
    if (mode === 'append') {
      if (!state.appended || !existing) return null
      const now = await client.describeTable(writeId)
      if (now.version !== existing.version) await client.restoreVersion(writeId, existing.version)
      return null
    }
    // create and overwrite (its staging table): drop what we made, never a table someone else made.
    if (state.createAttempted && !state.createRefused) await dropIfExists(client, writeId)
    return null
  } catch (error) {
    const e = toAppError(error)
    return mode === 'append'
      ? `Rolling back "${formatTableId(writeId)}" to version ${existing?.version} failed too: ${e.message}`
      : `Removing the partly written table "${formatTableId(writeId)}" failed too: ${e.message}`
  }
}

async function dropIfExists(client: NamespaceClient, id: TableId): Promise<void> {
  try {
    await client.dropTable(id)
  } catch (error) {
    if (toAppError(error).code !== 'not_found') throw error
  }
}

function withCleanupNote(error: AppError, note: string | null): AppError {
  if (!note) return error
  return new AppError(error.code, error.message, { detail: [note, error.detail].filter(Boolean).join('\n'), hint: error.hint, cause: error })
}

/**
 * Lance validates the Arrow data it is given; its "invalid argument" complaints about buffers and
 * offsets mean the file's data is damaged (the per-batch check in validate.ts catches most first).
 */
function asDamaged(error: AppError, source: BatchSource): AppError {
  if (error.code !== 'internal') return error
  const text = `${error.message} ${error.detail ?? ''}`
  const schema = /LanceError\(Schema\): ([^,\n]+)/.exec(text)
  if (schema) {
    return new AppError('unsupported', `Lance cannot store this file's columns: ${schema[1]}`, {
      detail: error.detail ?? error.message,
      hint: 'Convert or drop that column, then import again',
      cause: error,
    })
  }
  if (!/Arrow error|Invalid argument error|offset|buffer/i.test(text)) return error
  return new AppError('corrupt', `The file's data is damaged (${source.format === 'arrow-file' || source.format === 'arrow-stream' ? 'Arrow' : 'decoded'} buffers are inconsistent)`, {
    detail: error.detail ?? error.message,
    hint: 'Export the file again',
    cause: error,
  })
}

function isUnsupported(error: unknown): boolean {
  const e = toAppError(error)
  return e.code === 'unsupported' || /not (supported|implemented)/i.test(`${e.message} ${e.detail ?? ''}`)
}

/**
 * Replace `target` with the complete staging table. A dir catalog swaps the two in one atomic step
 * (`replaceTable`: one `__manifest` commit, or a journaled `rename(2)` pair at the root). Elsewhere, where the
 * catalog can rename tables, the swap is two renames (the old table is dropped only after the new one is in
 * place); where it cannot, the staging rows are copied over with Lance's overwrite: the old data stays as the
 * previous version, and any failure restores it. The staging table is dropped at the end either way.
 */
async function commitOverwrite(
  client: NamespaceClient,
  staging: TableId,
  target: TableId,
  existing: TableDescription | null,
  schema: Schema,
  limits: ChunkLimits,
): Promise<void> {
  try {
    if (client.replaceTable) {
      if (existing) await client.replaceTable(staging, target)
      else await client.renameTable(staging, target.name)
      return
    }
    if (await trySwap(client, staging, target, existing)) return
    await copyTable(client, staging, target, existing, schema, limits)
  } finally {
    await dropIfExists(client, staging).catch(() => undefined)
  }
}

async function trySwap(client: NamespaceClient, staging: TableId, target: TableId, existing: TableDescription | null): Promise<boolean> {
  const aside: TableId = { namespace: target.namespace, name: stagingName(`${target.name}-replaced`) }
  try {
    if (existing) await client.renameTable(target, aside.name)
  } catch (error) {
    if (isUnsupported(error)) return false
    throw error
  }
  try {
    await client.renameTable(staging, target.name)
  } catch (error) {
    if (existing) await client.renameTable(aside, target.name).catch(() => undefined)
    if (isUnsupported(error)) return false
    throw error
  }
  if (existing) await dropIfExists(client, aside).catch(() => undefined)
  return true
}

async function copyTable(
  client: NamespaceClient,
  staging: TableId,
  target: TableId,
  existing: TableDescription | null,
  schema: Schema,
  limits: ChunkLimits,
): Promise<void> {
  const { rowCount } = await client.describeTable(staging)
  let touched = false
  try {
    if (rowCount === 0) {
      touched = true
      await client.createEmptyTable(target, schema, { mode: 'overwrite' })
      return
    }
    // Read in pages, write in chunks of up to `maxBytes` (one version each).
    let pending: RecordBatch[] = []
    let pendingBytes = 0
    let first = true
    const flush = async () => {
      if (pending.length === 0) return
      const chunk = new Table(pending)
      pending = []
      pendingBytes = 0
      touched = true
      if (first) await client.createTable(target, chunk, { mode: 'overwrite' })
      else await client.appendRows(target, chunk)
      first = false
    }
    const pageRows = Math.min(limits.maxRows, COPY_PAGE_ROWS)
    for (let offset = 0; offset < rowCount; offset += pageRows) {
      const page = tableFromIPC(await client.readPage(staging, { offset, limit: pageRows }))
      for (const batch of page.batches) {
        pending.push(batch)
        pendingBytes += batchBytes(batch)
      }
      if (pendingBytes >= limits.maxBytes) await flush()
    }
    await flush()
  } catch (error) {
    if (touched) {
      if (existing) await client.restoreVersion(target, existing.version).catch(() => undefined)
      else await dropIfExists(client, target).catch(() => undefined)
    }
    throw error
  }
}
