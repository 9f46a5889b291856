import { describe, expect, it } from 'vitest'
import { Float32, Float64, Int32, TimeUnit, Timestamp, Utf8, vectorFromArray } from 'apache-arrow'
import { CATEGORY, colourBy, QUANTILE_CLASSES } from '../../src/renderer/features/map/colours'
import { formatCell } from '../../src/renderer/lib/formatCell'

const all = (n: number) => Uint32Array.from({ length: n }, (_, i) => i)

/** How many points took each distinct RGBA colour. */
function shares(colours: Uint8Array): number[] {
  const counts = new Map<number, number>()
  const words = new Uint32Array(colours.buffer, colours.byteOffset, colours.length / 4)
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
  return [...counts.values()].sort((a, b) => b - a)
}

describe('map colours', () => {
  it('a skewed number by quantiles: seven colours of about equal shares, each named by the values it holds', () => {
    // e^(10u): half the values below e^5 ≈ 148, the largest 22,026 — a linear ramp paints nearly all one colour.
    const n = 7000
    const values = vectorFromArray(Array.from({ length: n }, (_, i) => Math.exp((10 * i) / n)), new Float64())
    const { colours, legend } = colourBy(values, all(n))
    expect(legend.kind).toBe('quantiles')
    expect(legend.caption).toMatch(/^By quantiles: 7 colours/)
    expect(legend.entries).toHaveLength(QUANTILE_CLASSES)
    for (const e of legend.entries) expect(e.rows).toBe(n / QUANTILE_CLASSES)
    expect(shares(colours)).toEqual(Array(QUANTILE_CLASSES).fill(n / QUANTILE_CLASSES))
    expect(legend.entries[0]!.label).toBe('1 – 4.16678')
    expect(legend.entries[6]!.label).toBe('5278.67 – 21995')
    // The same column on the linear ramp: most points within the first few of its 256 steps.
    const linear = colourBy(values, all(n), 'linear')
    expect(linear.legend.entries.map((e) => e.label)).toEqual(['1', '21995'])
    expect(shares(linear.colours)[0]!).toBeGreaterThan(n * 0.3)
  })

  it('ties keep one colour: a column mostly zero gets fewer classes, the zeros one of them, and nulls their own entry', () => {
    const values = vectorFromArray([...Array(60).fill(0), ...Array.from({ length: 39 }, (_, i) => i + 1), null], new Int32())
    const { legend } = colourBy(values, all(100))
    expect(legend.entries[0]).toMatchObject({ label: '0', rows: 60 })
    expect(legend.entries.at(-1)).toMatchObject({ label: 'null or NaN', rows: 1 })
    expect(legend.entries.map((e) => e.label)).toEqual(['0', '1 – 11', '12 – 25', '26 – 39', 'null or NaN'])
    expect(legend.entries.reduce((s, e) => s + e.rows!, 0)).toBe(100)
  })

  it('timestamps by quantiles, named as the grid shows them', () => {
    const ms = Array.from({ length: 70 }, (_, i) => Date.UTC(2025, 0, 1 + i))
    const values = vectorFromArray(ms, new Timestamp(TimeUnit.MILLISECOND, 'UTC'))
    const { legend } = colourBy(values, all(70))
    expect(legend.entries).toHaveLength(7)
    expect(legend.entries[0]!.label).toBe('2025-01-01T00:00:00.000Z – 2025-01-10T00:00:00.000Z')
  })

  it('20 categories each in its own colour; 25 put the 5 least frequent into a named "other"', () => {
    const labels = (k: number) => Array.from({ length: 1000 }, (_, i) => `c${String(i % k).padStart(2, '0')}`)
    const twenty = colourBy(vectorFromArray(labels(20), new Utf8()), all(1000))
    expect(twenty.legend.entries).toHaveLength(20)
    expect(new Set(twenty.legend.entries.map((e) => e.colour)).size).toBe(20)
    expect(shares(twenty.colours)).toHaveLength(20)
    // 25 values, c00–c24 each 40 rows: ties broken by name, so c20–c24 are "other".
    const more = colourBy(vectorFromArray(labels(25), new Utf8()), all(1000))
    expect(more.legend.entries).toHaveLength(CATEGORY.length + 1)
    expect(more.legend.entries.at(-1)).toMatchObject({ label: 'other (5 values)', rows: 200 })
    expect(more.legend.caption).toBe('The 20 most frequent of 25 values; the rest in grey as “other”')
    expect(shares(more.colours)).toHaveLength(21)
  })

  it('a float32 cell at its own precision, a float64 as before', () => {
    expect(formatCell(Math.fround(0.1), new Float32()).text).toBe('0.1')
    expect(formatCell(Math.fround(3.14159274), new Float32()).text).toBe('3.1415927')
    expect(formatCell(Math.fround(16777217), new Float32()).text).toBe('16777216')
    expect(formatCell(0.1, new Float64()).text).toBe('0.1')
    expect(formatCell(1 / 3, new Float64()).text).toBe('0.3333333333')
  })
})
