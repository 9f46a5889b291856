import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../../src/core/arrow'
import { REDUCE_WASM } from '../../../src/core/map/reduce.wasm'
import { UmapWorker } from '../../../src/core/map/umapWorker'

/** The WebAssembly API as far as used here (the tests' TypeScript program has no DOM declarations). */
const wasmApi = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object; Instance: new (module: object) => { exports: object } } }).WebAssembly

interface ReduceExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number }
  reduce(items: number, rows: number, d: number, axes: number, k: number, shifts: number, out: number, scratch: number): void
}

/** reduce.wat run directly: `rows` × d items onto k axes, minus the shifts. */
function reduceInWasm(items: Float32Array, rows: number, d: number, axes: Float64Array, k: number, shifts: Float64Array): Float64Array {
  const { exports } = new wasmApi.Instance(new wasmApi.Module(Uint8Array.from(atob(REDUCE_WASM), (c) => c.charCodeAt(0))))
  const wasm = exports as ReduceExports
  const axesAt = 0
  const shiftsAt = axesAt + axes.byteLength
  const scratchAt = shiftsAt + shifts.byteLength
  const itemsAt = scratchAt + d * 8
  const outAt = itemsAt + Math.ceil(items.byteLength / 8) * 8
  const needed = outAt + rows * k * 8
  if (needed > wasm.memory.buffer.byteLength) wasm.memory.grow(Math.ceil((needed - wasm.memory.buffer.byteLength) / 65536))
  const buffer = wasm.memory.buffer
  new Float64Array(buffer, axesAt, axes.length).set(axes)
  new Float64Array(buffer, shiftsAt, shifts.length).set(shifts)
  new Float32Array(buffer, itemsAt, items.length).set(items)
  wasm.reduce(itemsAt, rows, d, axesAt, k, shiftsAt, outAt, scratchAt)
  return new Float64Array(buffer, outAt, rows * k).slice()
}

describe('reduce.wat (the UMAP map’s projection of each row onto its k PCA axes)', () => {
  it('is each row’s dot product with each axis, less its shift, for dimensions around its groups of 4', () => {
    const random = seededRandom(5)
    for (const [d, k] of [[1, 1], [3, 2], [4, 3], [5, 16], [17, 16], [768, 16], [768, 2]] as Array<[number, number]>) {
      const rows = 7
      const items = Float32Array.from({ length: rows * d }, () => random() * 4 - 2)
      const axes = Float64Array.from({ length: k * d }, () => Math.fround(random() - 0.5))
      const shifts = Float64Array.from({ length: k }, () => random() * 10 - 5)
      const out = reduceInWasm(items, rows, d, axes, k, shifts)
      for (let r = 0; r < rows; r++) {
        for (let j = 0; j < k; j++) {
          let dot = 0
          let size = 0
          for (let q = 0; q < d; q++) {
            dot += items[r * d + q]! * axes[j * d + q]!
            size += Math.abs(items[r * d + q]! * axes[j * d + q]!)
          }
          expect(Math.abs(out[r * k + j]! - (dot - shifts[j]!)), `d ${d}, k ${k}, row ${r}, axis ${j}`).toBeLessThanOrEqual(size * 1e-13 + 1e-13)
        }
      }
    }
  })

  it('gives NaN for a row with a NaN or an infinite item, and only for that row', () => {
    const d = 9
    const items = new Float32Array(3 * d).fill(0.5)
    items[1 * d + 8] = Number.NaN // in the items past the last group of 4
    items[2 * d + 1] = Number.POSITIVE_INFINITY
    const axes = Float64Array.from({ length: 2 * d }, (_, i) => (i % 3) - 1)
    const out = reduceInWasm(items, 3, d, axes, 2, new Float64Array(2))
    expect(Number.isFinite(out[0]) && Number.isFinite(out[1])).toBe(true)
    expect(out[2]).toBeNaN()
    expect(Number.isFinite(out[4]!) && Number.isFinite(out[5]!)).toBe(false)
  })
})

describe('the UMAP worker', () => {
  let worker: UmapWorker | null = null
  afterEach(async () => {
    await worker?.close()
    worker = null
  })

  it('reduces rows in WebAssembly here, and a sample row placed again lands where the same vector lands every time', async () => {
    const d = 37
    const n = 300
    const random = seededRandom(9)
    const centres = [0, 1, 2].map(() => Array.from({ length: d }, () => (random() - 0.5) * 30))
    const sample = Float32Array.from({ length: n * d }, (_, i) => centres[Math.floor(i / d) % 3]![i % d]! + random() - 0.5)
    const rows = Float32Array.from(sample.subarray(0, 4 * d))
    worker = new UmapWorker({ dimension: d, k: 16, sample, rows: n, basisRows: 200, epochs: 20, neighbours: 10, seed: 1 })
    const fitted = await worker.fit()
    expect(fitted.engine).toBe('wasm')
    const place = async (values: Float32Array) => worker!.place(Float32Array.from(values), values.length / d, new Uint8Array(values.length / d))
    const first = await place(rows)
    const again = await place(rows)
    expect(Array.from(first.kind)).toEqual([0, 0, 0, 0])
    expect(Array.from(again.xy)).toEqual(Array.from(first.xy))
    // A NaN item leaves its row off (kind 1), the others placed as before.
    const withNaN = Float32Array.from(rows)
    withNaN[2 * d + 36] = Number.NaN
    const placed = await place(withNaN)
    expect(Array.from(placed.kind)).toEqual([0, 0, 1, 0])
    expect(placed.xy[0]).toBe(first.xy[0])
    expect(placed.xy[7]).toBe(first.xy[7])
  })
})
