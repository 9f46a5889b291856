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
  const d = dimension
  const mean = new Float64Array(d)
  for (let r = 0; r < rows; r++) for (let k = 0; k < d; k++) mean[k]! += sample[r * d + k]!
  for (let k = 0; k < d; k++) mean[k]! /= Math.max(rows, 1)
  const centred = new Float64Array(rows * d)
  let total = 0
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < d; k++) {
      const v = sample[r * d + k]! - mean[k]!
      centred[r * d + k] = v
      total += v * v
    }
  const b = Math.min(BLOCK, d)
  let seed = 0x9e3779b9
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 2 ** 32 - 0.5
  }
  let basis: Float64Array[] = Array.from({ length: b }, () => Float64Array.from({ length: d }, random))
  orthonormalise(basis)
  for (let it = 0; it < ITERATIONS; it++) basis = orthonormalise(covarianceTimes(centred, rows, d, basis))
  // Rayleigh–Ritz: the variance along each basis vector, and the rotation inside the block that diagonalises it.
  const z = Array.from({ length: b }, () => new Float64Array(rows))
  multiply(centred, rows, d, basis, z)
  const t = Array.from({ length: b }, (_, i) => Array.from({ length: b }, (_, j) => dot(z[i]!, z[j]!)))
  const { values, vectors } = jacobi(t)
  const order = values.map((v, i) => [v, i] as const).sort((a, c) => c[0] - a[0])
  const axis = (n: number) => {
    const i = order[n]![1]
    const out = new Float64Array(d)
    for (let j = 0; j < b; j++) for (let k = 0; k < d; k++) out[k]! += basis[j]![k]! * vectors[j]![i]!
    return out
  }
  const share = (n: number) => (total > 0 ? Math.max(0, order[n]?.[0] ?? 0) / total : 0)
  const axes: [Float64Array, Float64Array] = [axis(0), b > 1 ? axis(1) : new Float64Array(d)]
  return { dimension: d, mean, axes, explained: [share(0), share(1)] }
}

/**
 * Xᵀ X V for the centred sample X, one row at a time (the row's dots with the block, then the row added back
 * weighted by them): one sweep over the sample per pass. A block of 4 is read in one loop per row (four
 * accumulators, each item loaded once), not four: the fit runs before the scan can place anything.
 */
function covarianceTimes(x: Float64Array, rows: number, d: number, basis: Float64Array[]): Float64Array[] {
  if (basis.length !== 4) return covarianceTimesAny(x, rows, d, basis)
  const [v0, v1, v2, v3] = basis as [Float64Array, Float64Array, Float64Array, Float64Array]
  const w0 = new Float64Array(d)
  const w1 = new Float64Array(d)
  const w2 = new Float64Array(d)
  const w3 = new Float64Array(d)
  for (let r = 0; r < rows; r++) {
    const o = r * d
    let z0 = 0
    let z1 = 0
    let z2 = 0
    let z3 = 0
    for (let k = 0; k < d; k++) {
      const v = x[o + k]!
      z0 += v * v0[k]!
      z1 += v * v1[k]!
      z2 += v * v2[k]!
      z3 += v * v3[k]!
    }
    for (let k = 0; k < d; k++) {
      const v = x[o + k]!
      w0[k]! += v * z0
      w1[k]! += v * z1
      w2[k]! += v * z2
      w3[k]! += v * z3
    }
  }
  return [w0, w1, w2, w3]
}

/** {@link covarianceTimes} for a block of another size (a dimension under 4). */
function covarianceTimesAny(x: Float64Array, rows: number, d: number, basis: Float64Array[]): Float64Array[] {
  const b = basis.length
  const out = basis.map(() => new Float64Array(d))
  const z = new Float64Array(b)
  for (let r = 0; r < rows; r++) {
    const o = r * d
    for (let j = 0; j < b; j++) {
      const v = basis[j]!
      let s = 0
      for (let k = 0; k < d; k++) s += x[o + k]! * v[k]!
      z[j] = s
    }
    for (let j = 0; j < b; j++) {
      const zj = z[j]!
      if (zj === 0) continue
      const w = out[j]!
      for (let k = 0; k < d; k++) w[k]! += x[o + k]! * zj
    }
  }
  return out
}

function multiply(x: Float64Array, rows: number, d: number, basis: Float64Array[], z: Float64Array[]): void {
  for (let j = 0; j < basis.length; j++) {
    const v = basis[j]!
    const out = z[j]!
    for (let r = 0; r < rows; r++) {
      let s = 0
      for (let k = 0, o = r * d; k < d; k++) s += x[o + k]! * v[k]!
      out[r] = s
    }
  }
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

function orthonormalise(basis: Float64Array[]): Float64Array[] {
  for (let j = 0; j < basis.length; j++) {
    const v = basis[j]!
    for (let i = 0; i < j; i++) {
      const p = dot(v, basis[i]!)
      for (let k = 0; k < v.length; k++) v[k]! -= p * basis[i]![k]!
    }
    const n = Math.sqrt(dot(v, v))
    if (n > 1e-12) for (let k = 0; k < v.length; k++) v[k]! /= n
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
