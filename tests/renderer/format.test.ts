import { describe, expect, it } from 'vitest'
import { Float64, vectorFromArray } from 'apache-arrow'
import { colourBy } from '../../src/renderer/features/map/colours'
import { formatBytes, formatCount, formatDate, formatDuration, formatMeasure, formatPercent, formatTime } from '../../src/renderer/lib/format'

describe('the renderer formatters', () => {
  it('counts with thousands separators, bigints whole', () => {
    expect(formatCount(0)).toBe('0')
    expect(formatCount(999)).toBe('999')
    expect(formatCount(1234567)).toBe('1,234,567')
    expect(formatCount(-1200)).toBe('-1,200')
    expect(formatCount(9_007_199_254_740_993n)).toBe('9,007,199,254,740,993')
  })

  it('measured numbers: whole with separators, others to six significant digits', () => {
    expect(formatMeasure(1234)).toBe('1,234')
    expect(formatMeasure(0)).toBe('0')
    expect(formatMeasure(49.5)).toBe('49.5')
    expect(formatMeasure(0.0001773238182067871)).toBe('0.000177324')
    expect(formatMeasure(99.99991008080542)).toBe('99.9999')
    expect(formatMeasure(-1 / 3)).toBe('-0.333333')
  })

  it("the map's colour ramp names its ends as measured numbers, not a float's 17 digits", () => {
    const scores = vectorFromArray([0.0001773238182067871, 42.5, 99.99991008080542], new Float64())
    const { legend } = colourBy(scores, Uint32Array.from([0, 1, 2]), 'linear')
    expect(legend.entries.map((e) => e.label)).toEqual(['0.000177324', '99.9999'])
    // By quantiles (the default), each colour names the values it holds, each one here.
    expect(colourBy(scores, Uint32Array.from([0, 1, 2])).legend.entries.map((e) => e.label)).toEqual(['0.000177324', '42.5', '99.9999'])
  })

  it('percentages with at most one decimal', () => {
    expect(formatPercent(0.1234)).toBe('12.3%')
    expect(formatPercent(1)).toBe('100%')
    expect(formatPercent(0.0004)).toBe('0%')
  })

  it('sizes in binary units, one decimal under ten', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1023)).toBe('1023 B')
    expect(formatBytes(1024)).toBe('1.0 KiB')
    expect(formatBytes(1536)).toBe('1.5 KiB')
    expect(formatBytes(20 * 1024)).toBe('20 KiB')
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GiB')
    expect(formatBytes(3 * 1024 ** 5)).toBe('3072 TiB')
  })

  it('durations in words people read', () => {
    expect(formatDuration(0.2)).toBe('under a second')
    expect(formatDuration(42.4)).toBe('42 s')
    expect(formatDuration(185)).toBe('3 min 5 s')
    expect(formatDuration(2 * 3600 + 600)).toBe('2 h 10 min')
    expect(formatDuration(-1)).toBe('—')
    expect(formatDuration(Number.NaN)).toBe('—')
  })

  it('moments: to the second day first, unknown as words; to the minute for recents', () => {
    expect(formatTime(0)).toBe('time unknown')
    const at = new Date(2024, 4, 5, 14, 3, 9).getTime()
    expect(formatTime(at)).toMatch(/^05 May 2024,? 14:03:09$/)
    expect(formatDate(at)).toMatch(/^May 5, 2024,? 2:03\sPM$/)
  })
})
