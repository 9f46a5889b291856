/**
 * Two principal components of a sample of vectors (rows of `sample`, `dimension` each), by subspace iteration on
 * the centred sample: a full covariance at 768-d over a million rows (~6e11 flops) is out of reach in JS, while the
 * components of a few thousand rows spread over the table place the rest as well (clusters far apart in the
 * whole are far apart in an even sample). Deterministic: the start block comes from a fixed seed.
 */
export interface Components {
  dimension: number
  mean: Float64Array
  /** Unit vectors, most variance first. */
  axes: [Float64Array, Float64Array]
  /** Share of the sample's variance along each axis. */
  explained: [number, number]
}

const BLOCK = 4
// A block of 4 for 2 components converges as (λ5/λ2)^passes. Measured against an exact PCA (tests/core/map/pca.test.ts,
// 64-d, 2,048 rows): 8 passes leave the top-2 plane within 0.001° when variance falls as 1/k², 0.2° as 1/k, 2° when
// λ2/λ3 is only 1.23 (12 passes: 0°, 0.01°, 0.3°; 4 passes: 0.2°, 4°, 12°). Each pass is one sweep of the sample,
// 2 × rows × d × 4 multiply-adds.
const ITERATIONS = 8

export function fitComponents(sample: Float32Array, rows: number, dimension: number): Components {
  const { mean, axes, explained } = fitBasis(sample, rows, dimension, 2, { block: BLOCK, passes: ITERATIONS, seed: 0x9e3779b9 })
  const axis = (n: number) => Float64Array.from(axes.subarray(n * dimension, (n + 1) * dimension))
  return { dimension, mean, axes: [axis(0), axis(1)], explained }
}

/** How {@link fitBasis} iterates: the block it iterates (at least the axes asked for), the passes, the start's seed. */
export interface BasisOptions {
  block: number
  passes: number
  seed: number
  /** Called after each pass (1…passes) and after the rotation (passes + 1). */
  onStep?: (step: number) => void
  /** What the axes are summed into: Float32 for the UMAP worker (its reduction reads Float32), else Float64. */
  axesArray?: Float32ArrayConstructor | Float64ArrayConstructor
}

export interface Basis {
  mean: Float64Array
  /** The top `k` axes, row-major (k × d), most variance first; an axis past the block is all zeros. */
  axes: Float32Array | Float64Array
  /** Share of the sample's variance along the first two axes. */
  explained: [number, number]
}

/**
 * The top `k` principal axes of the first `rows` rows of `sample` (`d` each), by subspace iteration on the centred
 * sample: a block of `options.block` random vectors (fixed seed), `options.passes` multiplications by XᵀX, then
 * Rayleigh–Ritz inside the block. The one PCA of the map: {@link fitComponents} here, and the UMAP worker, which runs
 * this same code from its source text (basisSource.ts) — so this function and the helpers it calls use nothing but
 * each other and the language's globals.
 */
export function fitBasis(sample: Float32Array, rows: number, d: number, k: number, options: BasisOptions): Basis {
  const mean = new Float64Array(d)
  for (let r = 0; r < rows; r++) for (let q = 0; q < d; q++) mean[q]! += sample[r * d + q]!
  for (let q = 0; q < d; q++) mean[q]! /= Math.max(rows, 1)
  const centred = new Float64Array(rows * d)
  let total = 0
  for (let i = 0; i < rows * d; i++) {
    const v = sample[i]! - mean[i % d]!
    centred[i] = v
    total += v * v
  }
  const b = Math.min(options.block, d)
  let seed = options.seed
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 4294967296 - 0.5
  }
  let basis: Float64Array[] = orthonormalise(Array.from({ length: b }, () => Float64Array.from({ length: d }, random)))
  for (let pass = 0; pass < options.passes; pass++) {
    basis = orthonormalise(covarianceTimes(centred, rows, d, basis))
    options.onStep?.(pass + 1)
  }
  // Rayleigh–Ritz: the variance along each basis vector, and the rotation inside the block that diagonalises it.
  const z = project(centred, rows, d, basis)
  const t = z.map((a) => z.map((c) => dot(a, c)))
  const { values, vectors } = jacobi(t)
  const order = values.map((v, i) => [v, i] as const).sort((a, c) => c[0] - a[0])
  const axes = new (options.axesArray ?? Float64Array)(k * d)
  for (let n = 0; n < k && n < b; n++) {
    const i = order[n]![1]
    for (let j = 0; j < b; j++) for (let q = 0; q < d; q++) axes[n * d + q]! += basis[j]![q]! * vectors[j]![i]!
  }
  // A share of the total, so at most 1 (rounding could leave the top one a hair over it on rank-1 vectors).
  const share = (n: number) => (total > 0 ? Math.min(1, Math.max(0, order[n]?.[0] ?? 0) / total) : 0)
  options.onStep?.(options.passes + 1)
  return { mean, axes, explained: [share(0), share(1)] }
}

/**
 * Xᵀ X V for the centred sample X, one row at a time (the row's dots with the block, then the row added back
 * weighted by them): one sweep over the sample per pass. Four vectors of the block per loop over the row (four
 * accumulators, each item loaded once), not one: the fit runs before the scan can place anything. Every sum still
 * adds its terms in the order one vector at a time would.
 */
function covarianceTimes(x: Float64Array, rows: number, d: number, basis: Float64Array[]): Float64Array[] {
  const b = basis.length
  const out = basis.map(() => new Float64Array(d))
  const z = new Float64Array(b)
  for (let r = 0; r < rows; r++) {
    const o = r * d
    let j = 0
    for (; j + 3 < b; j += 4) {
      const v0 = basis[j]!
      const v1 = basis[j + 1]!
      const v2 = basis[j + 2]!
      const v3 = basis[j + 3]!
      let s0 = 0
      let s1 = 0
      let s2 = 0
      let s3 = 0
      for (let q = 0; q < d; q++) {
        const xv = x[o + q]!
        s0 += xv * v0[q]!
        s1 += xv * v1[q]!
        s2 += xv * v2[q]!
        s3 += xv * v3[q]!
      }
      z[j] = s0
      z[j + 1] = s1
      z[j + 2] = s2
      z[j + 3] = s3
    }
    for (; j < b; j++) {
      const v = basis[j]!
      let s = 0
      for (let q = 0; q < d; q++) s += x[o + q]! * v[q]!
      z[j] = s
    }
    j = 0
    for (; j + 3 < b; j += 4) {
      const w0 = out[j]!
      const w1 = out[j + 1]!
      const w2 = out[j + 2]!
      const w3 = out[j + 3]!
      const z0 = z[j]!
      const z1 = z[j + 1]!
      const z2 = z[j + 2]!
      const z3 = z[j + 3]!
      for (let q = 0; q < d; q++) {
        const xv = x[o + q]!
        w0[q]! += xv * z0
        w1[q]! += xv * z1
        w2[q]! += xv * z2
        w3[q]! += xv * z3
      }
    }
    for (; j < b; j++) {
      const w = out[j]!
      const zj = z[j]!
      for (let q = 0; q < d; q++) w[q]! += x[o + q]! * zj
    }
  }
  return out
}

/** The sample's coordinates along each basis vector (one array of `rows` per vector). */
function project(x: Float64Array, rows: number, d: number, basis: Float64Array[]): Float64Array[] {
  return basis.map((v) => {
    const out = new Float64Array(rows)
    for (let r = 0; r < rows; r++) {
      let s = 0
      for (let q = 0, o = r * d; q < d; q++) s += x[o + q]! * v[q]!
      out[r] = s
    }
    return out
  })
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/**
 * Gram–Schmidt, twice over (one pass leaves a vector that was nearly in the span of the earlier ones far from
 * orthogonal to them: on collinear or rank-1 vectors every vector of the block converges to the same direction, and
 * the Rayleigh–Ritz step then counted that direction's variance once per copy — "axes explain 199%"). A vector left
 * with under 1e-9 of its length is in that span to within rounding, and is dropped (all zeros).
 */
function orthonormalise(basis: Float64Array[]): Float64Array[] {
  for (let j = 0; j < basis.length; j++) {
    const v = basis[j]!
    const before = Math.sqrt(dot(v, v))
    for (let again = 0; again < 2; again++)
      for (let i = 0; i < j; i++) {
        const p = dot(v, basis[i]!)
        for (let k = 0; k < v.length; k++) v[k]! -= p * basis[i]![k]!
      }
    const n = Math.sqrt(dot(v, v))
    if (n > 1e-12 && n > before * 1e-9) for (let k = 0; k < v.length; k++) v[k]! /= n
    else v.fill(0)
  }
  return basis
}

/** Eigen-decomposition of a small symmetric matrix (cyclic Jacobi); `vectors[row][column]`, one column per value. */
export function jacobi(input: number[][]): { values: number[]; vectors: number[][] } {
  const n = input.length
  const a = input.map((row) => [...row])
  const v: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j): number => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p]![q]! ** 2
    if (off < 1e-20) break
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p]![q]!) < 1e-30) continue
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * a[p]![q]!)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!
          const akq = a[k]![q]!
          a[k]![p] = c * akp - s * akq
          a[k]![q] = s * akp + c * akq
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!
          const aqk = a[q]![k]!
          a[p]![k] = c * apk - s * aqk
          a[q]![k] = s * apk + c * aqk
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!
          const vkq = v[k]![q]!
          v[k]![p] = c * vkp - s * vkq
          v[k]![q] = s * vkp + c * vkq
        }
      }
  }
  return { values: a.map((row, i) => row[i]!), vectors: v }
}

/** The functions {@link fitBasis} calls, for the UMAP worker's copy of its source (basisSource.ts). */
export const FIT_BASIS_HELPERS: readonly ((...args: never[]) => unknown)[] = [covarianceTimes, project, dot, orthonormalise, jacobi]
