import { makeVector, type Data } from 'apache-arrow'
import { AppError, UMAP_SAMPLE, type MapSummary, type TableRef } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { jacobi } from './pca'
import { readColumnSample } from './sample'
import type { MapOptions, MapResult } from './run'
import { UmapWorker, type Placed } from './umapWorker'
import { eachVector, type Skip } from './vectors'

/**
 * The UMAP map of a column: UMAP fitted on an even sample of `sample` rows (off the main thread), then one
 * streaming scan placing every row by its nearest sample rows in a k-d PCA of the column (see umapWorker.ts).
 * Seeded, so the same version, column and sample size give the same map. Nothing is kept here.
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
  const { totalRows, dimension: d, values: sample, rows: n } = await readColumnSample(client, table, version, column, size, signal)
  if (n < 3) throw new AppError('invalid_input', `Too few vectors of "${column}" can be placed for UMAP (${n}); the PCA map needs none`)

  // The k-d PCA the neighbours are found in, fitted on every few rows of the sample (still spread over the table):
  // it runs on this thread, and any subspace that keeps most of the variance finds the right neighbours.
  const k = Math.min(REDUCED, d)
  const m = Math.min(n, BASIS_ROWS)
  const some = new Float32Array(m * d)
  for (let i = 0; i < m; i++) some.set(sample.subarray(Math.floor((i * n) / m) * d, Math.floor((i * n) / m) * d + d), i * d)
  const basis = fitBasis(some, m, d, k)
  // The same arithmetic, in the same order, as the worker's placing (umapWorker.ts): a sample row met again in the
  // scan reduces to the very same point, and so lands exactly on its own UMAP point.
  const shift = new Float64Array(k)
  for (let j = 0; j < k; j++) {
    let s = 0
    for (let q = 0; q < d; q++) s += basis.mean[q]! * basis.axes[j * d + q]!
    shift[j] = s
  }
  const reduced = new Float32Array(n * k)
  for (let i = 0; i < n; i++)
    for (let j = 0; j < k; j++) {
      let s = 0
      for (let q = 0; q < d; q++) s += sample[i * d + q]! * basis.axes[j * d + q]!
      s -= shift[j]!
      reduced[i * k + j] = s
    }
  signal?.throwIfAborted()

  const worker = new UmapWorker({ dimension: d, k, mean: basis.mean, basis: basis.axes, reduced, rows: n, epochs: options.epochs ?? EPOCHS, neighbours: NEIGHBOURS, seed: SEED })
  const stop = () => void worker.close()
  signal?.addEventListener('abort', stop)
  let xy: Float32Array = new Float32Array(Math.max(2, totalRows * 2))
  let rows: Uint32Array = new Uint32Array(Math.max(1, totalRows))
  let placed = 0
  let offset = 0
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
  try {
    await worker.fit()
    signal?.throwIfAborted()
    const interval = options.progressIntervalMs ?? 100
    let lastEmit = 0
    for await (const batch of client.scan(id, { version, columns: [column] }, { signal })) {
      signal?.throwIfAborted()
      const vectors = batch.getChild(column)
      if (!vectors) continue
      for (const data of vectors.data as Data[]) {
        // Every chunk is copied into a fresh buffer handed to the worker: one path for fixed and variable lists.
        const values = new Float32Array(data.length * d)
        const pre = new Uint8Array(data.length)
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
        pending.push(worker.place(values, data.length, pre))
        while (pending.length > IN_FLIGHT) take(await pending.shift()!)
      }
      const now = Date.now()
      if (options.onProgress && now - lastEmit >= interval) {
        lastEmit = now
        options.onProgress({ rows: offset, totalRows })
      }
    }
    while (pending.length > 0) take(await pending.shift()!)
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
    explained: basis.explained,
    projection: null,
    computedAt: Date.now(),
    elapsedMs: Date.now() - started,
  }
  return { summary, xy: xy.slice(0, placed * 2), rows: rows.slice(0, placed) }
}

/**
 * The top `k` principal axes of the first `rows` sample rows, by subspace iteration (as pca.ts does for two):
 * a block of k + 4, 6 passes, then Rayleigh–Ritz. Axes row-major (k × d); `explained` is the share of the first two.
 */
export function fitBasis(sample: Float32Array, rows: number, d: number, k: number): { mean: Float32Array; axes: Float32Array; explained: [number, number] } {
  const mean = new Float64Array(d)
  for (let r = 0; r < rows; r++) for (let q = 0; q < d; q++) mean[q]! += sample[r * d + q]!
  for (let q = 0; q < d; q++) mean[q]! /= Math.max(rows, 1)
  const x = new Float64Array(rows * d)
  let total = 0
  for (let i = 0; i < rows * d; i++) {
    const v = sample[i]! - mean[i % d]!
    x[i] = v
    total += v * v
  }
  const b = Math.min(k + 4, d)
  let seed = 0x2545f491
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32 - 0.5
  }
  let basis = orthonormalise(Array.from({ length: b }, () => Float64Array.from({ length: d }, random)))
  const z = new Float64Array(b)
  for (let pass = 0; pass < 6; pass++) {
    const out = basis.map(() => new Float64Array(d))
    for (let r = 0; r < rows; r++) {
      const o = r * d
      for (let j = 0; j < b; j++) {
        let s = 0
        const v = basis[j]!
        for (let q = 0; q < d; q++) s += x[o + q]! * v[q]!
        z[j] = s
      }
      for (let j = 0; j < b; j++) {
        const w = out[j]!
        const zj = z[j]!
        for (let q = 0; q < d; q++) w[q]! += x[o + q]! * zj
      }
    }
    basis = orthonormalise(out)
  }
  // Rayleigh–Ritz inside the block: the rotation that orders the axes by variance.
  const proj = basis.map((v) => {
    const p = new Float64Array(rows)
    for (let r = 0; r < rows; r++) {
      let s = 0
      for (let q = 0; q < d; q++) s += x[r * d + q]! * v[q]!
      p[r] = s
    }
    return p
  })
  const t = proj.map((a) => proj.map((c) => a.reduce((s, v, i) => s + v * c[i]!, 0)))
  const { values, vectors } = jacobi(t)
  const order = values.map((v, i) => [v, i] as const).sort((a, c) => c[0] - a[0])
  const axes = new Float32Array(k * d)
  for (let n = 0; n < k; n++) {
    const i = order[n]![1]
    for (let j = 0; j < b; j++) for (let q = 0; q < d; q++) axes[n * d + q]! += basis[j]![q]! * vectors[j]![i]!
  }
  const share = (n: number) => (total > 0 ? Math.max(0, order[n]?.[0] ?? 0) / total : 0)
  return { mean: Float32Array.from(mean), axes, explained: [share(0), share(1)] }
}

function orthonormalise(basis: Float64Array[]): Float64Array[] {
  for (let j = 0; j < basis.length; j++) {
    const v = basis[j]!
    for (let i = 0; i < j; i++) {
      const u = basis[i]!
      let p = 0
      for (let q = 0; q < v.length; q++) p += v[q]! * u[q]!
      for (let q = 0; q < v.length; q++) v[q]! -= p * u[q]!
    }
    let norm = 0
    for (let q = 0; q < v.length; q++) norm += v[q]! * v[q]!
    norm = Math.sqrt(norm)
    if (norm > 1e-12) for (let q = 0; q < v.length; q++) v[q]! /= norm
    else v.fill(0)
  }
  return basis
}
