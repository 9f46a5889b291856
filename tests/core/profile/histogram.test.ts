import { describe, expect, it } from 'vitest'
import { DistinctCounter, TEXT_CHARACTERS_LIMIT } from '../../../src/core/profile/distinct'
import { exactDistinctLimit } from '../../../src/core/profile/columns'
import { StreamingHistogram } from '../../../src/core/profile/histogram'

/** Each bar holds exactly the values in its half-open range, and the bars hold every value. */
function expectExact(values: number[], bins: { lo: number; hi: number; count: number }[]) {
  expect(bins.reduce((s, b) => s + b.count, 0)).toBe(values.length)
  for (const bin of bins) expect(bin.count).toBe(values.filter((v) => v >= bin.lo && v < bin.hi).length)
  for (let i = 1; i < bins.length; i++) expect(bins[i]!.lo).toBe(bins[i - 1]!.hi)
}

describe('streaming histogram', () => {
  it('widens downwards and upwards as values arrive outside its range, keeping every bar exact', () => {
    // The first values set a narrow range; later ones fall far below and far above it.
    const values = [...Array.from({ length: 5000 }, (_, i) => 1000 + (i % 100)), ...Array.from({ length: 3000 }, (_, i) => -i * 7), ...Array.from({ length: 3000 }, (_, i) => 5000 + i * 13)]
    const histogram = new StreamingHistogram(20, true)
    for (const v of values) histogram.add(v)
    const bins = histogram.result()
    expect(bins.length).toBeLessThanOrEqual(20)
    expectExact(values, bins)
  })

  it('floats with round edges; a constant column is one bar; no values, no bars', () => {
    const values = Array.from({ length: 9000 }, (_, i) => Math.sin(i) * 3.3)
    const histogram = new StreamingHistogram(20, false)
    for (const v of values) histogram.add(v)
    expectExact(values, histogram.result())

    const constant = new StreamingHistogram(20, false)
    for (let i = 0; i < 10; i++) constant.add(2.5)
    expect(constant.result()).toEqual([{ lo: 2, hi: 3, count: 10 }])
    expect(new StreamingHistogram(20, true).result()).toEqual([])
  })
})

describe('distinct counter', () => {
  it('is exact up to its limit, then an estimate within a few percent, with top counts as lower bounds', () => {
    const small = new DistinctCounter(1000, true)
    for (let i = 0; i < 5000; i++) small.add(`v${i % 300}`)
    expect(small.distinct()).toEqual({ count: 300, exact: true, limit: 1000 })
    expect(small.topValues(1)).toEqual({ values: [{ value: 'v0', count: 17, exact: true }], exact: true })

    const large = new DistinctCounter(1000, true)
    for (let i = 0; i < 100_000; i++) large.add(i % 10 === 0 ? 'common' : i)
    const distinct = large.distinct()
    expect(distinct.exact).toBe(false)
    expect(Math.abs(distinct.count - 90_001) / 90_001).toBeLessThan(0.03)
    const top = large.topValues(1)
    expect(top.exact).toBe(false)
    // 'common' was counted from its first row and never dropped from the kept values: its count is exact.
    expect(top.values[0]).toEqual({ value: 'common', count: 10_000, exact: true })
  })

  it('past the limit, a value dropped from the kept top values and counted again is a lower bound; one never dropped is exact', () => {
    const counter = new DistinctCounter(1000, true)
    // 'early' counted 45 times from the first rows; 'late' once among 20,000 unique values (dropped as they are
    // pruned: the kept are the 5,000 most frequent), then 50 times at the end.
    for (let i = 0; i < 45; i++) counter.add('early')
    for (let i = 0; i < 20_000; i++) counter.add(i === 10_000 ? 'late' : `u${i}`)
    for (let i = 0; i < 20_000; i++) counter.add(`w${i}`)
    for (let i = 0; i < 50; i++) counter.add('late')
    const top = counter.topValues(2)
    expect(top.exact).toBe(false)
    expect(top.values).toEqual([
      { value: 'late', count: 50, exact: false },
      { value: 'early', count: 45, exact: true },
    ])
  })

  it('never estimates more distinct values than values read, nor fewer than it counted exactly', () => {
    // Unique values (ids, timestamps): an unclamped estimate reads above the row count about half the time.
    for (const [rows, seed] of [[304_700, 0], [11_538, 1], [11_734, 2], [50_000, 3], [120_000, 4]] as const) {
      const counter = new DistinctCounter(10_000, false)
      for (let i = 0; i < rows; i++) counter.add(seed * 1e9 + i * 1000 + 0.5)
      const d = counter.distinct()
      expect(d.exact).toBe(false)
      expect(d.count).toBeLessThanOrEqual(rows)
      expect(d.high).toBeLessThanOrEqual(rows)
      expect(d.low).toBeLessThanOrEqual(d.count)
      expect(d.count).toBeGreaterThan(rows * 0.97)
    }
    // Just past the limit, then one value repeated: the count never drops below the 1,001 seen exactly.
    for (let seed = 0; seed < 20; seed++) {
      const counter = new DistinctCounter(1000, false)
      for (let i = 0; i <= 1000; i++) counter.add(`s${seed}-${i}`)
      for (let i = 0; i < 50_000; i++) counter.add('again')
      const d = counter.distinct()
      expect(d.count).toBeGreaterThanOrEqual(1001)
      expect(d.low).toBeGreaterThanOrEqual(1001)
      expect(d.count).toBeLessThan(1001 * 1.03)
    }
  })

  it('long text turns to the estimate before its characters pass the limit, and says how many it counted exactly', () => {
    const counter = new DistinctCounter(100_000, true)
    const value = (i: number) => `${i}:${'x'.repeat(995)}`
    const rows = 12_000
    for (let i = 0; i < rows; i++) counter.add(value(i))
    const d = counter.distinct()
    expect(d.exact).toBe(false)
    // About 1,000 characters a value: 4,000 of them fill the exact count.
    expect(d.limit).toBeGreaterThan(TEXT_CHARACTERS_LIMIT / 1000 - 10)
    expect(d.limit).toBeLessThanOrEqual(TEXT_CHARACTERS_LIMIT / 995)
    expect(d.count).toBeGreaterThan(d.limit)
    expect(d.count).toBeLessThanOrEqual(rows)
    // Short text of the same count stays exact.
    const short = new DistinctCounter(100_000, true)
    for (let i = 0; i < rows; i++) short.add(`v${i}`)
    expect(short.distinct()).toEqual({ count: rows, exact: true, limit: 100_000 })
  })

  it('counts fewer values exactly per column on a wide table, never under the floor', () => {
    expect(exactDistinctLimit(1)).toBe(100_000)
    expect(exactDistinctLimit(20)).toBe(100_000)
    expect(exactDistinctLimit(40)).toBe(50_000)
    expect(exactDistinctLimit(1000)).toBe(10_000)
  })

  it('gives a range that holds the true count (about 95 % of the time)', () => {
    let inside = 0
    const trials = 40
    for (let t = 0; t < trials; t++) {
      const n = 20_000 + t * 7_919
      const counter = new DistinctCounter(10_000, false)
      // Each value three times, so the bounds from the values read do not decide the range.
      for (let i = 0; i < 3 * n; i++) counter.add(t % 2 ? `t${t}-${i % n}` : t * 1e9 + (i % n) * 3.25)
      const d = counter.distinct()
      expect(d.low! < d.count && d.count < d.high!).toBe(true)
      if (d.low! <= n && n <= d.high!) inside++
    }
    expect(inside).toBeGreaterThanOrEqual(34)
  })
})

describe('streaming histogram bars cover the values’ range', () => {
  /** Values in an order where the first batch holds neither the minimum nor the maximum. */
  const shuffled = (n: number, at: (i: number) => number) => Array.from({ length: n }, (_, i) => at((i * 7919) % n))

  it('an id column from 0 never gets a bar below 0, whatever order the values come in', () => {
    // Rows 1,500 … 11,537 first, then 0 … 1,499 (a filtered view's batches in storage order).
    const values = [...Array.from({ length: 10_038 }, (_, i) => 1500 + i), ...Array.from({ length: 1500 }, (_, i) => i)]
    const histogram = new StreamingHistogram(20, true)
    for (const v of values) histogram.add(v)
    const bins = histogram.result()
    expectExact(values, bins)
    expect(bins[0]!.lo).toBe(0)
    expect(bins.length).toBeGreaterThanOrEqual(10)
    expect(bins.length).toBeLessThanOrEqual(20)
    expect(bins.at(-1)!.hi).toBeGreaterThan(11_537)
    // Bars of one round width, starting within a bar of the minimum and ending within one of the maximum.
    const width = bins[0]!.hi - bins[0]!.lo
    for (const bin of bins) expect(bin.hi - bin.lo).toBe(width)
    expect([500, 1000]).toContain(width)
  })

  it('spans the data, not the grid’s growth: first and last bars each hold values, within one bar of min and max', () => {
    for (const [lo, hi] of [
      [-31_000, 150_000],
      [0.001, 0.0042],
      [1e12, 1e12 + 86_400_000 * 30],
      [-5, 5],
    ] as const) {
      const values = shuffled(30_000, (i) => lo + ((hi - lo) * i) / 29_999)
      const histogram = new StreamingHistogram(20, false)
      for (const v of values) histogram.add(v)
      const bins = histogram.result()
      expectExact(values, bins)
      expect(bins.length).toBeGreaterThanOrEqual(8)
      expect(bins[0]!.count).toBeGreaterThan(0)
      expect(bins.at(-1)!.count).toBeGreaterThan(0)
      const width = bins[0]!.hi - bins[0]!.lo
      expect(bins[0]!.lo).toBeLessThanOrEqual(lo)
      expect(bins[0]!.lo).toBeGreaterThan(lo - width)
      expect(bins.at(-1)!.hi).toBeGreaterThan(hi)
    }
  })

  it('skips values that are not finite (no bar can hold them)', () => {
    const histogram = new StreamingHistogram(20, false)
    for (const v of [1, 2, Infinity, -Infinity, 3]) histogram.add(v)
    expect(histogram.result().reduce((s, b) => s + b.count, 0)).toBe(3)
  })
})
