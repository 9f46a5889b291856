import { Worker } from 'node:worker_threads'
import type { MapPhase } from '../../contract'
import { BASIS_SOURCE, BASIS_STEPS } from './basisSource'
import { GRAPH_SOURCE } from './graphSource'
import { REDUCE_WASM } from './reduce.wasm'

/**
 * The UMAP side of the map in a worker thread, so the process keeps answering while the layout is fitted and the
 * rows are placed. The worker is handed the even sample (full vectors) and does all the fitting: the k-d PCA the
 * neighbours are found in (pca.ts's fitBasis, handed over as text by basisSource.ts), the sample reduced to it,
 * exact nearest neighbours (faster than umap-js's own search at these sizes), UMAP (umap-js, seeded, stepped one epoch at a time so each is reported),
 * then places each batch of full vectors: reduced to k-d, then put at the inverse-distance weighted mean of the UMAP
 * points of its nearest sample rows. The search is bounded: the sample is split into ~√n cells and only the few
 * nearest cells are searched, so a row costs about d·k + 4·√n·k multiply-adds whatever the table's size.
 * Every step reports where it is (a {@link MapPhase}); cancelling terminates the worker, whatever step it is in.
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
  /** The sample's vectors (rows × dimension; its buffer is handed over to the worker, not copied). */
  sample: Float32Array
  rows: number
  /** Sample rows the k-d PCA is fitted on (every few rows of the sample, still spread over the table). */
  basisRows: number
  epochs: number
  neighbours: number
  seed: number
}

/** What the fit found beside the layout: the share of the sample's variance along the PCA's first two axes. */
export interface Fitted {
  explained: [number, number]
  /** What reduced the rows to k-d: reduce.wat in WebAssembly SIMD, or JavaScript where that did not compile. */
  engine: 'wasm' | 'js'
}

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const { UMAP } = require(workerData.umapPath)
const { dimension: d, k, rows: n, basisRows, epochs, neighbours, seed } = workerData.setup
const sample = new Float32Array(workerData.setup.sample.buffer, workerData.setup.sample.byteOffset, n * d)
// Neighbours a placed row is averaged over, and cells searched per row.
const PLACE = 5
const PROBE = 3
${BASIS_SOURCE}
${GRAPH_SOURCE}

const phase = (name, done, total) => parentPort.postMessage({ type: 'phase', name, done, total })

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

// The PCA's axes and shift, set by the fit. (v − mean)·axis = v·axis − mean·axis: the second term once, so a row
// costs d·k multiply-adds, no subtractions. A sample row and the same vector met again in the scan go through the
// same code (reduceRows), so the row lands exactly on its own UMAP point.
let basis = null
const shift = new Float64Array(k)

// reduce.wat in WebAssembly SIMD where it compiles (two f64 lanes an instruction: ~3× the JavaScript loop below at
// 768 × 16), the JavaScript loop where it does not. Its memory: axes (k·d f64), shifts, one widened row, then a
// chunk of rows in and their k results out.
const REDUCE_CHUNK = Math.max(1, Math.floor(262144 / (4 * Math.max(d, 1))))
let kernel = null
function setUpKernel() {
  try {
    const bytes = Uint8Array.from(atob(workerData.reduceWasm), (c) => c.charCodeAt(0))
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes))
    const axesAt = 0
    const shiftsAt = axesAt + k * d * 8
    const scratchAt = shiftsAt + k * 8
    const itemsAt = scratchAt + d * 8
    const outAt = itemsAt + Math.ceil((REDUCE_CHUNK * d * 4) / 8) * 8
    const needed = outAt + REDUCE_CHUNK * k * 8
    if (needed > exports.memory.buffer.byteLength) exports.memory.grow(Math.ceil((needed - exports.memory.buffer.byteLength) / 65536))
    const buffer = exports.memory.buffer
    const axes = new Float64Array(buffer, axesAt, k * d)
    for (let i = 0; i < k * d; i++) axes[i] = basis[i]
    new Float64Array(buffer, shiftsAt, k).set(shift)
    kernel = {
      items: new Float32Array(buffer, itemsAt, REDUCE_CHUNK * d),
      out: new Float64Array(buffer, outAt, REDUCE_CHUNK * k),
      run: (rows) => exports.reduce(itemsAt, rows, d, axesAt, k, shiftsAt, outAt, scratchAt),
    }
  } catch {
    kernel = null
  }
}

function reduceInto(values, o, out, oo) {
  let check = 0
  let j = 0
  // Four axes per sweep of the row (each item loaded once for four sums); each sum still adds its items in order,
  // so a value is the same to the bit as one axis at a time.
  for (; j + 3 < k; j += 4) {
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0
    const b0 = j * d, b1 = b0 + d, b2 = b1 + d, b3 = b2 + d
    for (let q = 0; q < d; q++) {
      const v = values[o + q]
      s0 += v * basis[b0 + q]
      s1 += v * basis[b1 + q]
      s2 += v * basis[b2 + q]
      s3 += v * basis[b3 + q]
    }
    s0 -= shift[j]; s1 -= shift[j + 1]; s2 -= shift[j + 2]; s3 -= shift[j + 3]
    out[oo + j] = s0; out[oo + j + 1] = s1; out[oo + j + 2] = s2; out[oo + j + 3] = s3
    check += s0 * 0 + s1 * 0 + s2 * 0 + s3 * 0
  }
  for (; j < k; j++) {
    let s = 0
    for (let q = 0, b = j * d; q < d; q++) s += values[o + q] * basis[b + q]
    s -= shift[j]
    out[oo + j] = s
    check += s * 0
  }
  // s * 0 is 0 for a finite s and NaN for NaN or ±Infinity in the vector.
  return check === 0
}

// Rows [0, rows) of \`values\` (rows × d) reduced into \`out\` (rows × k, Float32); \`finite[r]\` says whether row r's values are all finite.
function reduceRows(values, rows, out, finite) {
  if (!kernel) {
    for (let r = 0; r < rows; r++) finite[r] = reduceInto(values, r * d, out, r * k) ? 1 : 0
    return
  }
  for (let first = 0; first < rows; first += REDUCE_CHUNK) {
    const n = Math.min(REDUCE_CHUNK, rows - first)
    kernel.items.set(values.subarray(first * d, (first + n) * d))
    kernel.run(n)
    const res = kernel.out
    for (let i = 0; i < n * k; i++) out[first * k + i] = res[i]
    for (let i = 0; i < n; i++) {
      let check = 0
      for (let j = 0; j < k; j++) check += res[i * k + j] * 0
      finite[first + i] = check === 0 ? 1 : 0
    }
  }
}

let reduced = null
function fitBasisAndReduce() {
  // The PCA is fitted on every few rows of the sample (still spread over the table): any subspace that keeps most
  // of the variance finds the right neighbours.
  const m = Math.min(n, basisRows)
  const some = new Float32Array(m * d)
  for (let i = 0; i < m; i++) { const r = Math.floor((i * n) / m) * d; some.set(sample.subarray(r, r + d), i * d) }
  const steps = ${BASIS_STEPS} + 1
  phase('basis', 0, steps)
  const fitted = fitBasis(some, m, d, k, (step) => phase('basis', step, steps))
  basis = fitted.axes
  for (let j = 0; j < k; j++) { let s = 0; for (let q = 0; q < d; q++) s += fitted.mean[q] * basis[j * d + q]; shift[j] = s }
  setUpKernel()
  reduced = new Float32Array(n * k)
  reduceRows(sample, n, reduced, new Uint8Array(n))
  phase('basis', steps, steps)
  return fitted.explained
}

// Exact m nearest neighbours of every sample row (itself first, as UMAP expects). Each pair's distance is found
// once and offered to both rows; each row still meets its candidates in row order, so ties fall as a row-by-row
// search would break them.
function knn(m) {
  const bi = new Int32Array(n * m)
  const bd = new Float64Array(n * m)
  const have = new Int32Array(n)
  const offer = (i, j, dd) => {
    const o = i * m
    const h = have[i]
    if (h === m && dd >= bd[o + m - 1]) return
    let p = h < m ? (have[i] = h + 1, h) : m - 1
    while (p > 0 && bd[o + p - 1] > dd) { bd[o + p] = bd[o + p - 1]; bi[o + p] = bi[o + p - 1]; p-- }
    bd[o + p] = dd; bi[o + p] = j
  }
  const every = Math.max(1, Math.floor(n / 100))
  for (let i = 0; i < n; i++) {
    offer(i, i, -1)
    for (let j = i + 1; j < n; j++) {
      const dd = dist2(reduced, i * k, reduced, j * k)
      offer(i, j, dd)
      offer(j, i, dd)
    }
    if (i % every === every - 1) phase('neighbours', i + 1, n)
  }
  const indices = new Array(n)
  const distances = new Array(n)
  for (let i = 0; i < n; i++) {
    indices[i] = Array.from(bi.subarray(i * m, i * m + have[i]))
    distances[i] = Array.from(bd.subarray(i * m, i * m + have[i]), (x) => Math.sqrt(Math.max(0, x)))
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
  const explained = fitBasisAndReduce()
  const m = Math.min(neighbours, n - 1)
  phase('neighbours', 0, n)
  const { indices, distances } = knn(m)
  phase('neighbours', n, n)
  phase('graph', 0, null)
  const umap = new UMAP({ nComponents: 2, nNeighbors: m, nEpochs: epochs, random })
  umap.setPrecomputedKNN(indices, distances)
  // The search graph serves umap-js's transform(), which the map does not use (rows are placed here): skip its cost.
  umap.makeSearchGraph = () => null
  // The same graph as umap-js's, made without its string-keyed matrices (graphSource.ts).
  umap.fuzzySimplicialSet = () => fuzzyGraph(umap, n)
  const X = new Array(n)
  for (let i = 0; i < n; i++) X[i] = Array.from(reduced.subarray(i * k, i * k + k))
  const total = umap.initializeFit(X)
  phase('epochs', 0, total)
  for (let e = 0; e < total; e++) {
    umap.step()
    phase('epochs', e + 1, total)
  }
  const embedding = umap.getEmbedding()
  coords = new Float32Array(n * 2)
  for (let i = 0; i < n; i++) { coords[i * 2] = embedding[i][0]; coords[i * 2 + 1] = embedding[i][1] }
  buildCells()
  return explained
}

const probeC = new Int32Array(PROBE)
const probeD = new Float64Array(PROBE)
const nearI = new Int32Array(PLACE)
const nearD = new Float64Array(PLACE)

function place(values, rows, pre) {
  const xy = new Float32Array(rows * 2)
  const kind = new Uint8Array(rows)
  const probes = Math.min(PROBE, cells)
  // Every row of the batch reduced at once (rows left off by \`pre\` too: their values may be anything, and their
  // results are not read).
  const z = new Float32Array(rows * k)
  const finite = new Uint8Array(rows)
  reduceRows(values, rows, z, finite)
  for (let r = 0; r < rows; r++) {
    if (pre[r] !== 0) { kind[r] = pre[r]; continue }
    if (!finite[r]) { kind[r] = 1; continue }
    const zo = r * k
    let pc = 0
    for (let c = 0; c < cells; c++) {
      const dd = dist2(z, zo, centroids, c * k)
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
        const dd = dist2(z, zo, reduced, i * k)
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
    const explained = fit()
    parentPort.postMessage({ type: 'fitted', explained, engine: kernel ? 'wasm' : 'js' })
    return
  }
  const { xy, kind } = place(new Float32Array(m.buffer, 0, m.rows * d), m.rows, m.pre)
  // The values' buffer goes back too, to hold a later batch (a new 3 MB buffer per batch kept the main thread's collector busy).
  parentPort.postMessage({ type: 'placed', id: m.id, xy, kind, buffer: m.buffer }, [xy.buffer, kind.buffer, m.buffer])
})
`

type FromWorker = ({ type: 'phase' } & MapPhase) | ({ type: 'fitted' } & Fitted) | ({ type: 'placed'; id: number; buffer: ArrayBuffer } & Placed)

export class UmapWorker {
  private readonly worker: Worker
  private readonly waiting = new Map<number, { resolve: (p: Placed) => void; reject: (e: unknown) => void }>()
  private fitting: { resolve: (f: Fitted) => void; reject: (e: unknown) => void } | null = null
  private next = 0
  private failure: unknown = null
  /** Buffers the worker has handed back with its answers, for the next batches' values. */
  private readonly free: ArrayBuffer[] = []

  /** Takes over `setup.sample`'s buffer (handed to the worker). `onPhase` hears each step of the fit as it goes. */
  constructor(setup: UmapSetup, onPhase?: (phase: MapPhase) => void) {
    // The worker runs from a string (`eval`), so it is told where umap-js is rather than resolving it from the cwd.
    // No execArgv: the worker's code needs no loader or flag of the parent (a tsx-run parent would load its module
    // hooks into the worker too).
    this.worker = new Worker(WORKER, {
      eval: true,
      execArgv: [],
      workerData: { umapPath: require.resolve('umap-js'), setup, reduceWasm: REDUCE_WASM },
      transferList: [setup.sample.buffer as ArrayBuffer],
    })
    this.worker.on('message', (m: FromWorker) => {
      if (m.type === 'phase') onPhase?.({ name: m.name, done: m.done, total: m.total })
      else if (m.type === 'fitted') {
        this.fitting?.resolve({ explained: m.explained, engine: m.engine })
        this.fitting = null
      } else {
        const w = this.waiting.get(m.id)
        this.waiting.delete(m.id)
        this.free.push(m.buffer)
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

  /** Fits the PCA and the layout on the sample (the longest step: seconds for a few thousand rows). */
  fit(): Promise<Fitted> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise<Fitted>((resolve, reject) => {
      this.fitting = { resolve, reject }
      this.worker.postMessage({ type: 'fit' })
    })
  }

  /** Room for `length` float32 values: a buffer the worker gave back when one is large enough, else a new one. */
  values(length: number): Float32Array {
    const i = this.free.findIndex((buffer) => buffer.byteLength >= length * 4)
    const buffer = i >= 0 ? this.free.splice(i, 1)[0]! : new ArrayBuffer(length * 4)
    return new Float32Array(buffer, 0, length)
  }

  /**
   * Places `rows` vectors (`values`, rows × d, taken over: its buffer comes back through {@link values}); `pre` marks
   * rows already left off (1 NaN, 2 null, 3 wrong length).
   */
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
