import { DataType, Float32, makeData, makeVector, type Data, Schema, Field, Struct, Table, RecordBatch, RecordBatchReader, Uint32, tableToIPC } from 'apache-arrow'
import { AppError, MAP_SAMPLE_ROWS, type MapProgress, type MapSummary, type TableRef } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { fitComponents } from './pca'
import { readColumnSample } from './sample'
import { NAN, PLACED, Projector, type Projected } from './projector'
import { eachVector, type Skip } from './vectors'

export interface MapOptions {
  signal?: AbortSignal
  /** Rows placed so far (throttled to one call per `progressIntervalMs`); a UMAP map also says its step. */
  onProgress?: (progress: MapProgress) => void
  progressIntervalMs?: number
  /** Rows the components are fitted on (default {@link MAP_SAMPLE_ROWS}). */
  sampleRows?: number
}

export interface MapResult {
  summary: MapSummary
  /** x, y per placed row, interleaved. */
  xy: Float32Array
  /** Each placed row's offset in the table at that version (scan order). */
  rows: Uint32Array
}

/** Batches handed to the projection worker before the scan waits for the oldest: enough to keep both busy, few enough to bound memory. */
const IN_FLIGHT = 4

/**
 * The embedding map of `column` at `version`: the two principal components fitted on an even sample (stretches
 * of rows spread over the table), then one streaming scan of the column placing every row. Rows with a NaN, a
 * null or another length are left off and counted. Nothing is kept here: the caller keeps a finished result.
 */
export async function mapColumn(client: NamespaceClient, table: TableRef, version: number, column: string, options: MapOptions = {}): Promise<MapResult> {
  const started = Date.now()
  const { signal } = options
  const id = { namespace: table.namespace, name: table.name }
  const { totalRows, dimension, values: sample, rows: sampled } = await readColumnSample(client, table, version, column, options.sampleRows ?? MAP_SAMPLE_ROWS, signal)
  if (sampled === 0) throw new AppError('invalid_input', `No vector of "${column}" can be placed: every one sampled has a NaN, a null or another length than ${dimension}`)
  const components = fitComponents(sample, sampled, dimension)
  const [a, b] = components.axes
  const a32 = Float32Array.from(a)
  const b32 = Float32Array.from(b)
  let shiftA = 0
  let shiftB = 0
  for (let k = 0; k < dimension; k++) {
    shiftA += components.mean[k]! * a[k]!
    shiftB += components.mean[k]! * b[k]!
  }

  // The scan: every row placed as it streams. Fixed-size Float32 vectors go to the projection worker (a few
  // batches in flight, results taken in scan order); other lists are placed here, after the worker's batches.
  let xy: Float32Array = new Float32Array(Math.max(2, totalRows * 2))
  let rows: Uint32Array = new Uint32Array(Math.max(1, totalRows))
  let placed = 0
  let offset = 0
  const skipped: Record<Skip, number> = { nan: 0, nulls: 0, wrongDimension: 0 }
  const interval = options.progressIntervalMs ?? 100
  let lastEmit = 0
  const room = (more: number) => {
    if (placed + more <= rows.length) return
    rows = growU32(rows, placed + more)
    xy = growF32(xy, (placed + more) * 2)
  }
  const take = ({ xy: part, kind }: Projected) => {
    room(kind.length)
    for (let i = 0; i < kind.length; i++) {
      const k = kind[i]!
      if (k === PLACED) {
        xy[placed * 2] = part[i * 2]!
        xy[placed * 2 + 1] = part[i * 2 + 1]!
        rows[placed++] = offset
      } else skipped[k === NAN ? 'nan' : 'nulls']++
      offset++
    }
  }
  const projector = new Projector({ a: a32, b: b32, shiftA, shiftB, dimension })
  const pending: Promise<Projected>[] = []
  try {
    for await (const batch of client.scan(id, { version, columns: [column] }, { signal })) {
      signal?.throwIfAborted()
      const vectors = batch.getChild(column)
      if (!vectors) continue
      for (const data of vectors.data as Data[]) {
        const values = projectable(data, dimension)
        if (values) {
          const valid = data.nullCount > 0 && data.nullBitmap ? data.nullBitmap.slice(0, Math.ceil(data.length / 8)) : null
          pending.push(projector.project(values, data.length, valid))
          while (pending.length > IN_FLIGHT) take(await pending.shift()!)
          continue
        }
        while (pending.length > 0) take(await pending.shift()!)
        room(data.length)
        eachVector(
          makeVector(data),
          dimension,
          (values, start) => {
            let x = 0
            let y = 0
            for (let k = 0; k < dimension; k++) {
              const v = values[start + k]!
              x += v * a32[k]!
              y += v * b32[k]!
            }
            xy[placed * 2] = x - shiftA
            xy[placed * 2 + 1] = y - shiftB
            rows[placed] = offset++
            placed++
          },
          (why) => {
            skipped[why]++
            offset++
          },
        )
      }
      const now = Date.now()
      if (options.onProgress && now - lastEmit >= interval) {
        lastEmit = now
        options.onProgress({ rows: offset, totalRows })
      }
    }
    while (pending.length > 0) take(await pending.shift()!)
  } finally {
    // A failed or cancelled scan leaves batches in the worker: their answers are dropped with it.
    for (const p of pending) p.catch(() => undefined)
    await projector.close()
  }
  signal?.throwIfAborted()
  const summary: MapSummary = {
    table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name },
    version,
    column,
    dimension,
    method: 'pca',
    sample: sampled,
    rows: placed,
    skipped,
    explained: components.explained,
    projection: { axes: [Array.from(a32), Array.from(b32)], shift: [shiftA, shiftB] },
    computedAt: Date.now(),
    elapsedMs: Date.now() - started,
  }
  return { summary, xy: xy.slice(0, placed * 2), rows: rows.slice(0, placed) }
}

/**
 * The Float32 values of a fixed-size list chunk of `dimension`-long vectors, ready to hand to the worker (which
 * copies them into a shared slot), or null when the chunk must be read here (another type or length, or offsets
 * into its buffers).
 */
export function projectable(data: Data, dimension: number): Float32Array | null {
  const child = data.children[0]
  if (!DataType.isFixedSizeList(data.type) || (data.type as { listSize: number }).listSize !== dimension) return null
  if (!child || !(child.values instanceof Float32Array) || data.offset !== 0 || child.offset !== 0 || child.nullCount > 0) return null
  return child.values.subarray(0, data.length * dimension)
}

function growF32(a: Float32Array, min: number): Float32Array {
  const out = new Float32Array(Math.max(min, a.length * 2))
  out.set(a)
  return out
}
function growU32(a: Uint32Array, min: number): Uint32Array {
  const out = new Uint32Array(Math.max(min, a.length * 2))
  out.set(a)
  return out
}

/** The coordinates as Arrow IPC bytes (`x`, `y`, `row`), the summary in the schema's metadata: one entry, one file. */
export function encodeMap(result: MapResult): Uint8Array {
  const n = result.rows.length
  const x = new Float32Array(n)
  const y = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    x[i] = result.xy[i * 2]!
    y[i] = result.xy[i * 2 + 1]!
  }
  const fields = [new Field('x', new Float32(), false), new Field('y', new Float32(), false), new Field('row', new Uint32(), false)]
  const schema = new Schema(fields, new Map([['map', JSON.stringify(result.summary)]]))
  const children = [makeData({ type: new Float32(), data: x }), makeData({ type: new Float32(), data: y }), makeData({ type: new Uint32(), data: result.rows })]
  const data = makeData({ type: new Struct(fields), length: n, nullCount: 0, children })
  return tableToIPC(new Table(schema, [new RecordBatch(schema, data)]), 'stream')
}

/**
 * The summary kept with encoded coordinates, read from the stream's schema message alone: `bytes` may be only the
 * entry's head (the coordinates that follow are not read). Null when the head ends inside the schema.
 */
export function decodeSummary(bytes: Uint8Array): MapSummary | null {
  const end = schemaMessageEnd(bytes)
  if (end === null || bytes.length < end) return null
  const reader = RecordBatchReader.from(bytes.subarray(0, end))
  reader.open()
  const text = reader.schema.metadata.get('map')
  if (!text) throw new AppError('internal', 'A kept map has no summary')
  // Maps kept before the method was a choice are PCA maps (their sample size was not recorded).
  return { method: 'pca', sample: MAP_SAMPLE_ROWS, ...(JSON.parse(text) as Partial<MapSummary>) } as MapSummary
}

/**
 * Where an IPC stream's first message (the schema) ends, from its prefix: a continuation marker (0xFFFFFFFF) and the
 * message's length, each 4 bytes little-endian (streams before Arrow 0.15 have the length alone); null when even the
 * prefix is cut. Telling a cut head by this length, not by the words of arrow's error, keeps working when they change.
 */
function schemaMessageEnd(bytes: Uint8Array): number | null {
  if (bytes.length < 8) return null
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const first = view.getInt32(0, true)
  return first === -1 ? 8 + view.getInt32(4, true) : 4 + first
}
