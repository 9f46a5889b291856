import { DensityRaster } from '../../../src/renderer/features/map/density'
import type { View } from '../../../src/renderer/features/map/view'
import { link } from '../../../src/renderer/features/map/glPoints'

const VERTEX = `
attribute vec2 corner;
varying vec2 at;
void main() {
  // The image's first row is the canvas's top (as an ImageData); a texture's first row is at t = 0.
  at = vec2(corner.x * 0.5 + 0.5, 0.5 - corner.y * 0.5);
  gl_Position = vec4(corner, 0.0, 1.0);
}`

const FRAGMENT = `
precision mediump float;
uniform sampler2D image;
varying vec2 at;
void main() { gl_FragColor = texture2D(image, at); }`

/**
 * The map bench's other way to show the app's density image (features/map/density.ts): one WebGL texture on a
 * quad covering the canvas, beside the app's 2D putImageData (features/map/densityCanvas.ts). Measured on the
 * blank page (scatterLibs.ts) so the choice between them is by measurement: in headless Chromium (SwiftShader)
 * the texture path paid for a WebGL context, a shader compile, the upload and a software quad each frame.
 */
export class DensityScatter {
  private readonly gl: WebGLRenderingContext
  private readonly program: WebGLProgram
  private readonly corners: WebGLBuffer
  private readonly texture: WebGLTexture
  private readonly raster = new DensityRaster()
  private x: Float32Array = new Float32Array(0)
  private y: Float32Array = new Float32Array(0)
  private colours: Uint8Array | null = null
  private plain: readonly [number, number, number, number] = [0, 0, 0, 0]
  /** Size of the texture last allocated (texSubImage2D reuses it while the canvas keeps its size). */
  private textureSize = [0, 0]

  constructor(private readonly canvas: HTMLCanvasElement) {
    const gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: true, premultipliedAlpha: false })
    if (!gl) throw new Error('This window cannot draw with WebGL, which the map needs')
    this.gl = gl
    this.program = link(gl, VERTEX, FRAGMENT)
    this.corners = gl.createBuffer()!
    gl.bindBuffer(gl.ARRAY_BUFFER, this.corners)
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW)
    this.texture = gl.createTexture()!
    gl.bindTexture(gl.TEXTURE_2D, this.texture)
    // One texel per canvas pixel: no filtering; any size (WebGL 1 allows non-power-of-two without mipmaps, clamped).
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE)
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE)
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
    const { gl, canvas } = this
    const ratio = window.devicePixelRatio || 1
    const { width, height } = canvas
    const image = this.raster.render(this.x, this.y, this.colours, this.plain, { cx: view.cx, cy: view.cy, scale: view.scale * ratio }, width, height, size * ratio)
    gl.viewport(0, 0, width, height)
    gl.disable(gl.BLEND)
    gl.useProgram(this.program)
    gl.activeTexture(gl.TEXTURE0)
    gl.bindTexture(gl.TEXTURE_2D, this.texture)
    if (this.textureSize[0] === width && this.textureSize[1] === height) {
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, image)
    } else {
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, image)
      this.textureSize = [width, height]
    }
    gl.uniform1i(gl.getUniformLocation(this.program, 'image'), 0)
    const at = gl.getAttribLocation(this.program, 'corner')
    gl.bindBuffer(gl.ARRAY_BUFFER, this.corners)
    gl.enableVertexAttribArray(at)
    gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0)
    // The quad covers every pixel and blending is off: no clear needed, the image replaces the last frame.
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4)
  }

  dispose(): void {
    const { gl } = this
    gl.deleteBuffer(this.corners)
    gl.deleteTexture(this.texture)
    gl.deleteProgram(this.program)
  }
}
