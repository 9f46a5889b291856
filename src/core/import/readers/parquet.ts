import {
  Binary,
  Bool,
  DataType,
  DateDay,
  Decimal,
  Field,
  Float16,
  Float32,
  Float64,
  Int16,
  Int32,
  Int64,
  Int8,
  List,
  Schema,
  Struct,
  Time,
  TimeUnit,
  Timestamp,
  Uint16,
  Uint32,
  Uint64,
  Uint8,
  Utf8,
  RecordBatch,
  MessageReader,
  tableFromIPC,
} from 'apache-arrow'
import { Worker } from 'node:worker_threads'
import type { AsyncBuffer, FileMetaData, SchemaTree } from 'hyparquet'
import { AppError } from '../../../contract'
import { MISMATCH, batchFromColumns, coerce } from '../build'
import { typeName } from '../schema'
import { DEFAULT_BATCH_ROWS, type BatchSource, type OpenOptions } from '../source'
import { initZstd } from '../../arrow/ipc/codecs'
import { parquetCompressors } from './compressors'
import { corrupt, throwIfAborted } from './errors'
import { NativeTypeMismatch, asSchema, nativeParquetBatches } from '../native/parquet'
import { noteNativeDeclined } from '../native/polars'
import { keepsZone, withOriginalZone, zoneNote } from '../../arrow/zones'
import { readable } from '../../arrow/ipc/schema'

// hyparquet is ESM-only; load it lazily so this CommonJS project can use it (dynamic import works from CJS).
type Hyparquet = typeof import('hyparquet')
let hyparquet: Promise<Hyparquet> | null = null
function loadHyparquet(): Promise<Hyparquet> {
  hyparquet ??= import('hyparquet')
  return hyparquet
}

/** Rows decoded per hyparquet call: a row group is read in slices so wide rows stay bounded. */
const MAX_SLICE_BYTES = 128 * 1024 * 1024

/** How far into the file the reading is (bytes), for the import's progress; shared by the readers below. */
interface ReadProgress {
  read: number
}

/**
 * Parquet through hyparquet (pure JS), row group by row group, converted to Arrow with a schema
 * mapped from the Parquet schema. The row count comes from the footer metadata.
 * Decimals are read as their unscaled integers (hyparquet would make lossy floats) and become
 * Decimal128/256; timestamps and times keep their unit (raw integers, not JS Dates). Known limits:
 * Hadoop-framed LZ4 is refused (a clear error); MAP columns are refused.
 */
export async function openParquet(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName, signal } = options
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  const hp = await loadHyparquet()
  const progress: ReadProgress = { read: 0 }
  const { file, metadata } = await openFooter(hp, path, fileName, progress)
  await initZstd()
  const compressors = parquetCompressors(hp.snappyUncompress)
  let tree: SchemaTree
  try {
    tree = hp.parquetSchema(metadata)
    checkColumnChunks(metadata, tree, file.byteLength)
  } catch (error) {
    throw corrupt(fileName, 'Parquet file', error)
  }
  // The zones the file's writer declared (Parquet itself only says "adjusted to UTC"): kept when Lance and the app's
  // readers take them, else normalised to UTC (the same instants) with the zone in the field's metadata.
  const zones = arrowZones(metadata)
  const normalised = new Map<string, string>()
  const schema = new Schema(tree.children.map((child) => fieldOf(child, fileName, zones, normalised)))
  const conversions = [...normalised].map(([column, zone]) => {
    const to = fieldAt(schema, column)?.type as Timestamp
    return { column, from: readable(new Timestamp(to.unit, zone)), to: readable(to), note: zoneNote(zone) }
  })
  const rowCount = Number(metadata.num_rows)
  const size = file.byteLength
  const rawMetadata = withRawDecimals(metadata)
  const slow = () => hyparquetBatches({ hp, file, metadata: rawMetadata, schema, compressors, batchRows, fileName, signal, progress })
  const counted = { fileName, rowCount, size, progress }

  const fast = fastDecodable(schema) && rowCount > 0 ? await openWasmReader(path) : null
  return {
    format: 'parquet',
    schema,
    size,
    rowCount,
    ...(conversions.length > 0 ? { conversions } : {}),
    bytesRead: () => Math.min(progress.read, size),
    async *batches() {
      // polars (native threads) where it is here, else parquet-wasm; hyparquet (pure JS) takes over when either
      // cannot start on this file. Once rows are handed out, a failure is the file's.
      const native = fastDecodable(schema) && rowCount > 0 ? nativeParquetBatches(path, schema, signal) : null
      if (native && (yield* fromPolars(native, counted, slow))) return
      if (fast) {
        try {
          yield* fromWasm(fast.batches(schema, signal), counted, slow)
        } finally {
          fast.close()
        }
        return
      }
      yield* slow()
    },
    close: async () => undefined,
  }
}

/**
 * The file with its footer read. Damaged metadata can ask for ranges outside the file; refuse them as an error.
 * hyparquet prefetches ranges it may never await, so the rejection is marked handled here (whoever awaits it still
 * gets it) instead of becoming an unhandled rejection that ends the process.
 */
async function openFooter(hp: Hyparquet, path: string, fileName: string, progress: ReadProgress): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  try {
    const raw = await hp.asyncBufferFromFile(path)
    const size = raw.byteLength
    const file: AsyncBuffer = {
      byteLength: size,
      slice: (start: number, end?: number) => {
        const stop = end ?? size
        const result =
          Number.isSafeInteger(start) && Number.isSafeInteger(stop) && start >= 0 && start <= stop && stop <= size
            ? Promise.resolve(raw.slice(start, stop)).then((buf) => {
                progress.read = Math.max(progress.read, stop)
                return buf
              })
            : Promise.reject(new Error(`it points at bytes ${start}–${stop}, outside the file (${size} bytes)`))
        result.catch(() => undefined)
        return result
      },
    }
    if (raw.byteLength < 12) throw new Error('the file is shorter than a Parquet header and footer')
    return { file, metadata: await hp.parquetMetadataAsync(file) }
  } catch (error) {
    throw corrupt(fileName, 'Parquet file', error)
  }
}

interface Counted {
  fileName: string
  rowCount: number
  size: number
  progress: ReadProgress
}

function mismatch(fileName: string, rows: number, rowCount: number): AppError {
  return corrupt(fileName, 'Parquet file', new Error(`it holds ${rows} rows where its metadata says ${rowCount}`))
}

/**
 * polars' batches; true when they were the file's (every row handed out, or hyparquet took over after polars refused
 * the file at once), false when the wasm decoder or hyparquet should read it instead.
 */
async function* fromPolars(native: AsyncIterable<RecordBatch>, { fileName, rowCount, size, progress }: Counted, slow: () => AsyncGenerator<RecordBatch>): AsyncGenerator<RecordBatch, boolean> {
  let rows = 0
  try {
    for await (const batch of native) {
      rows += batch.numRows
      progress.read = Math.floor((size * rows) / Math.max(1, rowCount))
      yield batch
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    if (rows > 0) throw corrupt(fileName, 'Parquet file', error)
    noteNativeDeclined(`${fileName}: ${error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error)}`)
    // polars refused the file at once: it is most likely damaged, and hyparquet names the damage best.
    if (!(error instanceof NativeTypeMismatch)) {
      yield* slow()
      return true
    }
  }
  if (rows === 0) {
    noteNativeDeclined(`${fileName}: polars gave no rows where the metadata says ${rowCount}`)
    return false
  }
  if (rows !== rowCount) throw mismatch(fileName, rows, rowCount)
  progress.read = size
  return true
}

/** parquet-wasm's batches; when it cannot start on this file (nothing handed out yet), hyparquet reads it instead. */
async function* fromWasm(batches: AsyncIterable<RecordBatch>, { fileName, rowCount, size, progress }: Counted, slow: () => AsyncGenerator<RecordBatch>): AsyncGenerator<RecordBatch> {
  let rows = 0
  try {
    for await (const batch of batches) {
      rows += batch.numRows
      progress.read = Math.floor((size * rows) / Math.max(1, rowCount))
      yield batch
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    // Nothing handed out yet (the wasm decoder could not start here, or refused the file at once): the
    // JS reader reads the file instead, and says what is wrong with it if anything is.
    if (rows === 0) {
      yield* slow()
      return
    }
    throw corrupt(fileName, 'Parquet file', error)
  }
  if (rows !== rowCount) throw mismatch(fileName, rows, rowCount)
  progress.read = size
}

/** hyparquet (pure JS): each row group in slices, each slice's rows checked against the schema and built into batches. */
async function* hyparquetBatches(read: {
  hp: Hyparquet
  file: AsyncBuffer
  metadata: FileMetaData
  schema: Schema
  compressors: ReturnType<typeof parquetCompressors>
  batchRows: number
  fileName: string
  signal: AbortSignal | undefined
  progress: ReadProgress
}): AsyncGenerator<RecordBatch> {
  const { hp, file, metadata, schema, compressors, batchRows, fileName, signal, progress } = read
  let groupStart = 0
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows)
    const bytesPerRow = groupRows > 0 ? Number(group.total_byte_size) / groupRows : 0
    // JS objects cost several times the encoded size; slice so one call stays under the cap.
    const sliceRows = Math.max(batchRows, Math.min(groupRows, Math.floor(MAX_SLICE_BYTES / Math.max(1, bytesPerRow * 4))))
    for (let start = 0; start < groupRows; start += sliceRows) {
      throwIfAborted(signal)
      const end = Math.min(groupRows, start + sliceRows)
      let rows: Record<string, unknown>[]
      try {
        rows = (await hp.parquetReadObjects({ file, metadata, rowStart: groupStart + start, rowEnd: groupStart + end, utf8: false, compressors, parsers: RAW_TIMESTAMPS })) as Record<string, unknown>[]
      } catch (error) {
        throw parquetError(fileName, error)
      }
      if (rows.length !== end - start) {
        throw corrupt(fileName, 'Parquet file', new Error(`row group holds ${rows.length} rows where its metadata says ${end - start}`))
      }
      for (let b = 0; b < rows.length; b += batchRows) yield rowsToBatch(rows.slice(b, b + batchRows), schema, fileName, groupStart + start + b)
    }
    groupStart += groupRows
  }
  progress.read = file.byteLength
}

/** hyparquet's rows as one Arrow batch; a value that does not fit its column's type names the row (1-based, `first` 0-based). */
function rowsToBatch(rows: Record<string, unknown>[], schema: Schema, fileName: string, first: number): RecordBatch {
  const columns = schema.fields.map(() => new Array<unknown>(rows.length))
  rows.forEach((row, r) => {
    schema.fields.forEach((field, i) => {
      const value = coerce(row[field.name], field.type)
      if (value === MISMATCH) {
        throw new AppError('corrupt', `${fileName} row ${first + r + 1}: a value of "${field.name}" does not fit ${typeName(field.type)}`, {
          hint: 'The file may be damaged; export it again',
        })
      }
      columns[i]![r] = value
    })
  })
  return batchFromColumns(schema, columns, rows.length)
}

/** Flat columns of these types decode the same through arrow-rs (parquet-wasm) as through hyparquet, only faster. */
function fastDecodable(schema: Schema): boolean {
  return schema.fields.every((f) => {
    const t = f.type as DataType
    return DataType.isInt(t) || DataType.isFloat(t) || DataType.isBool(t) || DataType.isUtf8(t) || DataType.isDate(t) || DataType.isTimestamp(t)
  })
}

/**
 * The decoder's thread. arrow-rs compiled to wasm aborts (`RuntimeError: unreachable`) on some damaged data, and a
 * wasm instance that aborted is not safe to use again: each file gets its own worker, so a damaged file fails
 * alone (an error naming the file) and the next file starts clean. It also decodes on another core.
 * Protocol: the worker posts `{ ipc }` (an Arrow IPC stream of one batch; its buffer transferred) and waits for
 * `next`; then `{ done: true }`, or `{ error }`.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const { openAsBlob } = require('node:fs')
const { pathToFileURL } = require('node:url')
let wake = null
parentPort.on('message', () => { const w = wake; wake = null; if (w) w() })
;(async () => {
  try {
    const pw = await import(pathToFileURL(workerData.module).href)
    const file = await pw.ParquetFile.fromFile(await openAsBlob(workerData.path))
    const reader = (await file.stream({ batchSize: workerData.batchRows })).getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      const ipc = value.intoIPCStream()
      const waiting = new Promise((resolve) => (wake = resolve))
      parentPort.postMessage({ ipc }, [ipc.buffer])
      await waiting
    }
    parentPort.postMessage({ done: true })
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) })
  }
})()
`

type WorkerMessage = { ipc: Uint8Array } | { done: true } | { error: string }

/**
 * Parquet decoded by arrow-rs compiled to wasm (parquet-wasm) in a worker thread, a batch at a time into Arrow IPC
 * read by apache-arrow without copying the values: 10× hyparquet's speed on flat tables. The file is read as a
 * Blob (`openAsBlob`), a range at a time, never whole. Null when parquet-wasm cannot be found (hyparquet reads).
 */
async function openWasmReader(path: string): Promise<{ batches(schema: Schema, signal?: AbortSignal): AsyncGenerator<RecordBatch>; close(): void } | null> {
  let module: string
  try {
    module = require.resolve('parquet-wasm')
  } catch {
    return null
  }
  let worker: Worker | null = null
  return {
    async *batches(schema, signal) {
      const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, path, batchRows: WASM_BATCH_ROWS } })
      worker = w
      const queue: WorkerMessage[] = []
      let wake: (() => void) | null = null
      let failure: string | null = null
      const notify = () => {
        const f = wake
        wake = null
        f?.()
      }
      w.on('message', (m: WorkerMessage) => {
        queue.push(m)
        notify()
      })
      w.on('error', (error) => {
        failure = error.message
        notify()
      })
      w.on('exit', (code) => {
        failure ??= code === 0 ? null : `the decoder stopped (exit code ${code})`
        queue.push({ done: true })
        notify()
      })
      for (;;) {
        throwIfAborted(signal)
        while (queue.length === 0 && failure === null) await new Promise<void>((resolve) => (wake = resolve))
        if (failure !== null) throw new Error(failure)
        const message = queue.shift()!
        if ('error' in message) throw new Error(message.error)
        if ('done' in message) return
        const batches = tableFromIPC(message.ipc).batches
        w.postMessage('next')
        for (const batch of batches) {
          const same = asSchema(batch, schema)
          if (!same) throw new Error(`arrow-rs decoded the columns as ${batch.schema.fields.map((f) => String(f.type)).join(', ')}`)
          yield same
        }
      }
    },
    close: () => {
      void worker?.terminate()
    },
  }
}

const WASM_BATCH_ROWS = 65_536

/**
 * Every row group must hold exactly one column chunk per leaf of the schema. hyparquet reads a
 * chunk whose path matches no column without ever awaiting it, so a damaged path would surface as
 * an unhandled rejection instead of an error; refuse such metadata up front.
 */
function checkColumnChunks(metadata: FileMetaData, tree: SchemaTree, size: number): void {
  const leaves: string[] = []
  const walk = (node: SchemaTree) => {
    if (node.children.length === 0) leaves.push(node.path.join('.'))
    else node.children.forEach(walk)
  }
  tree.children.forEach(walk)
  const expected = [...leaves].sort().join('\n')
  metadata.row_groups.forEach((group, i) => {
    const paths = group.columns.map((c) => c.meta_data?.path_in_schema.join('.') ?? '?').sort().join('\n')
    if (paths !== expected) throw new Error(`row group ${i + 1}: its column chunks do not match the schema`)
    for (const chunk of group.columns) {
      const meta = chunk.meta_data
      const start = Number(meta?.dictionary_page_offset ?? meta?.data_page_offset ?? -1)
      const length = Number(meta?.total_compressed_size ?? -1)
      if (!(start >= 0 && length >= 0 && start + length <= size)) {
        throw new Error(`row group ${i + 1}: a column chunk lies outside the file`)
      }
    }
    if (Number(group.num_rows) < 0) throw new Error(`row group ${i + 1} has a negative row count`)
  })
  if (Number(metadata.num_rows) !== metadata.row_groups.reduce((n, g) => n + Number(g.num_rows), 0)) {
    throw new Error('the row count does not match the row groups')
  }
}

function parquetError(fileName: string, error: unknown): AppError {
  const message = error instanceof Error ? error.message : String(error)
  const codec = /unsupported compression codec: (\w+)/.exec(message)?.[1]
  if (codec) {
    return new AppError('unsupported', `${fileName} uses ${codec} compression, which import cannot read here`, {
      detail: message,
      hint: 'Write the file with ZSTD, Snappy, GZIP, Brotli, LZ4_RAW or no compression',
    })
  }
  return corrupt(fileName, 'Parquet file', error)
}

/** Timestamps as the file's integers (bigint, in the column's unit) instead of millisecond Dates. */
const RAW_TIMESTAMPS = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
}

/**
 * The same metadata with decimal columns' annotations removed, so hyparquet hands back their
 * unscaled integers (numbers, bigints or big-endian bytes) instead of converting them to floats.
 */
function withRawDecimals(metadata: FileMetaData): FileMetaData {
  const isDecimal = (el: FileMetaData['schema'][number]) => el.converted_type === 'DECIMAL' || el.logical_type?.type === 'DECIMAL'
  if (!metadata.schema.some(isDecimal)) return metadata
  return {
    ...metadata,
    schema: metadata.schema.map((el) => (isDecimal(el) ? { ...el, converted_type: undefined, logical_type: undefined } : el)),
  }
}

/** Column (dotted path, through structs) → timestamp zone, from a Parquet file's `ARROW:schema` metadata. */
export function arrowZones(metadata: FileMetaData): Map<string, string> {
  const value = metadata.key_value_metadata?.find((entry) => entry.key === 'ARROW:schema')?.value
  const zones = new Map<string, string>()
  if (!value) return zones
  let schema: Schema | null
  try {
    schema = new MessageReader(Buffer.from(value, 'base64')).readSchema() ?? null
  } catch {
    return zones // an unreadable Arrow schema: the Parquet schema alone is read, as polars would
  }
  const walk = (field: Field, prefix: string) => {
    const name = prefix + field.name
    if (DataType.isTimestamp(field.type) && field.type.timezone) zones.set(name, field.type.timezone)
    if (DataType.isStruct(field.type)) for (const child of field.type.children) walk(child, `${name}.`)
  }
  for (const field of schema?.fields ?? []) walk(field, '')
  return zones
}

function fieldAt(schema: Schema, path: string): Field | undefined {
  let fields = schema.fields
  let found: Field | undefined
  for (const part of path.split('.')) {
    found = fields.find((f) => f.name === part)
    fields = found && DataType.isStruct(found.type) ? found.type.children : []
  }
  return found
}

/** `zones`: the file's declared timestamp zones by column path; `normalised` gets those written as UTC instead. */
function fieldOf(node: SchemaTree, fileName: string, zones: Map<string, string>, normalised: Map<string, string>): Field {
  const el = node.element
  const nullable = el.repetition_type !== 'REQUIRED'
  const field = new Field(el.name, typeOf(node, fileName, zones, normalised), nullable)
  const zone = normalised.get(node.path.join('.'))
  return zone !== undefined ? withOriginalZone(field, zone) : field
}

function typeOf(node: SchemaTree, fileName: string, zones: Map<string, string>, normalised: Map<string, string>): DataType {
  const el = node.element
  const logical = el.logical_type?.type
  const converted = el.converted_type
  const unsupported = (what: string) =>
    new AppError('unsupported', `${fileName}: column "${node.path.join('.')}" is a Parquet ${what}, which import does not support yet`, {
      hint: 'Convert that column (or drop it) and import again',
    })
  if (node.children.length > 0) {
    if (logical === 'MAP' || converted === 'MAP' || converted === 'MAP_KEY_VALUE') throw unsupported('MAP')
    if (logical === 'LIST' || converted === 'LIST') {
      const repeated = node.children[0]!
      // 3-level lists (list > element) or the legacy 2-level form (the repeated node is the element).
      const element =
        repeated.children.length === 1 && repeated.element.name !== 'array' && !repeated.element.name.endsWith('_tuple')
          ? repeated.children[0]!
          : repeated
      const itemType = element === repeated && repeated.children.length === 0 ? primitive(repeated, unsupported) : typeOf(element, fileName, new Map(), normalised)
      return new List(new Field('item', itemType, true))
    }
    const fields = node.children.map((c) => fieldOf(c, fileName, zones, normalised))
    if (el.repetition_type === 'REPEATED') return new List(new Field('item', new Struct(fields), true))
    return new Struct(fields)
  }
  let type = primitive(node, unsupported)
  if (el.repetition_type === 'REPEATED') return new List(new Field('item', type, true))
  const zone = zones.get(node.path.join('.'))
  if (DataType.isTimestamp(type) && type.timezone === 'UTC' && zone !== undefined && zone !== 'UTC') {
    if (keepsZone(zone)) type = new Timestamp(type.unit, zone)
    else normalised.set(node.path.join('.'), zone)
  }
  return type
}

function primitive(node: SchemaTree, unsupported: (what: string) => AppError): DataType {
  const el = node.element
  const logical = el.logical_type
  const converted = el.converted_type
  if (converted === 'DECIMAL' || logical?.type === 'DECIMAL') {
    const precision = logical?.type === 'DECIMAL' ? logical.precision : (el.precision ?? 0)
    const scale = logical?.type === 'DECIMAL' ? logical.scale : (el.scale ?? 0)
    if (!(precision >= 1 && precision <= 76)) throw unsupported(`DECIMAL with precision ${precision}`)
    return new Decimal(scale, precision, precision <= 38 ? 128 : 256)
  }
  if (converted === 'DATE' || logical?.type === 'DATE') return new DateDay()
  if (el.type === 'INT96') return new Timestamp(TimeUnit.NANOSECOND, null)
  if (logical?.type === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS') {
    const utc = logical?.type === 'TIMESTAMP' ? logical.isAdjustedToUTC : true
    const unit = logical?.type === 'TIMESTAMP' ? logical.unit : converted === 'TIMESTAMP_MICROS' ? 'MICROS' : 'MILLIS'
    return new Timestamp(unit === 'NANOS' ? TimeUnit.NANOSECOND : unit === 'MICROS' ? TimeUnit.MICROSECOND : TimeUnit.MILLISECOND, utc ? 'UTC' : null)
  }
  if (converted === 'INTERVAL' || logical?.type === 'INTERVAL') throw unsupported('INTERVAL')
  if (converted === 'BSON' || logical?.type === 'BSON') throw unsupported('BSON')
  if (logical?.type === 'FLOAT16') return new Float16()
  if (logical?.type === 'TIME' || converted === 'TIME_MILLIS' || converted === 'TIME_MICROS') {
    const unit = logical?.type === 'TIME' ? logical.unit : converted === 'TIME_MICROS' ? 'MICROS' : 'MILLIS'
    if (el.type === 'INT32') return new Time(TimeUnit.MILLISECOND, 32)
    return new Time(unit === 'NANOS' ? TimeUnit.NANOSECOND : TimeUnit.MICROSECOND, 64)
  }
  const intType = logical?.type === 'INTEGER' ? logical : intFromConverted(converted)
  if (intType && (el.type === 'INT32' || el.type === 'INT64')) {
    const { bitWidth, isSigned } = intType
    if (bitWidth === 8) return isSigned ? new Int8() : new Uint8()
    if (bitWidth === 16) return isSigned ? new Int16() : new Uint16()
    if (bitWidth === 32) return isSigned ? new Int32() : new Uint32()
    return isSigned ? new Int64() : new Uint64()
  }
  switch (el.type) {
    case 'BOOLEAN':
      return new Bool()
    case 'INT32':
      return new Int32()
    case 'INT64':
      return new Int64()
    case 'FLOAT':
      return new Float32()
    case 'DOUBLE':
      return new Float64()
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if (converted === 'UTF8' || converted === 'ENUM' || converted === 'JSON' || logical?.type === 'STRING' || logical?.type === 'ENUM' || logical?.type === 'JSON' || logical?.type === 'UUID') {
        return new Utf8()
      }
      return new Binary()
    default:
      throw unsupported(String(el.type))
  }
}

function intFromConverted(converted: string | undefined): { bitWidth: number; isSigned: boolean } | null {
  const m = converted ? /^(U?)INT_(8|16|32|64)$/.exec(converted) : null
  return m ? { bitWidth: Number(m[2]), isSigned: m[1] === '' } : null
}
