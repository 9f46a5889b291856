import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../src/core/arrow'
import { BASIS_PASSES, BASIS_SEED, BASIS_SOURCE, BASIS_STEPS } from '../../../src/core/map/basisSource'
import { fitBasis, fitComponents, jacobi } from '../../../src/core/map/pca'

const D = 64
const ROWS = 2048

/** Gaussian rows whose variance along D random orthogonal directions falls as `scale(k)²`: a known spectrum, a known top-2 plane. */
function spectrumSample(scale: (k: number) => number): Float32Array {
  const random = seededRandom(3)
  const gauss = () => {
    let s = 0
    for (let i = 0; i < 12; i++) s += random()
    return s - 6
  }
  const directions: Float64Array[] = []
  for (let i = 0; i < D; i++) {
    const v = Float64Array.from({ length: D }, gauss)
    for (const u of directions) {
      const p = dotOf(v, u)
      for (let k = 0; k < D; k++) v[k]! -= p * u[k]!
    }
    const n = Math.sqrt(dotOf(v, v))
    for (let k = 0; k < D; k++) v[k]! /= n
    directions.push(v)
  }
  const x = new Float32Array(ROWS * D)
  for (let r = 0; r < ROWS; r++)
    for (let i = 0; i < D; i++) {
      const c = gauss() * scale(i)
      for (let k = 0; k < D; k++) x[r * D + k]! += c * directions[i]![k]!
    }
  return x
}

function dotOf(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!
  return s
}

/** The top two eigenvectors of the sample's full covariance (Jacobi on D × D): the exact PCA. */
function exactTop2(x: Float32Array): number[][] {
  const mean = new Float64Array(D)
  for (let r = 0; r < ROWS; r++) for (let k = 0; k < D; k++) mean[k]! += x[r * D + k]! / ROWS
  const cov = Array.from({ length: D }, () => new Array<number>(D).fill(0))
  for (let r = 0; r < ROWS; r++)
    for (let i = 0; i < D; i++) {
      const xi = x[r * D + i]! - mean[i]!
      for (let j = 0; j < D; j++) cov[i]![j]! += xi * (x[r * D + j]! - mean[j]!)
    }
  const { values, vectors } = jacobi(cov)
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0])
  return [0, 1].map((n) => vectors.map((row) => row[order[n]![1]]!))
}

/** The largest principal angle (degrees) between two planes, each given by two orthonormal vectors. */
function planeAngle(a: ArrayLike<number>[], b: ArrayLike<number>[]): number {
  const [[p, q], [r, s]] = [0, 1].map((i) => [0, 1].map((j) => dotOf(a[i]!, b[j]!))) as [[number, number], [number, number]]
  const frob = p * p + q * q + r * r + s * s
  const det = Math.abs(p * s - q * r)
  const smallest = Math.sqrt(Math.max(0, (frob - Math.sqrt(Math.max(0, frob * frob - 4 * det * det))) / 2))
  return (Math.acos(Math.min(1, smallest)) * 180) / Math.PI
}

describe('PCA fit (subspace iteration on the sample)', () => {
  it.each([
    ['variance falling as 1/k²', (k: number) => 1 / (k + 1), 0.05],
    ['variance falling as 1/k', (k: number) => 1 / Math.sqrt(k + 1), 1],
  ])('finds the exact top-2 plane when %s', (_, scale, bound) => {
    const x = spectrumSample(scale)
    const fitted = fitComponents(x, ROWS, D)
    expect(planeAngle(fitted.axes, exactTop2(x))).toBeLessThan(bound)
    expect(Math.abs(dotOf(fitted.axes[0], fitted.axes[1]))).toBeLessThan(1e-9)
    expect(fitted.explained[0]).toBeGreaterThan(fitted.explained[1])
  })

  it.each([
    ['on one line (rank 1)', 1],
    ['in a plane (rank 2)', 2],
  ])('vectors %s: the axes are orthonormal or dropped, and explain at most all the variance', (_, rank) => {
    const random = seededRandom(5)
    const directions = Array.from({ length: rank }, () => Float64Array.from({ length: D }, () => random() - 0.5))
    const x = new Float32Array(ROWS * D)
    for (let r = 0; r < ROWS; r++) directions.forEach((v, i) => v.forEach((e, k) => (x[r * D + k]! += e * Math.sin(r * (i + 1.3)) * 10)))
    // A block of 12 as the UMAP worker fits: all but `rank` of its vectors converge onto the same directions.
    const fitted = fitBasis(x, ROWS, D, 8, { block: 12, passes: BASIS_PASSES, seed: BASIS_SEED })
    const axes = Array.from({ length: 8 }, (_, n) => fitted.axes.subarray(n * D, (n + 1) * D))
    for (const [i, a] of axes.entries()) {
      const norm = dotOf(a, a)
      expect(norm < 1e-12 || Math.abs(norm - 1) < 1e-9).toBe(true)
      for (const b of axes.slice(0, i)) expect(Math.abs(dotOf(a, b))).toBeLessThan(1e-9)
    }
    expect(fitted.explained[0] + fitted.explained[1]).toBeLessThanOrEqual(1 + 1e-12)
    expect(fitted.explained[0] + fitted.explained[1]).toBeCloseTo(1, 9)
  })

  it('a random plane is far from the exact one (the angle measure can fail)', () => {
    const x = spectrumSample((k) => 1 / (k + 1))
    const random = seededRandom(11)
    const a = Float64Array.from({ length: D }, () => random() - 0.5)
    const b = Float64Array.from({ length: D }, () => random() - 0.5)
    const na = Math.sqrt(dotOf(a, a))
    for (let k = 0; k < D; k++) a[k]! /= na
    const p = dotOf(a, b)
    for (let k = 0; k < D; k++) b[k]! -= p * a[k]!
    const nb = Math.sqrt(dotOf(b, b))
    for (let k = 0; k < D; k++) b[k]! /= nb
    expect(planeAngle([a, b], exactTop2(x))).toBeGreaterThan(30)
  })
})

describe("one PCA: the UMAP worker runs pca.ts's fitBasis from its source text", () => {
  type WorkerFit = (sample: Float32Array, rows: number, d: number, k: number, onStep: (step: number) => void) => { mean: Float32Array; axes: Float32Array; explained: number[] }

  /** The worker's `fitBasis`, from `BASIS_SOURCE` run in a context of its own (nothing of this module in reach). */
  function workerFit(source: string): WorkerFit {
    const context: Record<string, unknown> = {}
    runInNewContext(`${source}\nthis.fitBasis = fitBasis`, context)
    return context.fitBasis as WorkerFit
  }

  /** basisSource.ts as a bundler makes it: pca.ts inlined, names kept by `__name` (as tsx does) or minified. */
  async function bundledSource(options: { keepNames?: boolean; minify?: boolean }): Promise<string> {
    const { build } = await import('esbuild')
    const result = await build({ entryPoints: [join(__dirname, '../../../src/core/map/basisSource.ts')], write: false, bundle: true, platform: 'node', format: 'cjs', logLevel: 'silent', ...options })
    const module = { exports: {} as { BASIS_SOURCE?: string } }
    runInNewContext(result.outputFiles[0]!.text, { module, exports: module.exports })
    return module.exports.BASIS_SOURCE!
  }

  const x = spectrumSample((k) => 1 / Math.sqrt(k + 1))

  it.each([
    ['as loaded here', async () => BASIS_SOURCE],
    ['bundled with names kept (tsx, esbuild)', () => bundledSource({ keepNames: true })],
    ['bundled and minified', () => bundledSource({ minify: true })],
  ])('answers as fitBasis does, to the bit, %s', async (_, source) => {
    const steps: number[] = []
    const inWorker = workerFit(await source())(x, ROWS, D, 8, (step) => steps.push(step))
    const here = fitBasis(x, ROWS, D, 8, { block: 12, passes: BASIS_PASSES, seed: BASIS_SEED, axesArray: Float32Array })
    expect(Buffer.from(inWorker.axes.buffer).equals(Buffer.from(here.axes.buffer))).toBe(true)
    expect(Array.from(inWorker.mean)).toEqual(Array.from(Float32Array.from(here.mean)))
    expect(inWorker.explained).toEqual(here.explained)
    expect(steps).toEqual(Array.from({ length: BASIS_STEPS }, (_, i) => i + 1))
  })

  it('fitComponents is fitBasis for two axes', () => {
    const fitted = fitComponents(x, ROWS, D)
    const basis = fitBasis(x, ROWS, D, 2, { block: 4, passes: 8, seed: 0x9e3779b9 })
    expect([...fitted.axes[0], ...fitted.axes[1]]).toEqual([...basis.axes])
    expect(fitted.explained).toEqual(basis.explained)
  })
})
