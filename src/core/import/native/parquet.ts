import { DataType, RecordBatch, type Schema } from 'apache-arrow'
import { batchFromData } from '../build'
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
    for await (const batch of sinkBatches(pl.scanParquet(path))) {
      throwIfAborted(signal)
      const same = asSchema(batch, schema)
      if (!same) throw new NativeTypeMismatch(`polars decoded the columns as ${batch.schema.fields.map((f) => `${f.name}: ${String(f.type)}`).join(', ')}`)
      nativeRows.parquet += batch.numRows
      yield same
    }
  })()
}

/**
 * The batch under `schema` when its columns are the schema's (names and types), else null. A timestamp decoded with
 * the zone the file declared where the schema normalised it to UTC counts as the same: the values are the same
 * instants, only the label differs (its data is relabelled, the buffers kept).
 */
export function asSchema(batch: RecordBatch, schema: Schema): RecordBatch | null {
  const got = batch.schema.fields
  if (got.length !== schema.fields.length) return null
  let relabel = false
  for (let i = 0; i < got.length; i++) {
    const want = schema.fields[i]!
    if (got[i]!.name !== want.name) return null
    if (String(got[i]!.type) === String(want.type)) continue
    if (!zoneOnly(got[i]!.type, want.type)) return null
    relabel = true
  }
  if (!relabel) return new RecordBatch(schema, batch.data)
  const children = batch.data.children.map((child, i) => {
    const type = schema.fields[i]!.type
    return String(child.type) === String(type) ? child : child.clone(type)
  })
  return batchFromData(schema, children, batch.numRows)
}

function zoneOnly(got: DataType, want: DataType): boolean {
  return DataType.isTimestamp(got) && DataType.isTimestamp(want) && got.unit === want.unit && Boolean(got.timezone) && Boolean(want.timezone)
}
