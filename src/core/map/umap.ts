import { makeVector, type Data } from 'apache-arrow'
import { AppError, UMAP_SAMPLE, type MapPhase, type MapSummary, type TableRef } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { projectable, type MapOptions, type MapResult } from './run'
import { readColumnSample } from './sample'
import { UmapWorker, type Placed } from './umapWorker'
import { eachVector, type Skip } from './vectors'

/**
 * The UMAP map of a column: an even sample of `sample` rows read here, then everything else in a worker thread —
 * a k-d PCA of the sample, UMAP fitted on it, and every row of one streaming scan placed by its nearest sample
 * rows in that PCA (see umapWorker.ts) — so the process stays free to answer. Each step is reported as it goes
 * (`progress.phase`), and cancelling stops whichever step is running (the worker is terminated). Seeded, so the
 * same version, column and sample size give the same map. Nothing is kept here.
 */
export interface UmapOptions extends MapOptions {
  /** Rows UMAP is fitted on (default {@link UMAP_SAMPLE}.default). */
  sample?: number
  /** Optimisation epochs (200 is umap-learn's choice for large inputs and looks settled at these sizes). */
  epochs?: number
}

/** Dimensions the neighbours are found in: enough to keep clusters apart, few enough to search a million rows. */
const REDUCED = 16
/** Sample rows the k-d PCA is fitted on: 1,024 × 768-d × 20 × 2 × 6 passes ≈ 2e8 multiply-adds (~0.3 s). */
const BASIS_ROWS = 1024
const NEIGHBOURS = 15
const EPOCHS = 200
const SEED = 42
/** Batches handed to the worker before the scan waits for the oldest. */
const IN_FLIGHT = 4
const PRE: Record<Skip, number> = { nan: 1, nulls: 2, wrongDimension: 3 }

export async function umapColumn(client: NamespaceClient, table: TableRef, version: number, column: string, options: UmapOptions = {}): Promise<MapResult> {
  const started = Date.now()
  const { signal } = options
  const size = options.sample ?? UMAP_SAMPLE.default
  if (!Number.isInteger(size) || size < UMAP_SAMPLE.min || size > UMAP_SAMPLE.max) throw new AppError('invalid_input', `A UMAP sample is a whole number of rows from ${UMAP_SAMPLE.min} to ${UMAP_SAMPLE.max}; got ${size}`)
  const id = { namespace: table.namespace, name: table.name }

  // Progress: rows placed (of the table's rows once known) and the step. A step is reported at once when it
  // starts and when it ends, in between at most once per interval (epochs come from the worker one by one).
  const interval = options.progressIntervalMs ?? 100
  let totalRows: number | null = null
  let offset = 0
  let shown: MapPhase | null = null
  let lastEmit = 0
  const report = (phase: MapPhase) => {
    if (!options.onProgress || signal?.aborted) return
    const now = Date.now()
    const turning = shown?.name !== phase.name || phase.done === phase.total
    shown = phase
    if (!turning && now - lastEmit < interval) return
    lastEmit = now
    options.onProgress({ rows: offset, totalRows, phase })
  }

  const sampled = await readColumnSample(client, table, version, column, size, signal, (done, of) => report({ name: 'sample', done, total: of }))
  const { dimension: d, rows: n } = sampled
  totalRows = sampled.totalRows
  if (n < 3) throw new AppError('invalid_input', `Too few vectors of "${column}" can be placed for UMAP (${n}); the PCA map needs none`)
  signal?.throwIfAborted()

  // The sample's buffer goes to the worker (not copied): the PCA, the neighbours and UMAP all run there.
  const worker = new UmapWorker(
    { dimension: d, k: Math.min(REDUCED, d), sample: sampled.values, rows: n, basisRows: BASIS_ROWS, epochs: options.epochs ?? EPOCHS, neighbours: NEIGHBOURS, seed: SEED },
    report,
  )
  const stop = () => void worker.close()
  signal?.addEventListener('abort', stop)
  let xy: Float32Array = new Float32Array(Math.max(2, totalRows * 2))
  let rows: Uint32Array = new Uint32Array(Math.max(1, totalRows))
  let placed = 0
  const skipped: Record<Skip, number> = { nan: 0, nulls: 0, wrongDimension: 0 }
  const take = ({ xy: part, kind }: Placed) => {
    if (placed + kind.length > rows.length) {
      rows = Uint32Array.from({ length: Math.max(placed + kind.length, rows.length * 2) }, (_, i) => rows[i] ?? 0)
      const more = new Float32Array(rows.length * 2)
      more.set(xy)
      xy = more
    }
    for (let i = 0; i < kind.length; i++) {
      const why = kind[i]!
      if (why === 0) {
        xy[placed * 2] = part[i * 2]!
        xy[placed * 2 + 1] = part[i * 2 + 1]!
        rows[placed++] = offset
      } else skipped[why === 1 ? 'nan' : why === 2 ? 'nulls' : 'wrongDimension']++
      offset++
    }
  }
  const pending: Promise<Placed>[] = []
  let explained: [number, number]
  try {
    ;({ explained } = await worker.fit())
    signal?.throwIfAborted()
    report({ name: 'place', done: 0, total: totalRows })
    for await (const batch of client.scan(id, { version, columns: [column] }, { signal })) {
      signal?.throwIfAborted()
      const vectors = batch.getChild(column)
      if (!vectors) continue
      for (const data of vectors.data as Data[]) {
        const { values, pre } = chunkForWorker(data, d, (length) => worker.values(length))
        pending.push(worker.place(values, data.length, pre))
        while (pending.length > IN_FLIGHT) take(await pending.shift()!)
      }
      report({ name: 'place', done: offset, total: totalRows })
    }
    while (pending.length > 0) take(await pending.shift()!)
  } catch (error) {
    // A cancel terminates the worker, which rejects what it was doing: the cancel is the reason, not the exit.
    signal?.throwIfAborted()
    throw error
  } finally {
    for (const p of pending) p.catch(() => undefined)
    signal?.removeEventListener('abort', stop)
    await worker.close()
  }
  signal?.throwIfAborted()
  const summary: MapSummary = {
    table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name },
    version,
    column,
    dimension: d,
    method: 'umap',
    sample: n,
    rows: placed,
    skipped,
    explained,
    projection: null,
    computedAt: Date.now(),
    elapsedMs: Date.now() - started,
  }
  return { summary, xy: xy.slice(0, placed * 2), rows: rows.slice(0, placed) }
}

/**
 * A scanned chunk as the worker takes it: its values in a buffer of their own from `room` (one the worker handed
 * back, or a new one; handed over, not copied again — Lance's own buffers cannot be) and, per row, why it is left
 * off before any arithmetic (2 null, 1 NaN, 3 another length; such rows' values are not read).
 * Fixed-size Float32 lists are copied in one go (the worker finds NaNs on its pass); other lists item by item.
 */
function chunkForWorker(data: Data, d: number, room: (length: number) => Float32Array): { values: Float32Array; pre: Uint8Array } {
  const pre = new Uint8Array(data.length)
  const straight = projectable(data, d)
  if (straight) {
    if (data.nullCount > 0) for (let i = 0; i < data.length; i++) if (!data.getValid(i)) pre[i] = PRE.nulls
    const values = room(straight.length)
    values.set(straight)
    return { values, pre }
  }
  const values = room(data.length * d)
  let r = 0
  eachVector(
    makeVector(data),
    d,
    (v, start) => {
      for (let q = 0; q < d; q++) values[r * d + q] = v[start + q]!
      r++
    },
    (why) => void (pre[r++] = PRE[why]),
  )
  return { values, pre }
}
