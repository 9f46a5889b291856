import type { View } from './view'

/**
 * The map's points in data space, with a bucket grid for "which point is under the pointer". The x and y arrays
 * are the kept coordinates' own columns (views into the bytes that arrived, not copies), and the grid is built on
 * first use: the first paint needs only the bounds, one pass over the points.
 */
export class Points {
  readonly count: number
  readonly minX: number
  readonly maxX: number
  readonly minY: number
  readonly maxY: number
  private grid: { cells: Uint32Array; starts: Uint32Array } | null = null
  private static readonly GRID = 256

  constructor(
    readonly x: Float32Array,
    readonly y: Float32Array,
    /** Each point's row offset in the table. */
    readonly rows: Uint32Array,
  ) {
    this.count = rows.length
    let minX = Infinity
    let maxX = -Infinity
    let minY = Infinity
    let maxY = -Infinity
    for (let i = 0; i < this.count; i++) {
      const px = x[i]!
      const py = y[i]!
      if (px < minX) minX = px
      if (px > maxX) maxX = px
      if (py < minY) minY = py
      if (py > maxY) maxY = py
    }
    this.minX = this.count ? minX : 0
    this.maxX = this.count ? maxX : 1
    this.minY = this.count ? minY : 0
    this.maxY = this.count ? maxY : 1
  }

  /** Builds the bucket grid now (the map calls this when idle after its first frame, so the first hover is quick). */
  index(): void {
    if (this.grid) return
    // Counting sort of the points into grid cells: `starts[c]…starts[c+1]` index `cells`.
    const g = Points.GRID
    const cellOf = new Uint32Array(this.count)
    const counts = new Uint32Array(g * g + 1)
    for (let i = 0; i < this.count; i++) {
      const c = this.cell(this.x[i]!, this.y[i]!)
      cellOf[i] = c
      counts[c + 1]!++
    }
    for (let c = 0; c < g * g; c++) counts[c + 1]! += counts[c]!
    const starts = counts.slice()
    const cells = new Uint32Array(this.count)
    for (let i = 0; i < this.count; i++) cells[counts[cellOf[i]!]!++] = i
    this.grid = { cells, starts }
  }

  private cellXY(x: number, y: number): [number, number] {
    const g = Points.GRID
    const cx = Math.min(g - 1, Math.max(0, Math.floor(((x - this.minX) / (this.maxX - this.minX || 1)) * g)))
    const cy = Math.min(g - 1, Math.max(0, Math.floor(((y - this.minY) / (this.maxY - this.minY || 1)) * g)))
    return [cx, cy]
  }

  private cell(x: number, y: number): number {
    const [cx, cy] = this.cellXY(x, y)
    return cy * Points.GRID + cx
  }

  /** The view that shows every point, with a margin, on a canvas of this size (CSS pixels). */
  fit(width: number, height: number): View {
    const w = this.maxX - this.minX || 1
    const h = this.maxY - this.minY || 1
    return { cx: (this.minX + this.maxX) / 2, cy: (this.minY + this.maxY) / 2, scale: Math.min(width / w, height / h) * 0.9 }
  }

  /** The point nearest (x, y) within `radius` data units, or -1. */
  nearest(x: number, y: number, radius: number): number {
    this.index()
    const { cells, starts } = this.grid!
    const [x0, y0] = this.cellXY(x - radius, y - radius)
    const [x1, y1] = this.cellXY(x + radius, y + radius)
    let best = -1
    let bestD = radius * radius
    for (let cy = y0; cy <= y1; cy++)
      for (let cx = x0; cx <= x1; cx++) {
        const c = cy * Points.GRID + cx
        for (let k = starts[c]!; k < starts[c + 1]!; k++) {
          const i = cells[k]!
          const d = (this.x[i]! - x) ** 2 + (this.y[i]! - y) ** 2
          if (d <= bestD) {
            bestD = d
            best = i
          }
        }
      }
    return best
  }

  /** Points inside a polygon (data space), by the even–odd rule. */
  inside(polygon: [number, number][]): number[] {
    if (polygon.length < 3) return []
    let minX = Infinity
    let maxX = -Infinity
    let minY = Infinity
    let maxY = -Infinity
    for (const [x, y] of polygon) {
      minX = Math.min(minX, x)
      maxX = Math.max(maxX, x)
      minY = Math.min(minY, y)
      maxY = Math.max(maxY, y)
    }
    const out: number[] = []
    for (let i = 0; i < this.count; i++) {
      const x = this.x[i]!
      const y = this.y[i]!
      if (x < minX || x > maxX || y < minY || y > maxY) continue
      let hit = false
      for (let a = 0, b = polygon.length - 1; a < polygon.length; b = a++) {
        const [ax, ay] = polygon[a]!
        const [bx, by] = polygon[b]!
        if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) hit = !hit
      }
      if (hit) out.push(i)
    }
    return out
  }
}
