import type { View } from './scatter'

/**
 * The map's points as a density image made on the CPU (as datashader and embedding-atlas draw big scatters):
 * each point is binned to its canvas pixel by the view, a count per pixel (and, when coloured, sums of each
 * channel) is kept, every point is widened to a `size`×`size` footprint by a box sum of the counts (not by
 * writing each point's pixels), and each pixel's count becomes its alpha as if that many translucent points had
 * been blended there: 1 − (1 − a)ⁿ. So the picture matches the GL points it replaces (dense areas darker, a lone
 * point still `size` pixels), but a frame costs one pass over the points plus a few over the pixels — in headless
 * Chromium, whose WebGL is software (SwiftShader), drawing 1M GL points took over a second.
 *
 * No DOM here: the RGBA it returns is shown by {@link ./imageScatter.ts} (a texture on a quad) and tested in Node.
 */
export class DensityRaster {
  private width = 0
  private height = 0
  /** Footprint (device pixels) the buffers were sized for. */
  private size = 0
  /** Counts per cell of the padded grid (the canvas plus `size` cells each side: points just off the edge show). */
  private counts = new Uint32Array(0)
  /** Coloured only: per cell its count and last point's packed colour; then r, g, b, a × count per cell. */
  private cells = new Uint32Array(0)
  private sums = new Uint32Array(0)
  /** Box sums along x (a row of the canvas's width per grid row), reused by each filtered grid. */
  private across = new Uint32Array(0)
  /** Box-summed counts and channel sums per canvas pixel. */
  private near = new Uint32Array(0)
  private nearSums = new Uint32Array(0)
  private rgba: Uint8Array<ArrayBuffer> = new Uint8Array(0)

  /**
   * The image (RGBA, unpremultiplied, `width`×`height`, rows top to bottom as in an ImageData) of points `x`, `y` seen through `view` (`scale` in device pixels per data unit), each `size` device
   * pixels wide; coloured by `colours` (RGBA bytes per point) or all `plain`. The array is reused by the next call.
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
    if (colours) {
      // Per cell its count and the colour of its LAST point (as GL blending of near-opaque points shows the last
      // drawn), side by side: one cache line touched per point. Summing each channel per cell instead (four more
      // random writes per point into 4× the memory) took 3–5× as long at 1M points.
      const packed = colours.byteOffset % 4 === 0 ? new Uint32Array(colours.buffer, colours.byteOffset, n) : new Uint32Array(colours.slice(0, n * 4).buffer)
      binColoured(x, y, packed, n, s, left, top, gw, gh, this.cells)
      weigh(this.cells, counts, this.sums)
    } else {
      binPlain(x, y, n, s, left, top, gw, gh, counts)
    }
    this.boxSum(counts, this.near, f, 1)
    const out32 = new Uint32Array(this.rgba.buffer)
    if (!colours) {
      paintPlain(this.near, coverageTable(plain), out32)
      return this.rgba
    }
    this.boxSum(this.sums, this.nearSums, f, 4)
    paintColoured(this.near, this.nearSums, out32)
    return this.rgba
  }

  private resize(width: number, height: number, f: number, coloured: boolean): void {
    const grid = (width + 2 * f) * (height + 2 * f)
    if (width !== this.width || height !== this.height || f !== this.size) {
      this.width = width
      this.height = height
      this.size = f
      this.counts = new Uint32Array(grid)
      this.across = new Uint32Array(0)
      this.near = new Uint32Array(width * height)
      this.rgba = new Uint8Array(width * height * 4)
      this.cells = new Uint32Array(0)
      this.sums = new Uint32Array(0)
      this.nearSums = new Uint32Array(0)
    }
    if (coloured && this.sums.length === 0) {
      this.cells = new Uint32Array(grid * 2)
      this.sums = new Uint32Array(grid * 4)
      this.nearSums = new Uint32Array(width * height * 4)
    }
    const across = width * (height + 2 * f) * (coloured ? 4 : 1)
    if (this.across.length < across) this.across = new Uint32Array(across)
  }

  /**
   * `out[x, y]` = the sum of `grid` over the f×f cells whose points' footprints cover canvas pixel (x, y): a
   * point in cell (gx, gy) covers pixels gx − pad − lo … gx − pad − lo + f − 1 (lo = ⌊(f − 1) / 2⌋: a 3-pixel
   * point is centred on its pixel), and likewise in y. Two sliding-window passes, along rows then down the
   * columns a whole row at a time (memory in order); `stride` values per cell (1, or 4 for r, g, b, a).
   */
  private boxSum(grid: Uint32Array, out: Uint32Array, f: number, stride: number): void {
    const { width, height, across } = this
    const pad = f
    const gw = (width + 2 * pad) * stride
    const gh = height + 2 * pad
    const w = width * stride
    const lo = (f - 1) >> 1
    // Pixel x takes cells x + pad + lo − (f − 1) … x + pad + lo.
    const first = pad + lo - (f - 1)
    const from = first * stride
    const span = (f - 1) * stride
    for (let gy = 0; gy < gh; gy++) {
      const row = gy * gw + from
      const to = gy * w
      for (let ch = 0; ch < stride; ch++) {
        let sum = 0
        for (let k = 0; k < span; k += stride) sum += grid[row + ch + k]!
        for (let x = ch; x < w; x += stride) {
          sum += grid[row + x + span]!
          across[to + x] = sum
          sum -= grid[row + x]!
        }
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

/*
 * The per-point loops, each a small function of its own: V8 optimises a small hot loop fully within a few frames
 * (3 ms for 1M points in Node once optimised, against 10–17 ms while the loop sat inside render()).
 */

/** Counts per cell of the padded grid (`gw`×`gh`); points off it, and NaN (false in every comparison), skipped. */
function binPlain(x: Float32Array, y: Float32Array, n: number, s: number, left: number, top: number, gw: number, gh: number, counts: Uint32Array): void {
  counts.fill(0)
  for (let i = 0; i < n; i++) {
    const gx = x[i]! * s - left
    const gy = top - y[i]! * s
    if (gx >= 0 && gx < gw && gy >= 0 && gy < gh) counts[(gy | 0) * gw + (gx | 0)]!++
  }
}

/** Per cell, side by side: its count and its last point's packed colour. */
function binColoured(x: Float32Array, y: Float32Array, packed: Uint32Array, n: number, s: number, left: number, top: number, gw: number, gh: number, cells: Uint32Array): void {
  cells.fill(0)
  for (let i = 0; i < n; i++) {
    const gx = x[i]! * s - left
    const gy = top - y[i]! * s
    if (!(gx >= 0 && gx < gw && gy >= 0 && gy < gh)) continue
    const k = ((gy | 0) * gw + (gx | 0)) << 1
    cells[k]!++
    cells[k + 1] = packed[i]!
  }
}

/** Each cell's count, and its colour's channels times its count (so box sums give count-weighted mean colours). */
function weigh(cells: Uint32Array, counts: Uint32Array, sums: Uint32Array): void {
  for (let k = 0; k < counts.length; k++) {
    const c = cells[k << 1]!
    counts[k] = c
    const colour = cells[(k << 1) + 1]!
    const at = k << 2
    sums[at] = (colour & 255) * c
    sums[at + 1] = ((colour >>> 8) & 255) * c
    sums[at + 2] = ((colour >>> 16) & 255) * c
    sums[at + 3] = (colour >>> 24) * c
  }
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

/** The count-weighted mean colour of the cells over each pixel, with the coverage of c points of its alpha. */
function paintColoured(near: Uint32Array, sums: Uint32Array, out32: Uint32Array): void {
  for (let p = 0; p < near.length; p++) {
    const c = near[p]!
    if (c === 0) {
      out32[p] = 0
      continue
    }
    const q = p << 2
    const r = (sums[q]! / c + 0.5) | 0
    const g = (sums[q + 1]! / c + 0.5) | 0
    const b = (sums[q + 2]! / c + 0.5) | 0
    const mean = (sums[q + 3]! / c + 0.5) | 0
    const a = (255 * (1 - Math.exp(c * LOG_CLEAR[mean]!)) + 0.5) | 0
    out32[p] = ((a << 24) | (b << 16) | (g << 8) | r) >>> 0
  }
}

/** ln(1 − a/255) for each alpha byte: a pixel's coverage by c points of mean alpha a is 1 − exp(c · this). */
const LOG_CLEAR = Float64Array.from({ length: 256 }, (_, a) => Math.log(Math.max(1e-9, 1 - a / 255)))

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
