import { Worker } from 'node:worker_threads'

/**
 * The UMAP side of the map in a worker thread, so the process keeps answering while the layout is fitted and the
 * rows are placed. The worker holds the sample (reduced to a k-d PCA), fits UMAP on it (umap-js, seeded, with
 * exact nearest neighbours computed here: faster than umap-js's own search at these sizes), then places each
 * batch of full vectors: reduced to k-d, then put at the inverse-distance weighted mean of the UMAP points of its
 * nearest sample rows. The search is bounded: the sample is split into ~√n cells and only the few nearest cells
 * are searched, so a row costs about d·k + 4·√n·k multiply-adds whatever the table's size.
 */

/** What comes back per batch: x, y per row (interleaved) and why a row is left off (0 placed, 1 NaN, 2 null, 3 wrong length). */
export interface Placed {
  xy: Float32Array
  kind: Uint8Array
}

export interface UmapSetup {
  dimension: number
  /** Reduced dimensions (k). */
  k: number
  /** The column's mean (d) and the k unit axes, row-major (k × d). */
  mean: Float32Array
  basis: Float32Array
  /** The sample, already reduced (rows × k). */
  reduced: Float32Array
  rows: number
  epochs: number
  neighbours: number
  seed: number
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { UMAP } = require(workerData.umapPath)
const { dimension: d, k, mean, basis, reduced, rows: n, epochs, neighbours, seed } = workerData.setup
// Neighbours a placed row is averaged over, and cells searched per row.
const PLACE = 5
const PROBE = 3

let state = seed >>> 0
const random = () => {
  state = (state * 1664525 + 1013904223) >>> 0
  return state / 4294967296
}

function dist2(a, ao, b, bo) {
  let s = 0
  for (let j = 0; j < k; j++) { const t = a[ao + j] - b[bo + j]; s += t * t }
  return s
}

// Exact k nearest neighbours of every sample row (itself first, as UMAP expects).
function knn(m) {
  const indices = new Array(n)
  const distances = new Array(n)
  const bi = new Int32Array(m)
  const bd = new Float64Array(m)
  for (let i = 0; i < n; i++) {
    let have = 0
    for (let j = 0; j < n; j++) {
      const dd = j === i ? -1 : dist2(reduced, i * k, reduced, j * k)
      if (have === m && dd >= bd[m - 1]) continue
      let p = have < m ? have++ : m - 1
      while (p > 0 && bd[p - 1] > dd) { bd[p] = bd[p - 1]; bi[p] = bi[p - 1]; p-- }
      bd[p] = dd; bi[p] = j
    }
    indices[i] = Array.from(bi.subarray(0, have))
    distances[i] = Array.from(bd.subarray(0, have), (x) => Math.sqrt(Math.max(0, x)))
  }
  return { indices, distances }
}

let coords = null
let cells = 0
let centroids = null
let order = null
let starts = null

function buildCells() {
  cells = Math.max(1, Math.round(Math.sqrt(n)))
  centroids = new Float32Array(cells * k)
  for (let c = 0; c < cells; c++) centroids.set(reduced.subarray(Math.floor((c * n) / cells) * k, Math.floor((c * n) / cells) * k + k), c * k)
  const owner = new Int32Array(n)
  for (let pass = 0; pass < 5; pass++) {
    const sums = new Float64Array(cells * k)
    const counts = new Int32Array(cells)
    for (let i = 0; i < n; i++) {
      let best = 0, bestD = Infinity
      for (let c = 0; c < cells; c++) { const dd = dist2(reduced, i * k, centroids, c * k); if (dd < bestD) { bestD = dd; best = c } }
      owner[i] = best
      counts[best]++
      for (let j = 0; j < k; j++) sums[best * k + j] += reduced[i * k + j]
    }
    for (let c = 0; c < cells; c++) if (counts[c] > 0) for (let j = 0; j < k; j++) centroids[c * k + j] = sums[c * k + j] / counts[c]
  }
  starts = new Int32Array(cells + 1)
  for (let i = 0; i < n; i++) starts[owner[i] + 1]++
  for (let c = 0; c < cells; c++) starts[c + 1] += starts[c]
  const fill = starts.slice(0, cells)
  order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[fill[owner[i]]++] = i
}

function fit() {
  const m = Math.min(neighbours, n - 1)
  const { indices, distances } = knn(m)
  const umap = new UMAP({ nComponents: 2, nNeighbors: m, nEpochs: epochs, random })
  umap.setPrecomputedKNN(indices, distances)
  // The search graph serves umap-js's transform(), which the map does not use (rows are placed here): skip its cost.
  umap.makeSearchGraph = () => null
  const X = new Array(n)
  for (let i = 0; i < n; i++) X[i] = Array.from(reduced.subarray(i * k, i * k + k))
  const total = umap.initializeFit(X)
  for (let e = 0; e < total; e++) {
    umap.step()
    if (e % 20 === 19) parentPort.postMessage({ type: 'epoch', epoch: e + 1, epochs: total })
  }
  const embedding = umap.getEmbedding()
  coords = new Float32Array(n * 2)
  for (let i = 0; i < n; i++) { coords[i * 2] = embedding[i][0]; coords[i * 2 + 1] = embedding[i][1] }
  buildCells()
}

// (v − mean)·axis = v·axis − mean·axis: the second term once here, so a row costs d·k multiply-adds, no subtractions.
const shift = new Float64Array(k)
for (let j = 0; j < k; j++) { let s = 0; for (let q = 0; q < d; q++) s += mean[q] * basis[j * d + q]; shift[j] = s }
const z = new Float32Array(k)
const cellD = new Float64Array(1)
const probeC = new Int32Array(PROBE)
const probeD = new Float64Array(PROBE)
const nearI = new Int32Array(PLACE)
const nearD = new Float64Array(PLACE)

function place(values, rows, pre) {
  const xy = new Float32Array(rows * 2)
  const kind = new Uint8Array(rows)
  const probes = Math.min(PROBE, cells)
  for (let r = 0; r < rows; r++) {
    if (pre[r] !== 0) { kind[r] = pre[r]; continue }
    const o = r * d
    let check = 0
    for (let j = 0; j < k; j++) {
      let s = 0
      for (let q = 0, b = j * d; q < d; q++) s += values[o + q] * basis[b + q]
      s -= shift[j]
      z[j] = s
      check += s * 0
    }
    // s * 0 is 0 for a finite s and NaN for NaN or ±Infinity in the vector.
    if (check !== 0) { kind[r] = 1; continue }
    let pc = 0
    for (let c = 0; c < cells; c++) {
      const dd = dist2(z, 0, centroids, c * k)
      if (pc === probes && dd >= probeD[probes - 1]) continue
      let p = pc < probes ? pc++ : probes - 1
      while (p > 0 && probeD[p - 1] > dd) { probeD[p] = probeD[p - 1]; probeC[p] = probeC[p - 1]; p-- }
      probeD[p] = dd; probeC[p] = c
    }
    let have = 0
    for (let t = 0; t < pc; t++) {
      const c = probeC[t]
      for (let u = starts[c]; u < starts[c + 1]; u++) {
        const i = order[u]
        const dd = dist2(z, 0, reduced, i * k)
        if (have === PLACE && dd >= nearD[PLACE - 1]) continue
        let p = have < PLACE ? have++ : PLACE - 1
        while (p > 0 && nearD[p - 1] > dd) { nearD[p] = nearD[p - 1]; nearI[p] = nearI[p - 1]; p-- }
        nearD[p] = dd; nearI[p] = i
      }
    }
    // A row of the sample (or an exact copy of one) lands on its own UMAP point.
    if (nearD[0] <= 1e-12) { xy[r * 2] = coords[nearI[0] * 2]; xy[r * 2 + 1] = coords[nearI[0] * 2 + 1]; continue }
    let sx = 0, sy = 0, sw = 0
    for (let t = 0; t < have; t++) {
      const w = 1 / Math.sqrt(nearD[t])
      sx += w * coords[nearI[t] * 2]; sy += w * coords[nearI[t] * 2 + 1]; sw += w
    }
    xy[r * 2] = sx / sw
    xy[r * 2 + 1] = sy / sw
  }
  return { xy, kind }
}

parentPort.on('message', (m) => {
  if (m.type === 'fit') {
    fit()
    parentPort.postMessage({ type: 'fitted' })
    return
  }
  const { xy, kind } = place(new Float32Array(m.buffer, 0, m.rows * d), m.rows, m.pre)
  parentPort.postMessage({ type: 'placed', id: m.id, xy, kind }, [xy.buffer, kind.buffer])
})
`

export class UmapWorker {
  private readonly worker: Worker
  private readonly waiting = new Map<number, { resolve: (p: Placed) => void; reject: (e: unknown) => void }>()
  private fitting: { resolve: () => void; reject: (e: unknown) => void } | null = null
  private next = 0
  private failure: unknown = null

  constructor(setup: UmapSetup, onEpoch?: (epoch: number, epochs: number) => void) {
    // The worker runs from a string (`eval`), so it is told where umap-js is rather than resolving it from the cwd.
    this.worker = new Worker(WORKER, { eval: true, workerData: { umapPath: require.resolve('umap-js'), setup } })
    this.worker.on('message', (m: { type: 'epoch'; epoch: number; epochs: number } | { type: 'fitted' } | ({ type: 'placed'; id: number } & Placed)) => {
      if (m.type === 'epoch') onEpoch?.(m.epoch, m.epochs)
      else if (m.type === 'fitted') {
        this.fitting?.resolve()
        this.fitting = null
      } else {
        const w = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        w?.resolve({ xy: m.xy, kind: m.kind })
      }
    })
    const fail = (error: unknown) => {
      this.failure = error
      this.fitting?.reject(error)
      this.fitting = null
      for (const w of this.waiting.values()) w.reject(error)
      this.waiting.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => {
      if (this.waiting.size > 0 || this.fitting) fail(new Error(`The map's UMAP worker stopped (exit code ${code})`))
    })
  }

  /** Fits the layout on the sample (the longest step: seconds for a few thousand rows). */
  fit(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise<void>((resolve, reject) => {
      this.fitting = { resolve, reject }
      this.worker.postMessage({ type: 'fit' })
    })
  }

  /** Places `rows` vectors (`values`, rows × d, taken over); `pre` marks rows already left off (1 NaN, 2 null, 3 wrong length). */
  place(values: Float32Array, rows: number, pre: Uint8Array): Promise<Placed> {
    if (this.failure) return Promise.reject(this.failure)
    const id = this.next++
    return new Promise<Placed>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      const buffer = values.buffer as ArrayBuffer
      this.worker.postMessage({ type: 'place', id, buffer, rows, pre }, [buffer])
    })
  }

  /** Stops the worker (a fit under way is dropped with it: cancelling needs no cooperation from umap-js). */
  async close(): Promise<void> {
    await this.worker.terminate()
  }
}
