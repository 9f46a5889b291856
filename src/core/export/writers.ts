import { RecordBatch, RecordBatchFileWriter, Struct, Table, makeData, tableToIPC, type DataType, type Schema } from 'apache-arrow'
import { cellValue, textHeader, textRow, type ExportFormat, type TextColumn } from '../../contract'
import type { FileSink } from './sink'

/**
 * One writer per export format. Each takes the view's batches as they come and writes them through
 * the sink; none holds more than a batch (and the Parquet writer's current row group) in memory.
 */
export type BatchWriter = (batches: AsyncIterable<RecordBatch>, sink: FileSink, schema: Schema | undefined, onBatch: (rows: number) => void) => Promise<void>

function textColumns(schema: Schema): TextColumn[] {
  return schema.fields.map((f) => ({ name: f.name, type: f.type as DataType }))
}

function textWriter(format: 'csv' | 'jsonl'): BatchWriter {
  return async (batches, sink, schema, onBatch) => {
    let headerWritten = false
    let index = 0
    for await (const batch of batches) {
      const columns = textColumns(batch.schema)
      if (!headerWritten) {
        await sink.write(textHeader(format, columns))
        headerWritten = true
      }
      const vectors = batch.schema.fields.map((_, i) => batch.getChildAt(i)!)
      const lines: string[] = []
      const values: unknown[] = new Array(columns.length)
      for (let row = 0; row < batch.numRows; row += 1) {
        for (let c = 0; c < vectors.length; c += 1) values[c] = cellValue(vectors[c]!, row)
        lines.push(textRow(format, columns, values, index++))
      }
      await sink.write(lines.join(''))
      onBatch(batch.numRows)
    }
    // An empty view still gets its header (CSV).
    if (!headerWritten && schema) await sink.write(textHeader(format, textColumns(schema)))
  }
}

/**
 * Arrow IPC file. apache-arrow's writer queues its bytes; after each batch we take every chunk it has
 * queued (a chunk that is not ready yet stays pending for the next round), so the queue never grows.
 */
const arrowFileWriter: BatchWriter = async (batches, sink, schema, onBatch) => {
  const writer = new RecordBatchFileWriter()
  const chunks = writer[Symbol.asyncIterator]()
  let pending = chunks.next()
  const drain = async (final: boolean) => {
    for (;;) {
      const next = final ? await pending : await Promise.race([pending, new Promise<'later'>((r) => setImmediate(() => r('later')))])
      if (next === 'later') return
      if (next.done) return
      await sink.write(next.value)
      pending = chunks.next()
    }
  }
  let wrote = false
  for await (const batch of batches) {
    writer.write(batch)
    wrote = true
    await drain(false)
    onBatch(batch.numRows)
  }
  if (!wrote && schema) writer.reset(undefined, schema)
  writer.finish()
  await drain(true)
}

/** A zero-row batch of `schema` (an apache-arrow Table built from a schema alone has no batches). */
function emptyBatch(schema: Schema): RecordBatch {
  const children = schema.fields.map((f) => makeData({ type: f.type as DataType, length: 0, nullCount: 0 }))
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 0, nullCount: 0, children }))
}

let parquet: Promise<typeof import('parquet-wasm')> | null = null
/** parquet-wasm is loaded on first use (its wasm module is ~6 MB). */
function parquetWasm(): Promise<typeof import('parquet-wasm')> {
  parquet ??= import('parquet-wasm')
  return parquet
}

/**
 * Row groups are cut by bytes so that a wide table (768-d vectors) never buffers a million rows. Exporting 1M
 * 768-d rows, 16 MiB groups peaked at 650–695 MiB RSS (over 700 MB once), 8 MiB at 570–625 MiB in the same
 * runs, no slower; 64 MiB reached ~740 MiB at 500k rows.
 */
const PARQUET_ROW_GROUP_BYTES = 8 * 1024 * 1024

/**
 * Parquet through parquet-wasm's streaming writer (arrow-rs): Arrow types are kept (int64, timestamps
 * with their unit and zone, decimals, lists, fixed-size lists). Each batch crosses into wasm as an
 * Arrow IPC stream; the writer pulls batches as it writes, so the pace is the disk's.
 */
const parquetWriter: BatchWriter = async (batches, sink, schema, onBatch) => {
  const pw = await parquetWasm()
  const iterator = batches[Symbol.asyncIterator]()
  let sawBatch = false
  const input = new ReadableStream({
    async pull(controller) {
      const next = await iterator.next()
      if (next.done) {
        if (!sawBatch && schema) {
          // An empty view: one empty batch carries the schema into the file.
          const empty = pw.Table.fromIPCStream(tableToIPC(new Table([emptyBatch(schema)]), 'stream'))
          for (const b of empty.recordBatches()) controller.enqueue(b)
          sawBatch = true
          return
        }
        controller.close()
        return
      }
      sawBatch = true
      const table = pw.Table.fromIPCStream(tableToIPC(new Table([next.value]), 'stream'))
      for (const b of table.recordBatches()) controller.enqueue(b)
      table.free()
      onBatch(next.value.numRows)
    },
    async cancel() {
      await iterator.return?.()
    },
  })
  // Dictionary encoding is off: on vectors and unique ids it only costs time and memory, then falls back.
  const properties = new pw.WriterPropertiesBuilder()
    .setCompression(pw.Compression.SNAPPY)
    .setDictionaryEnabled(false)
    .setMaxRowGroupBytes(PARQUET_ROW_GROUP_BYTES)
    .build()
  const output = await pw.transformParquetStream(input, properties)
  const reader = output.getReader() as ReadableStreamDefaultReader<Uint8Array>
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      await sink.write(value)
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined)
    throw error
  }
}

export const WRITERS: Record<ExportFormat, BatchWriter> = {
  csv: textWriter('csv'),
  jsonl: textWriter('jsonl'),
  arrow: arrowFileWriter,
  parquet: parquetWriter,
}
