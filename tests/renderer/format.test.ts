import { describe, expect, it } from 'vitest'
import { formatBytes, formatCount, formatDate, formatDuration, formatPercent, formatTime } from '../../src/renderer/lib/format'

describe('the renderer formatters', () => {
  it('counts with thousands separators, bigints whole', () => {
    expect(formatCount(0)).toBe('0')
    expect(formatCount(999)).toBe('999')
    expect(formatCount(1234567)).toBe('1,234,567')
    expect(formatCount(-1200)).toBe('-1,200')
    expect(formatCount(9_007_199_254_740_993n)).toBe('9,007,199,254,740,993')
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
