import { describe, expect, it } from 'vitest'
import { hexDump, parseJsonText, sniffImage, vectorStats } from '../../src/renderer/features/table/inspectValue'
import { allSelection, cellSelection, columnSelection, extendTo, inRange, rangeOf, rangeSize, rowsSelection } from '../../src/renderer/features/table/selection'
import { pngImage } from '../helpers/catalog'

describe('cell inspector helpers', () => {
  it('tells images by their magic bytes only', () => {
    expect(sniffImage(pngImage())).toBe('image/png')
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg')
    expect(sniffImage(new TextEncoder().encode('GIF89a....'))).toBe('image/gif')
    expect(sniffImage(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(sniffImage(new TextEncoder().encode('RIFF\0\0\0\0WAVEfmt '))).toBeNull()
    expect(sniffImage(Uint8Array.from([0x89, 0x50, 0x4e]))).toBeNull()
    expect(sniffImage(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
  })

  it('computes vector statistics over the finite values and counts NaNs and zeros', () => {
    const stats = vectorStats(Float32Array.of(3, 0, -4, Number.NaN, 0))
    expect(stats).toEqual({ dimension: 5, norm: 5, min: -4, max: 3, mean: -0.25, nans: 1, zeros: 2 })
    expect(Number.isNaN(vectorStats(Float32Array.of(Number.NaN)).mean)).toBe(true)
  })

  it('dumps bytes as offset, hex and ASCII, up to a limit', () => {
    const lines = hexDump(new TextEncoder().encode('Hello, inspector! 0123456789'))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toBe('00000000  48 65 6c 6c 6f 2c 20 69 6e 73 70 65 63 74 6f 72  Hello, inspector')
    expect(hexDump(new Uint8Array(100), 32)).toHaveLength(2)
  })

  it('parses only JSON objects and arrays', () => {
    expect(parseJsonText(' {"a": [1, 2]}')).toEqual({ a: [1, 2] })
    expect(parseJsonText('42')).toBeNull()
    expect(parseJsonText('{not json')).toBeNull()
  })
})

describe('grid selection', () => {
  it('extends from the anchor, in any direction', () => {
    const s = extendTo(cellSelection({ row: 5, col: 2 }), { row: 3, col: 0 })
    expect(rangeOf(s)).toEqual({ top: 3, bottom: 5, left: 0, right: 2 })
    expect(rangeSize(rangeOf(s))).toEqual({ rows: 3, columns: 3 })
    expect(inRange(rangeOf(s), 4, 1)).toBe(true)
    expect(inRange(rangeOf(s), 6, 1)).toBe(false)
  })

  it('spans whole rows, whole columns and everything', () => {
    expect(rangeOf(rowsSelection(7, 4, 9))).toEqual({ top: 4, bottom: 7, left: 0, right: 9 })
    expect(rangeOf(columnSelection(3, 1000))).toEqual({ top: 0, bottom: 999, left: 3, right: 3 })
    expect(rangeOf(allSelection(10, 4))).toEqual({ top: 0, bottom: 9, left: 0, right: 3 })
  })
})
