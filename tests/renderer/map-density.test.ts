import { describe, expect, it } from 'vitest'
import { DensityRaster } from '../../src/renderer/features/map/density'

const BLUE: [number, number, number, number] = [37, 99, 235, 200]
const W = 20
const H = 10

/** The drawn pixels of an image: [x, y, r, g, b, a] for each with any alpha (y counted from the top). */
function drawn(rgba: Uint8Array, width: number): number[][] {
  const out: number[][] = []
  for (let p = 0; p < rgba.length / 4; p++) if (rgba[p * 4 + 3]! > 0) out.push([p % width, Math.floor(p / width), ...rgba.subarray(p * 4, p * 4 + 4)])
  return out
}

/** A view with data (0, 0) at the canvas's centre and one data unit per pixel. */
const VIEW = { cx: 0, cy: 0, scale: 1 }

describe('the map density image', () => {
  it('draws a point as a size×size square of its colour where the view puts it, data y up', () => {
    const raster = new DensityRaster()
    // Data (3.5, 2.5) is pixel column 10 + 3 = 13, row 5 − 3 = 2 (data y grows upwards, rows downwards).
    const pixels = drawn(raster.render(Float32Array.of(3.5), Float32Array.of(2.5), null, BLUE, VIEW, W, H, 3), W)
    expect(pixels.map(([x, y]) => [x, y])).toEqual([12, 13, 14].flatMap((x) => [1, 2, 3].map((y) => [x, y])).sort((a, b) => a[1]! - b[1]! || a[0]! - b[0]!))
    expect(new Set(pixels.map((p) => p.slice(2).join(',')))).toEqual(new Set([BLUE.join(',')]))
  })

  it('darkens where points overlap as blending would (alpha 1 − (1 − a)ⁿ), and skips points off the canvas or NaN', () => {
    const raster = new DensityRaster()
    const x = Float32Array.of(0.5, 0.5, 0.5, 500, Number.NaN)
    const y = Float32Array.of(0.5, 0.5, 0.5, 0, 0)
    const rgba = raster.render(x, y, null, BLUE, VIEW, W, H, 1)
    const pixels = drawn(rgba, W)
    expect(pixels).toHaveLength(1)
    expect(pixels[0]!.slice(0, 2)).toEqual([10, 4])
    expect(pixels[0]![5]).toBe(Math.round(255 * (1 - (1 - 200 / 255) ** 3)))
  })

  it('shows the edge of a point just off the canvas', () => {
    const raster = new DensityRaster()
    // Data x −10.5 is pixel column −1: its 3-pixel square reaches column 0.
    const pixels = drawn(raster.render(Float32Array.of(-10.5), Float32Array.of(0.5), null, BLUE, VIEW, W, H, 3), W)
    expect(pixels.map(([x, y]) => [x, y])).toEqual([
      [0, 3],
      [0, 4],
      [0, 5],
    ])
  })

  it('keeps each point’s colour when coloured by a column, and follows the view', () => {
    const raster = new DensityRaster()
    const colours = Uint8Array.of(255, 0, 0, 255, 0, 0, 255, 255)
    const x = Float32Array.of(-5, 5)
    const y = Float32Array.of(0, 0)
    // Zoomed in twice about data (0, 0): the points land 10 pixels either side of the centre.
    // Data x 5 is pixel 20, just off the canvas; the next frame pans it in.
    const pixels = drawn(raster.render(x, y, colours, BLUE, { cx: 0, cy: 0, scale: 2 }, W, H, 1), W)
    expect(pixels).toEqual([[0, 5, 255, 0, 0, 255]])
    const panned = drawn(raster.render(x, y, colours, BLUE, { cx: 1, cy: 0, scale: 2 }, W, H, 1), W)
    expect(panned.map((p) => p.slice(0, 3))).toEqual([[18, 5, 0]])
    expect(panned[0]!.slice(2)).toEqual([0, 0, 255, 255])
  })

  it('colours a pixel two coloured footprints share by the fuller cell, its alpha by every point over it', () => {
    const raster = new DensityRaster()
    // Two red points at pixel (9, 4), one blue at (11, 4): pixel (10, 4) is covered by all three, centred on none.
    const x = Float32Array.of(-0.5, -0.5, 1.5)
    const y = Float32Array.of(0.5, 0.5, 0.5)
    const colours = Uint8Array.of(255, 0, 0, 200, 255, 0, 0, 200, 0, 0, 255, 200)
    const pixels = drawn(raster.render(x, y, colours, BLUE, VIEW, W, H, 3), W)
    const at = (px: number, py: number) => pixels.find(([x, y]) => x === px && y === py)!.slice(2)
    expect(at(9, 4)).toEqual([255, 0, 0, Math.round(255 * (1 - (1 - 200 / 255) ** 2))])
    expect(at(10, 4)).toEqual([255, 0, 0, Math.round(255 * (1 - (1 - 200 / 255) ** 3))])
    expect(at(11, 4)).toEqual([0, 0, 255, 200])
  })
})
