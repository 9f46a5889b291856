import type { View } from './view'

/**
 * The map's points as a density image made on the CPU (as datashader and embedding-atlas draw big scatters):
 * each point is binned to its canvas pixel by the view and a count per pixel is kept (when coloured, also the
 * colour of the pixel's last point: blending near-opaque points, as the GL points did, shows the last drawn);
 * every point is widened to a `size`×`size` footprint by a box sum of the counts (not by writing each point's
 * pixels), and each pixel's count becomes its alpha as if that many translucent points had been blended there:
 * 1 − (1 − a)ⁿ. So the picture matches the GL points it replaces (dense areas darker, a lone point still `size`
 * pixels), but a frame costs one pass over the points plus a few over the pixels — in headless Chromium, whose
 * WebGL is software (SwiftShader), drawing 1M GL points took over a second.
 *
 * No DOM here: the RGBA it returns is put on the map's canvas by densityCanvas.ts, and tested in Node.
 */
export class DensityRaster {
  private width = 0
  private height = 0
  /** Footprint (device pixels) the buffers were sized for. */
  private size = 0
  /** Counts per cell of the padded grid (the canvas plus `size` cells each side: points just off the edge show). */
  private counts = new Uint32Array(0)
  /** Coloured only: per cell, side by side, its count and its last point's packed colour. */
  private cells = new Uint32Array(0)
  /** Box sums along x (a row of the canvas's width per grid row). */
  private across = new Uint32Array(0)
  /** Box-summed counts per canvas pixel: how many points' footprints cover it. */
  private near = new Uint32Array(0)
  private rgba: Uint8Array<ArrayBuffer> = new Uint8Array(0)

  /**
   * The image (RGBA, unpremultiplied, `width`×`height`, rows top to bottom as in an ImageData) of points `x`, `y`
   * seen through `view` (`scale` in device pixels per data unit), each `size` device pixels wide; coloured by
   * `colours` (RGBA bytes per point) or all `plain`. The array is reused by the next call.
   */
  render(
    x: Float32Array,
    y: Float32Array,
    colours: Uint8Array | null,
    plain: readonly [number, number, number, number],
    view: View,
    width: number,
    height: number,
    size: number,
  ): Uint8Array<ArrayBuffer> {
    const f = Math.max(1, Math.round(size))
    this.resize(width, height, f, colours !== null)
    const pad = f
    const gw = width + 2 * pad
    const gh = height + 2 * pad
    const { counts } = this
    // Grid cell of a point: its canvas pixel (x right, y down: data y grows upwards on screen) plus the padding,
    // i.e. x·s − left, top − y·s, with the grid's left and top edges in pixels of data space:
    const s = view.scale
    const n = Math.min(x.length, y.length)
    const left = view.cx * s - width / 2 - pad
    const top = view.cy * s + height / 2 + pad
    const out32 = new Uint32Array(this.rgba.buffer)
    if (!colours) {
      binPlain(x, y, n, s, left, top, gw, gh, counts)
      this.boxSum(counts, this.near, f)
      paintPlain(this.near, coverageTable(plain), out32)
      return this.rgba
    }
    // Count and last colour side by side: one cache line touched per point. Summing each channel per cell
    // instead (a mean colour; four more random writes per point into 4× the memory, then four more box sums)
    // made a coloured frame 2–3× as long as a plain one at 1M points.
    const packed = colours.byteOffset % 4 === 0 ? new Uint32Array(colours.buffer, colours.byteOffset, n) : new Uint32Array(colours.slice(0, n * 4).buffer)
    binColoured(x, y, packed, n, s, left, top, gw, gh, this.cells)
    unzipCounts(this.cells, counts)
    this.boxSum(counts, this.near, f)
    paintColoured(this.near, this.cells, out32, width, height, f)
    return this.rgba
  }

  private resize(width: number, height: number, f: number, coloured: boolean): void {
    const grid = (width + 2 * f) * (height + 2 * f)
    if (width !== this.width || height !== this.height || f !== this.size) {
      this.width = width
      this.height = height
      this.size = f
      this.counts = new Uint32Array(grid)
      this.cells = new Uint32Array(0)
      this.across = new Uint32Array(width * (height + 2 * f))
      this.near = new Uint32Array(width * height)
      this.rgba = new Uint8Array(width * height * 4)
    }
    if (coloured && this.cells.length === 0) this.cells = new Uint32Array(grid * 2)
  }

  /**
   * `out[x, y]` = the sum of `grid` over the f×f cells whose points' footprints cover canvas pixel (x, y): a
   * point in cell (gx, gy) covers pixels gx − pad − lo … gx − pad − lo + f − 1 (lo = ⌊(f − 1) / 2⌋: a 3-pixel
   * point is centred on its pixel), and likewise in y. Two sliding-window passes, along rows then down the
   * columns a whole row at a time (memory in order).
   */
  private boxSum(grid: Uint32Array, out: Uint32Array, f: number): void {
    const { width: w, height, across } = this
    const gw = w + 2 * f
    const gh = height + 2 * f
    // Pixel x takes cells x + first … x + first + f − 1.
    const first = firstCell(f)
    for (let gy = 0; gy < gh; gy++) {
      const row = gy * gw + first
      const to = gy * w
      let sum = 0
      for (let k = 0; k < f - 1; k++) sum += grid[row + k]!
      for (let x = 0; x < w; x++) {
        sum += grid[row + x + f - 1]!
        across[to + x] = sum
        sum -= grid[row + x]!
      }
    }
    // Output row 0 is the sum of across rows first … first + f − 1; each next row adds one and drops one.
    out.fill(0, 0, w)
    for (let k = 0; k < f; k++) {
      const a = (first + k) * w
      for (let x = 0; x < w; x++) out[x]! += across[a + x]!
    }
    for (let y = 1; y < height; y++) {
      const o = y * w
      const prev = o - w
      const add = (first + y + f - 1) * w
      const drop = (first + y - 1) * w
      for (let x = 0; x < w; x++) out[o + x] = out[prev + x]! + across[add + x]! - across[drop + x]!
    }
  }
}

/** The first grid cell (per axis, padding included) whose point's `f`-pixel footprint covers pixel 0. */
function firstCell(f: number): number {
  const lo = (f - 1) >> 1
  return f + lo - (f - 1)
}

/*
 * The per-point loops, each a small function of its own (V8 optimises a small hot loop fully within a few frames)
 * and four points a step: four independent increments in flight instead of one waiting on the last (1M points in
 * Node: 9.8 ms one a step, 6.2 two, 5.7 four). Points are handled in order, so a cell's last colour is its last point's.
 */

/** Counts per cell of the padded grid (`gw`×`gh`); points off it, and NaN (false in every comparison), skipped. */
function binPlain(x: Float32Array, y: Float32Array, n: number, s: number, left: number, top: number, gw: number, gh: number, counts: Uint32Array): void {
  counts.fill(0)
  const m = n & ~3
  for (let i = 0; i < m; i += 4) {
    const ax = x[i]! * s - left
    const ay = top - y[i]! * s
    const bx = x[i + 1]! * s - left
    const by = top - y[i + 1]! * s
    const cx = x[i + 2]! * s - left
    const cy = top - y[i + 2]! * s
    const dx = x[i + 3]! * s - left
    const dy = top - y[i + 3]! * s
    if (ax >= 0 && ax < gw && ay >= 0 && ay < gh) counts[(ay | 0) * gw + (ax | 0)]!++
    if (bx >= 0 && bx < gw && by >= 0 && by < gh) counts[(by | 0) * gw + (bx | 0)]!++
    if (cx >= 0 && cx < gw && cy >= 0 && cy < gh) counts[(cy | 0) * gw + (cx | 0)]!++
    if (dx >= 0 && dx < gw && dy >= 0 && dy < gh) counts[(dy | 0) * gw + (dx | 0)]!++
  }
  for (let i = m; i < n; i++) {
    const gx = x[i]! * s - left
    const gy = top - y[i]! * s
    if (gx >= 0 && gx < gw && gy >= 0 && gy < gh) counts[(gy | 0) * gw + (gx | 0)]!++
  }
}

/** Per cell, side by side: its count and its last point's packed colour. */
function binColoured(x: Float32Array, y: Float32Array, packed: Uint32Array, n: number, s: number, left: number, top: number, gw: number, gh: number, cells: Uint32Array): void {
  cells.fill(0)
  const m = n & ~3
  for (let i = 0; i < m; i += 4) {
    const ax = x[i]! * s - left
    const ay = top - y[i]! * s
    const bx = x[i + 1]! * s - left
    const by = top - y[i + 1]! * s
    const cx = x[i + 2]! * s - left
    const cy = top - y[i + 2]! * s
    const dx = x[i + 3]! * s - left
    const dy = top - y[i + 3]! * s
    if (ax >= 0 && ax < gw && ay >= 0 && ay < gh) {
      const k = ((ay | 0) * gw + (ax | 0)) << 1
      cells[k]!++
      cells[k + 1] = packed[i]!
    }
    if (bx >= 0 && bx < gw && by >= 0 && by < gh) {
      const k = ((by | 0) * gw + (bx | 0)) << 1
      cells[k]!++
      cells[k + 1] = packed[i + 1]!
    }
    if (cx >= 0 && cx < gw && cy >= 0 && cy < gh) {
      const k = ((cy | 0) * gw + (cx | 0)) << 1
      cells[k]!++
      cells[k + 1] = packed[i + 2]!
    }
    if (dx >= 0 && dx < gw && dy >= 0 && dy < gh) {
      const k = ((dy | 0) * gw + (dx | 0)) << 1
      cells[k]!++
      cells[k + 1] = packed[i + 3]!
    }
  }
  for (let i = m; i < n; i++) {
    const gx = x[i]! * s - left
    const gy = top - y[i]! * s
    if (!(gx >= 0 && gx < gw && gy >= 0 && gy < gh)) continue
    const k = ((gy | 0) * gw + (gx | 0)) << 1
    cells[k]!++
    cells[k + 1] = packed[i]!
  }
}

function unzipCounts(cells: Uint32Array, counts: Uint32Array): void {
  for (let k = 0; k < counts.length; k++) counts[k] = cells[k << 1]!
}

/**
 * One packed pixel per count (RGBA bytes read as a little-endian word, as on every platform Chromium runs on),
 * counts past the table drawn as its last entry.
 */
function paintPlain(near: Uint32Array, table: Uint32Array, out32: Uint32Array): void {
  const last = table.length - 1
  for (let p = 0; p < near.length; p++) {
    const c = near[p]!
    out32[p] = table[c > last ? last : c]!
  }
}

/**
 * Each covered pixel in the colour of the cell its footprint is centred on, or where that cell is empty (a pixel
 * at a footprint's edge) of the fullest cell covering it; its alpha the coverage of all the points over it.
 */
function paintColoured(near: Uint32Array, cells: Uint32Array, out32: Uint32Array, width: number, height: number, f: number): void {
  const gw = width + 2 * f
  const first = firstCell(f)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = y * width + x
      const c = near[p]!
      if (c === 0) {
        out32[p] = 0
        continue
      }
      let k = ((y + f) * gw + x + f) << 1
      if (cells[k] === 0) {
        let most = 0
        for (let gy = y + first; gy < y + first + f; gy++)
          for (let gx = x + first; gx < x + first + f; gx++) {
            const at = (gy * gw + gx) << 1
            if (cells[at]! > most) {
              most = cells[at]!
              k = at
            }
          }
      }
      const colour = cells[k + 1]!
      out32[p] = ((colour & 0xffffff) | (COVERAGE[((colour >>> 24) << 6) | (c > 63 ? 63 : c)]! << 24)) >>> 0
    }
  }
}

/** Alpha (a byte) of n points of alpha a blended, 1 − (1 − a)ⁿ, at [a · 64 + min(n, 63)]: 63 points of any visible alpha are near opaque. */
const COVERAGE = Uint8Array.from({ length: 256 * 64 }, (_, i) => Math.round(255 * (1 - Math.pow(1 - (i >> 6) / 255, i & 63))))

const tables = new Map<string, Uint32Array>()

/** Packed RGBA for 0…n overlapping points of one colour: alpha 1 − (1 − a)ⁿ, until it is opaque to the byte. */
function coverageTable(colour: readonly [number, number, number, number]): Uint32Array {
  const key = colour.join(',')
  let table = tables.get(key)
  if (table) return table
  const [r, g, b, a] = colour
  const values = [0]
  for (let n = 1; n < 4096; n++) {
    const alpha = Math.round(255 * (1 - Math.pow(1 - a / 255, n)))
    values.push(((alpha << 24) | (b << 16) | (g << 8) | r) >>> 0)
    // Opaque, or no longer changing (a fully transparent colour never is).
    if (alpha === 255 || values[n] === values[n - 1]) break
  }
  table = Uint32Array.from(values)
  tables.set(key, table)
  return table
}
