import { Table, tableFromIPC, type RecordBatch, type Schema } from 'apache-arrow'
import { AppError, type DataFormat, type ImportMode, type ImportProgress } from '../../contract'
import type { NamespaceClient, TableDescription } from '../namespace/client'
import { formatNamespace, formatTableId, type TableId } from '../namespace/path'
import { toAppError } from '../errors'
import { defaultChunkLimits, batchBytes, type ChunkLimits } from './chunks'

/** Rows read per page when a staging table is copied over the target (catalogs that cannot rename). */
const COPY_PAGE_ROWS = 10_000
import { ProgressMeter } from './progress'
import { describeDiff, isEmptyDiff, schemaDiff } from './schema'
import type { BatchSource } from './source'
import { VECTOR_SAMPLE_ROWS, openChunks, planSchema, type Chunk, type ChunkReader, type SourceInfo } from './readSide'
import { throwIfAborted } from './readers/errors'
import { stagingName } from '../namespace/dir/staging'

export interface WriteOptions {
  mode: ImportMode
  signal?: AbortSignal
  onProgress?: (progress: ImportProgress) => void
  /** Columns to write as vectors; absent = every detected candidate. */
  vectorColumns?: string[]
  limits?: ChunkLimits
  progressIntervalMs?: number
  /** The data file format of a new table (create, overwrite); absent = the client's default (dir: the catalog's majority). */
  dataFormat?: DataFormat
  /** Unused since staging names carry the process id and a random part (kept for callers). */
  stagingTag?: string
}

export interface WriteResult {
  version: number
  rowCount: number
  rowsWritten: number
}

export { VECTOR_SAMPLE_ROWS, planSchema }

export async function describeOrNull(client: NamespaceClient, id: TableId, signal?: AbortSignal): Promise<TableDescription | null> {
  try {
    return await client.describeTable(id, { signal })
  } catch (error) {
    if (toAppError(error).code === 'not_found') return null
    throw error
  }
}

/** Whether `client` takes chunks as Arrow IPC bytes (lancedb's native `add`), so a reader may hand it bytes. */
export function takesIpc(client: NamespaceClient): boolean {
  return !!client.appendIpc && !!client.createTableIpc
}

/**
 * Stream `source` into the table `id` in this process: the reading side (readSide.ts) and the writing side
 * ({@link writeChunks}) joined. The app reads in a reader process instead (src/core/import/reader).
 */
export async function writeSource(client: NamespaceClient, id: TableId, source: BatchSource, options: WriteOptions): Promise<WriteResult> {
  const limits = options.limits ?? defaultChunkLimits()
  const ipc = takesIpc(client)
  const open = () => openChunks(source, { mode: options.mode, vectorColumns: options.vectorColumns, limits, ipc, encode: ipc })
  try {
    return await writeChunks(client, id, source, open, { ...options, limits })
  } finally {
    await source.close().catch(() => undefined)
  }
}

/**
 * Write the chunks a reader yields into the table `id`, one write in flight while the next chunk is read
 * (perf-baselines §3: 11–24% faster). `open` reads the file's first batch and plans its schema; it is called before
 * the catalog is touched. Guarantees, whatever fails or is cancelled:
 * - `create` refuses an existing table before writing, and leaves no table behind;
 * - `append` refuses a different schema before writing (with the difference), and leaves the table
 *   at the version it had (restoreVersion);
 * - `overwrite` writes a staging table first, so the old table stays as it was (and readable) while
 *   the file is read; only a complete staging table replaces it (see {@link commitOverwrite}).
 * Chunk bytes are decoded here only for a client that cannot take bytes (they are our reader's own encoding).
 */
export async function writeChunks(client: NamespaceClient, id: TableId, source: SourceInfo, open: () => Promise<ChunkReader>, options: WriteOptions): Promise<WriteResult> {
  const { mode, signal, dataFormat } = options
  const limits = options.limits ?? defaultChunkLimits()
  const meter = new ProgressMeter(source.size, source.rowCount, options.onProgress ?? (() => undefined), options.progressIntervalMs)
  let reader: ChunkReader | null = null
  try {
    throwIfAborted(signal)
    meter.update({ phase: 'reading' }, true)
    // Read the first batch before touching the catalog: most bad files fail here, with nothing written.
    reader = await open()
    const schema = reader.schema

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
    // Chunks go to Lance as IPC bytes where the client takes them, unless lancedb must see the Arrow table itself
    // (embedding functions are applied by its `add`).
    const ipcWrites = takesIpc(client) && !schema.metadata.has('embedding_functions')
    const write = async (chunk: Chunk, isFirst: boolean) => {
      const creating = isFirst && mode !== 'append'
      if (chunk.kind === 'raw') {
        if (creating) createAttempted = true
        else appended = true
        await writeRaw(client, writeId, chunk.frame(), creating, () => (createRefused = true), dataFormat)
        chunk.release() // Lance has copied what it needs: the buffers serve later batches
      } else {
        // Bytes our reader encoded, for a client that wants a table: decoded here (the file itself never is).
        const table = chunk.kind === 'table' ? chunk.table : ipcWrites ? null : tableFromIPC(chunk.bytes)
        const ipc = chunk.kind === 'ipc' && ipcWrites ? chunk.bytes : null
        if (creating) {
          createAttempted = true
          try {
            if (ipc) await client.createTableIpc!(writeId, ipc, { mode: 'create', dataFormat })
            else await client.createTable(writeId, table!, { mode: 'create', dataFormat })
          } catch (error) {
            if (toAppError(error).code === 'already_exists') createRefused = true
            throw error
          }
        } else {
          appended = true
          if (ipc) await client.appendIpc!(writeId, ipc)
          else await client.appendRows(writeId, table!)
        }
        if (ipc && chunk.kind === 'ipc') chunk.release?.()
      }
      rowsWritten += chunk.rows
      meter.update({ rows: rowsWritten, bytesRead: source.bytesRead(), phase: 'writing' })
    }
    try {
      let isFirst = true
      for await (const chunk of reader.chunks(appendColumns)) {
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
        await client.createEmptyTable(writeId, schema, { mode: 'create', dataFormat })
      }
    } catch (error) {
      meter.update({ phase: 'cleaning up' }, true)
      if (inflight) await inflight.catch(() => undefined)
      const cleanup = await undo(client, writeId, mode, existing, { createAttempted, createRefused, appended })
      if (!cleanup) await clearAppend?.()
      throw withCleanupNote(asDamaged(toAppError(error), source), cleanup)
    }
    await clearAppend?.()
    await reader.close()

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
    await reader?.close().catch(() => undefined)
  }
}

export { stagingName }

/** "Failed to read record batch from IPC file: Io error: Data corruption detected Caused by: …" → "Data corruption detected". */
function rustReason(text: string): string {
  let reason = text.split(/\s+Caused by:/)[0]!.trim()
  const prefix = /^(?:Failed to read [^:]*|[A-Za-z ]*error|LanceError\(\w+\)): /i
  while (prefix.test(reason)) reason = reason.replace(prefix, '')
  return reason.length > 200 ? `${reason.slice(0, 200)}…` : reason || text
}

/**
 * One commit of raw batches, framed as an IPC file (the first creates the table); arrow-rs's complaints about them
 * mean the file's data is damaged.
 */
async function writeRaw(client: NamespaceClient, id: TableId, file: Uint8Array, create: boolean, refused: () => void, dataFormat: DataFormat | undefined): Promise<void> {
  try {
    if (create) await client.createTableIpc!(id, file, { mode: 'create', dataFormat })
    else await client.appendIpc!(id, file)
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
function asDamaged(error: AppError, source: SourceInfo): AppError {
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
