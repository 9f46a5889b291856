/**
 * The k-d PCA a UMAP map finds neighbours in, as JavaScript source for the UMAP worker (umapWorker.ts), so the fit
 * runs off the main thread. It is a string because the worker runs from one (`eval: true`, no second entry file in
 * the bundle), and a compiled function's `toString()` is not safe to send: tsx and esbuild wrap inner functions in
 * helpers (`__name`) the worker does not have. `jacobi` is pca.ts's, in plain JavaScript.
 *
 * `fitBasis(sample, rows, d, k, onStep)`: the top `k` principal axes of the first `rows` rows of `sample`, by subspace
 * iteration (as pca.ts does for two): a block of k + 4, {@link BASIS_PASSES} passes, then Rayleigh–Ritz; `onStep(i)`
 * after each pass and after the rotation. Returns `{ mean, axes, explained }`: axes row-major (k × d) as Float32,
 * `explained` the share of the sample's variance along the first two.
 */
export const BASIS_PASSES = 6
/** Steps `fitBasis` reports: the passes and the Rayleigh–Ritz rotation. */
export const BASIS_STEPS = BASIS_PASSES + 1

export const BASIS_SOURCE = `
function orthonormalise(basis) {
  for (let j = 0; j < basis.length; j++) {
    const v = basis[j]
    for (let i = 0; i < j; i++) {
      const u = basis[i]
      let p = 0
      for (let q = 0; q < v.length; q++) p += v[q] * u[q]
      for (let q = 0; q < v.length; q++) v[q] -= p * u[q]
    }
    let norm = 0
    for (let q = 0; q < v.length; q++) norm += v[q] * v[q]
    norm = Math.sqrt(norm)
    if (norm > 1e-12) for (let q = 0; q < v.length; q++) v[q] /= norm
    else v.fill(0)
  }
  return basis
}

function jacobi(input) {
  const n = input.length
  const a = input.map((row) => [...row])
  const v = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p][q] ** 2
    if (off < 1e-20) break
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        if (Math.abs(a[p][q]) < 1e-30) continue
        const theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) { const akp = a[k][p], akq = a[k][q]; a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq }
        for (let k = 0; k < n; k++) { const apk = a[p][k], aqk = a[q][k]; a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk }
        for (let k = 0; k < n; k++) { const vkp = v[k][p], vkq = v[k][q]; v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq }
      }
  }
  return { values: a.map((row, i) => row[i]), vectors: v }
}

function fitBasis(sample, rows, d, k, onStep) {
  const mean = new Float64Array(d)
  for (let r = 0; r < rows; r++) for (let q = 0; q < d; q++) mean[q] += sample[r * d + q]
  for (let q = 0; q < d; q++) mean[q] /= Math.max(rows, 1)
  const x = new Float64Array(rows * d)
  let total = 0
  for (let i = 0; i < rows * d; i++) {
    const v = sample[i] - mean[i % d]
    x[i] = v
    total += v * v
  }
  const b = Math.min(k + 4, d)
  let seed = 0x2545f491
  const random = () => {
    seed = (seed * 1664525 + 1013904223) >>> 0
    return seed / 4294967296 - 0.5
  }
  let basis = orthonormalise(Array.from({ length: b }, () => Float64Array.from({ length: d }, random)))
  const z = new Float64Array(b)
  for (let pass = 0; pass < ${BASIS_PASSES}; pass++) {
    const out = basis.map(() => new Float64Array(d))
    for (let r = 0; r < rows; r++) {
      const o = r * d
      // Four vectors of the block per sweep of the row (each item loaded once for four sums); every sum adds its
      // terms in the same order as one vector at a time would.
      let j = 0
      for (; j + 3 < b; j += 4) {
        const v0 = basis[j], v1 = basis[j + 1], v2 = basis[j + 2], v3 = basis[j + 3]
        let s0 = 0, s1 = 0, s2 = 0, s3 = 0
        for (let q = 0; q < d; q++) { const xv = x[o + q]; s0 += xv * v0[q]; s1 += xv * v1[q]; s2 += xv * v2[q]; s3 += xv * v3[q] }
        z[j] = s0; z[j + 1] = s1; z[j + 2] = s2; z[j + 3] = s3
      }
      for (; j < b; j++) {
        let s = 0
        const v = basis[j]
        for (let q = 0; q < d; q++) s += x[o + q] * v[q]
        z[j] = s
      }
      j = 0
      for (; j + 3 < b; j += 4) {
        const w0 = out[j], w1 = out[j + 1], w2 = out[j + 2], w3 = out[j + 3]
        const z0 = z[j], z1 = z[j + 1], z2 = z[j + 2], z3 = z[j + 3]
        for (let q = 0; q < d; q++) { const xv = x[o + q]; w0[q] += xv * z0; w1[q] += xv * z1; w2[q] += xv * z2; w3[q] += xv * z3 }
      }
      for (; j < b; j++) {
        const w = out[j]
        const zj = z[j]
        for (let q = 0; q < d; q++) w[q] += x[o + q] * zj
      }
    }
    basis = orthonormalise(out)
    onStep(pass + 1)
  }
  // Rayleigh–Ritz inside the block: the rotation that orders the axes by variance.
  const proj = basis.map((v) => {
    const p = new Float64Array(rows)
    for (let r = 0; r < rows; r++) {
      let s = 0
      for (let q = 0; q < d; q++) s += x[r * d + q] * v[q]
      p[r] = s
    }
    return p
  })
  const t = proj.map((a) => proj.map((c) => a.reduce((s, v, i) => s + v * c[i], 0)))
  const { values, vectors } = jacobi(t)
  const order = values.map((v, i) => [v, i]).sort((a, c) => c[0] - a[0])
  const axes = new Float32Array(k * d)
  for (let n = 0; n < k; n++) {
    const i = order[n][1]
    for (let j = 0; j < b; j++) for (let q = 0; q < d; q++) axes[n * d + q] += basis[j][q] * vectors[j][i]
  }
  const share = (n) => (total > 0 ? Math.max(0, order[n] ? order[n][0] : 0) / total : 0)
  onStep(${BASIS_STEPS})
  return { mean: Float32Array.from(mean), axes, explained: [share(0), share(1)] }
}
`
