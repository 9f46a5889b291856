import type { HistogramBin } from '../../contract'

/** Values held back before the first bars are laid out (their range sets the first bar width). */
const WARMUP = 4096
/** Fine bars kept per requested bar: the bars shown are groups of them, fitted to the data's range at the end. */
const FINE_PER_BAR = 10
/** Mantissas of a shown bar's width (times a power of ten): round edges that read well. */
const NICE = [1, 2, 5]

/** 1, 2 or 5 times a power of ten, at least `raw` (bars with round edges read better and print exactly). */
function niceWidth(raw: number, integer: boolean): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= raw) ?? 10 * power
  return integer ? Math.max(1, Math.ceil(step)) : step
}

/** Whether `width` is one of {@link NICE} times a power of ten (to float precision). */
function isNice(width: number): boolean {
  const power = 10 ** Math.floor(Math.log10(width))
  return NICE.some((m) => Math.abs(width / power - m) < 1e-9)
}

/**
 * A histogram built in one pass without knowing the range first. Values are counted in fine bars on a grid
 * anchored at zero — bar `i` holds `[i * width, (i + 1) * width)` — that slides to follow the values and
 * doubles its width (merging neighbours, which the anchored grid keeps exact) only when the values seen span
 * more bars than it holds. The bars reported are groups of fine bars over the range the values cover, of a
 * round width (1, 2 or 5 times a power of ten, a multiple of the fine width) and at most `bins` of
 * them; the first starts at or below the minimum by less than a bar (never a bar of nothing below it), and
 * the last ends above the maximum by less than one. Every bar is half-open, `[lo, hi)`, with edges computed
 * one way (`index * width`) both when counting and when reporting, so the filter `col >= lo AND col < hi`
 * matches exactly the rows the bar counts. Values that are not finite are not counted in any bar.
 */
export class StreamingHistogram {
  private buffer: number[] | null = []
  private width = 1
  /** The grid index of `counts[0]`. */
  private first = 0
  private readonly counts: Float64Array
  /** Grid indices of the lowest and highest bars holding a value (low > high while empty). */
  private low = Infinity
  private high = -Infinity

  constructor(
    private readonly bins: number,
    private readonly integer: boolean,
  ) {
    this.counts = new Float64Array(bins * FINE_PER_BAR)
  }

  add(value: number): void {
    if (!Number.isFinite(value)) return
    if (this.buffer) {
      this.buffer.push(value)
      if (this.buffer.length >= WARMUP) this.layout()
      return
    }
    this.place(value)
  }

  result(): HistogramBin[] {
    if (this.buffer) {
      if (this.buffer.length === 0) return []
      this.layout()
    }
    if (this.low > this.high) return []
    const group = this.groupSize()
    const out: HistogramBin[] = []
    const firstGroup = Math.floor(this.low / group)
    const lastGroup = Math.floor(this.high / group)
    for (let g = firstGroup; g <= lastGroup; g++) {
      let count = 0
      for (let i = g * group; i < (g + 1) * group; i++) {
        const k = i - this.first
        if (k >= 0 && k < this.counts.length) count += this.counts[k]!
      }
      out.push({ lo: this.edge(g * group), hi: this.edge((g + 1) * group), count })
    }
    return out
  }

  /**
   * Fine bars per shown bar: the smallest whose width is round and whose bars over the values are at most `bins`
   * — unless that leaves fewer than half as many bars (after doublings the fine width is 2^j times a round one,
   * e.g. 800, whose next round multiple is 20,000): then the smallest that fits (8,000: edges are still multiples).
   */
  private groupSize(): number {
    const bars = (g: number) => Math.floor(this.high / g) - Math.floor(this.low / g) + 1
    let smallest = 1
    while (bars(smallest) > this.bins) smallest++
    for (let g = smallest; g <= smallest * 10; g++) if (bars(g) <= this.bins && isNice(g * this.width)) return bars(g) >= this.bins / 2 ? g : smallest
    return smallest
  }

  private edge(i: number): number {
    return i * this.width
  }

  private indexOf(value: number): number {
    let i = Math.floor(value / this.width)
    // The division may land one bar off at an edge; the edges themselves decide.
    if (value < this.edge(i)) i--
    else if (value >= this.edge(i + 1)) i++
    return i
  }

  private layout(): void {
    const values = this.buffer!
    this.buffer = null
    let min = Infinity
    let max = -Infinity
    for (const v of values) {
      if (v < min) min = v
      if (v > max) max = v
    }
    // The first values take half the fine bars, centred: room to slide or grow either way before doubling.
    const n = this.counts.length
    this.width = niceWidth((max - min) / (n / 2), this.integer)
    this.first = this.indexOf(min) - n / 4
    for (const v of values) this.place(v)
  }

  private place(value: number): void {
    const n = this.counts.length
    let i = this.indexOf(value)
    while (i < this.first || i >= this.first + n) {
      const low = Math.min(i, this.low)
      const high = Math.max(i, this.high)
      if (high - low + 1 <= n) this.slide(low - Math.floor((n - (high - low + 1)) / 2))
      else {
        this.double()
        i = this.indexOf(value)
      }
    }
    this.counts[i - this.first]!++
    if (i < this.low) this.low = i
    if (i > this.high) this.high = i
  }

  /** Move the window of fine bars to start at grid index `first` (every bar holding a value stays inside). */
  private slide(first: number): void {
    const old = this.counts.slice()
    this.counts.fill(0)
    for (let k = 0; k < old.length; k++) {
      if (old[k] === 0) continue
      this.counts[this.first + k - first] = old[k]!
    }
    this.first = first
  }

  /** Double the fine width: bar `i` becomes part of bar `floor(i / 2)` (the grid is anchored at zero, so exactly). */
  private double(): void {
    const old = this.counts.slice()
    const oldFirst = this.first
    this.counts.fill(0)
    this.width *= 2
    this.low = Math.floor(this.low / 2)
    this.high = Math.floor(this.high / 2)
    const n = this.counts.length
    // Centre what is held in the new window (only a window holding values is doubled).
    this.first = this.low - Math.floor((n - (this.high - this.low + 1)) / 2)
    for (let k = 0; k < old.length; k++) {
      if (old[k] === 0) continue
      this.counts[Math.floor((oldFirst + k) / 2) - this.first]! += old[k]!
    }
  }
}
