import { RecordBatch, type Schema } from 'apache-arrow'
import { throwIfAborted } from '../readers/errors'
import { NativeTypeMismatch, loadPolars, nativeRows, sinkBatches } from './polars'

export { NativeTypeMismatch }

/**
 * A Parquet file decoded by polars (native, multi-threaded, row groups in parallel) into `schema` (the one
 * mapped from the file's metadata), batch by batch; null when polars is not here. Throws (a plain Error) when
 * polars decodes a column to another type than the schema says, or cannot read the file.
 */
export function nativeParquetBatches(path: string, schema: Schema, signal?: AbortSignal): AsyncGenerator<RecordBatch> | null {
  const pl = loadPolars()
  if (!pl) return null
  return (async function* () {
    const types = schema.fields.map((f) => String(f.type))
    const names = schema.fields.map((f) => f.name)
    for await (const batch of sinkBatches(pl.scanParquet(path))) {
      throwIfAborted(signal)
      const got = batch.schema.fields
      if (got.length !== types.length || got.some((f, i) => f.name !== names[i] || String(f.type) !== types[i])) {
        throw new NativeTypeMismatch(`polars decoded the columns as ${got.map((f) => `${f.name}: ${String(f.type)}`).join(', ')}`)
      }
      nativeRows.parquet += batch.numRows
      yield new RecordBatch(schema, batch.data)
    }
  })()
}
