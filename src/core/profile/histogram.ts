import type { HistogramBin } from '../../contract'

/** Values held back before the first bars are laid out (their range sets the first bar width). */
const WARMUP = 4096

/** 1, 2 or 5 times a power of ten, at least `raw` (bars with round edges read better and print exactly). */
function niceWidth(raw: number, integer: boolean): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 5, 10].map((m) => m * power).find((w) => w >= raw) ?? 10 * power
  return integer ? Math.max(1, Math.ceil(step)) : step
}

/**
 * A histogram built in one pass without knowing the range first: a fixed number of equal bars that
 * double their width (merging neighbours) whenever a value falls outside. Every bar is half-open,
 * `[lo, hi)`, with edges computed one way (`lo + i * width`) both when counting and when reporting, so
 * the filter `col >= lo AND col < hi` matches exactly the rows the bar counts.
 */
export class StreamingHistogram {
  private buffer: number[] | null = []
  private lo = 0
  private width = 1
  private counts: number[]

  constructor(
    private readonly bins: number,
    private readonly integer: boolean,
  ) {
    // Doubling merges pairs of bars, so the count must be even.
    this.counts = new Array<number>(bins + (bins % 2)).fill(0)
  }

  add(value: number): void {
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
    const n = this.counts.length
    let first = 0
    let last = n - 1
    while (first < n && this.counts[first] === 0) first++
    while (last > first && this.counts[last] === 0) last--
    const out: HistogramBin[] = []
    for (let i = first; i <= last; i++) out.push({ lo: this.edge(i), hi: this.edge(i + 1), count: this.counts[i]! })
    return out
  }

  private edge(i: number): number {
    return this.lo + i * this.width
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
    const n = this.counts.length
    this.width = niceWidth((max - min) / n, this.integer)
    this.lo = Math.floor(min / this.width) * this.width
    for (const v of values) this.place(v)
  }

  private place(value: number): void {
    const n = this.counts.length
    while (value < this.lo) this.grow(true)
    while (value >= this.edge(n)) this.grow(false)
    let i = Math.min(n - 1, Math.max(0, Math.floor((value - this.lo) / this.width)))
    // The division may land one bar off at an edge; the edges themselves decide.
    if (value < this.edge(i) && i > 0) i--
    else if (value >= this.edge(i + 1) && i < n - 1) i++
    this.counts[i]!++
  }

  /** Double the bar width: the current range becomes the lower half (growing up) or the upper half (down). */
  private grow(down: boolean): void {
    const n = this.counts.length
    const merged = new Array<number>(n).fill(0)
    const offset = down ? n / 2 : 0
    for (let i = 0; i < n / 2; i++) merged[offset + i] = this.counts[2 * i]! + this.counts[2 * i + 1]!
    if (down) this.lo -= n * this.width
    this.width *= 2
    this.counts = merged
  }
}
