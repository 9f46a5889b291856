import { describe, expect, it } from 'vitest'
import { DistinctCounter } from '../../../src/core/profile/distinct'
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
    expect(small.distinct()).toEqual({ count: 300, exact: true })
    expect(small.topValues(1)).toEqual({ values: [{ value: 'v0', count: 17 }], exact: true })

    const large = new DistinctCounter(1000, true)
    for (let i = 0; i < 100_000; i++) large.add(i % 10 === 0 ? 'common' : i)
    const distinct = large.distinct()
    expect(distinct.exact).toBe(false)
    expect(Math.abs(distinct.count - 90_001) / 90_001).toBeLessThan(0.05)
    const top = large.topValues(1)
    expect(top.exact).toBe(false)
    expect(top.values[0]!.value).toBe('common')
    expect(top.values[0]!.count).toBeLessThanOrEqual(10_000)
  })
})
