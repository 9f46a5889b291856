/**
 * UMAP's fuzzy graph for the UMAP worker (umapWorker.ts), as JavaScript source (a string, as basisSource.ts says
 * why). umap-js builds it as A + Aᵀ − A∘Aᵀ with sparse matrices keyed by "row:col" strings, seven whole-matrix
 * operations over them: 4–10 s for a 5,000-row sample on the development machine, more than the PCA, the
 * neighbours and the placing together. `fuzzyGraph(umap, n)` computes the same values in one pass over numeric
 * keys, with umap-js's own smoothing and membership strengths, and hands back an object with the few members
 * umap-js reads of its graph (getValues, map, getAll sorted by row then column, nRows, nCols). The entries are the
 * same keys with the same values, in the row-then-column order umap-js sorts them into, so the layout is the same
 * to the bit (checked in tests/core/map/umap.test.ts against umap-js's own graph).
 */
export const GRAPH_SOURCE = `
function graphOf(entries, n) {
  return {
    nRows: n,
    nCols: n,
    getValues: () => entries.map((e) => e.value),
    getAll: () => entries,
    map: (fn) => graphOf(entries.map((e) => ({ row: e.row, col: e.col, value: fn(e.value, e.row, e.col) })), n),
  }
}

function fuzzyGraph(umap, n) {
  const knnIndices = umap.knnIndices
  const knnDistances = umap.knnDistances
  const { sigmas, rhos } = umap.smoothKNNDistance(knnDistances, umap.nNeighbors, umap.localConnectivity)
  const { rows, cols, vals } = umap.computeMembershipStrengths(knnIndices, knnDistances, sigmas, rhos)
  // A, keyed row·n + column (a later entry of the same key replaces an earlier one, as in umap-js's matrix).
  const a = new Map()
  for (let i = 0; i < vals.length; i++) a.set(rows[i] * n + cols[i], vals[i])
  // The union of A's keys and Aᵀ's; each value as umap-js computes it: ((x + y) − x·y)·1 + x·y·0.
  const entries = []
  const put = (row, col, x, y) => entries.push({ row, col, value: (x + y - x * y) * 1.0 + x * y * 0.0 })
  for (const [key, x] of a) {
    const row = Math.floor(key / n), col = key - row * n
    put(row, col, x, a.get(col * n + row) ?? 0)
  }
  for (const [key, y] of a) {
    const col = Math.floor(key / n), row = key - col * n
    if (!a.has(row * n + col)) put(row, col, 0, y)
  }
  entries.sort((p, q) => p.row - q.row || p.col - q.col)
  return graphOf(entries, n)
}
`
