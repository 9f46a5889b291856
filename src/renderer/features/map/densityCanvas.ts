import { DensityRaster } from './density'
import type { View } from './view'

/**
 * The map's points drawn as a density image (density.ts, binned on the CPU each frame) put on a 2D canvas. Why
 * not GL points: in headless Chromium WebGL is software (SwiftShader) and a draw of 1M GL points took 0.5–1.6 s,
 * while binning them in JS and putting one image takes ~15 ms; and why not that image as a WebGL texture on a
 * quad: measured side by side on a blank page (tests/bench/vanilla/scatterLibs.ts, `density` vs `density2d`),
 * the texture path was slower in its first draw (a WebGL context and a shader compile) and in each frame (the
 * upload and a software-drawn quad). drawer.ts chooses between it and the GL points (glPoints.ts), which a GPU draws faster.
 */
export class DensityCanvas {
  private readonly ctx: CanvasRenderingContext2D
  private readonly raster = new DensityRaster()
  private x: Float32Array = new Float32Array(0)
  private y: Float32Array = new Float32Array(0)
  private colours: Uint8Array | null = null
  private plain: readonly [number, number, number, number] = [0, 0, 0, 0]
  /** An ImageData over the raster's own bytes (no copy), made again only when the raster's buffer changes. */
  private image: ImageData | null = null

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d')
    if (!ctx) throw new Error('This window cannot draw on a canvas, which the map needs')
    this.ctx = ctx
  }

  /** x and y per point (kept, not copied); every point drawn in `colour` (RGBA bytes) until {@link setColours}. */
  setPoints(x: Float32Array, y: Float32Array, colour: readonly [number, number, number, number]): void {
    this.x = x
    this.y = y
    this.setPlain(colour)
  }

  /** RGBA bytes per point. */
  setColours(colours: Uint8Array): void {
    this.colours = colours
  }

  /** One colour (RGBA bytes) for every point. */
  setPlain(colour: readonly [number, number, number, number]): void {
    this.colours = null
    this.plain = colour
  }

  /** `view.scale` in CSS pixels per data unit, `size` in CSS pixels (both scaled by the device pixel ratio here). */
  draw(view: View, size: number): void {
    const { canvas } = this
    const { width, height } = canvas
    if (width === 0 || height === 0) return
    const ratio = window.devicePixelRatio || 1
    const rgba = this.raster.render(this.x, this.y, this.colours, this.plain, { cx: view.cx, cy: view.cy, scale: view.scale * ratio }, width, height, size * ratio)
    if (!this.image || this.image.data.buffer !== rgba.buffer) this.image = new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), width, height)
    // Every pixel replaced, transparent ones too: no clear needed.
    this.ctx.putImageData(this.image, 0, 0)
  }

  dispose(): void {
    this.image = null
  }
}
