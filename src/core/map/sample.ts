import { tableFromIPC, type DataType, type Vector } from 'apache-arrow'
import { AppError, type TableRef } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { commonLength, eachVector, isVectorType } from './vectors'

/** Stretches of rows read for a sample: enough to spread it over the table, few enough to stay cheap. */
const STRETCHES = 32

/** An even sample of a vector column at one version: what the PCA and UMAP maps are fitted on. */
export interface ColumnSample {
  /** Rows of the table at this version. */
  totalRows: number
  dimension: number
  /** The sampled vectors that can be placed (no NaN, null or other length), packed row after row. */
  values: Float32Array
  rows: number
}

/**
 * Checks that `column` is a vector column at `version`, then reads `size` rows of it (or every row of a smaller
 * table) in stretches spread evenly over the table. Each stretch reads its exact share, so the sample is the size
 * asked for and no row is read twice. `onRead(rows, of)` hears the rows read so far after each stretch.
 */
export async function readColumnSample(
  client: NamespaceClient,
  table: TableRef,
  version: number,
  column: string,
  size: number,
  signal?: AbortSignal,
  onRead?: (rows: number, of: number) => void,
): Promise<ColumnSample> {
  const id = { namespace: table.namespace, name: table.name }
  const description = await client.describeTable(id, { version, signal })
  const field = description.schema.fields.find((f) => f.name === column)
  if (!field) throw new AppError('invalid_input', `Version ${version} of ${table.name} has no column "${column}"`)
  if (!isVectorType(field.type)) throw new AppError('invalid_input', `"${column}" is not a vector column (a list of floats); a map needs one`)
  const totalRows = description.rowCount

  const wanted = Math.min(size, totalRows)
  const stretches = Math.max(1, Math.min(STRETCHES, wanted))
  const parts: Vector[] = []
  let read = 0
  onRead?.(0, wanted)
  for (let s = 0; s < stretches && totalRows > 0; s++) {
    signal?.throwIfAborted()
    const offset = Math.floor((s * totalRows) / stretches)
    const limit = Math.floor(((s + 1) * wanted) / stretches) - Math.floor((s * wanted) / stretches)
    const bytes = await client.readPage(id, { version, offset, limit, columns: [column], signal })
    const child = tableFromIPC(bytes).getChild(column)
    if (child) parts.push(child)
    read += limit
    onRead?.(read, wanted)
  }
  const dimension = dimensionOf(parts, field.type)
  if (!dimension) throw new AppError('invalid_input', `"${column}" has no vectors to place at version ${version}`)
  const values = new Float32Array(wanted * dimension)
  let rows = 0
  for (const part of parts)
    eachVector(
      part,
      dimension,
      (v, start) => {
        for (let k = 0; k < dimension; k++) values[rows * dimension + k] = v[start + k]!
        rows++
      },
      () => undefined,
    )
  return { totalRows, dimension, values: values.subarray(0, rows * dimension), rows }
}

/** A fixed-size list's size, else the length most sampled vectors have. */
function dimensionOf(parts: Vector[], type: DataType): number | null {
  const listSize = (type as { listSize?: number }).listSize
  if (typeof listSize === 'number') return listSize
  const counts = new Map<number, number>()
  for (const c of parts) {
    const n = commonLength(c)
    if (n !== null) counts.set(n, (counts.get(n) ?? 0) + c.length)
  }
  let best: number | null = null
  for (const [n, count] of counts) if (best === null || count > counts.get(best)!) best = n
  return best
}
