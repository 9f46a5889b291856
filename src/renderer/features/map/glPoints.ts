import type { View } from './view'

/**
 * The map's points drawn as GL points, the drawer where WebGL runs on a GPU (drawer.ts chooses): a buffer of x, one
 * of y and, when coloured by a column, one of colours; the view (centre and scale) as uniforms, so a pan or zoom is
 * one draw call (~1–2 ms for 1M points on a GPU). In software GL (SwiftShader, headless Chromium) that draw takes
 * 0.5–1.6 s at 1M points, so there the map draws a density image instead (densityCanvas.ts). The map bench compares
 * both (tests/bench/vanilla/scatterLibs.ts, `ours`). Without a colour column every point takes one colour, a
 * uniform of its own program. WebGL 1.
 */
const POSITION = `
attribute float px;
attribute float py;
uniform vec2 centre;
uniform vec2 pixelsToClip;
uniform float scale;
uniform float size;
vec4 position() { return vec4((vec2(px, py) - centre) * scale * pixelsToClip, 0.0, 1.0); }
`

/** Coloured by a column: a colour per point, carried to the fragment as a varying. */
const VERTEX = `${POSITION}
attribute vec4 colour;
varying vec4 vColour;
void main() {
  gl_Position = position();
  gl_PointSize = size;
  vColour = colour;
}`

const FRAGMENT = `
precision mediump float;
varying vec4 vColour;
void main() { gl_FragColor = vColour; }`

/**
 * One colour for every point: a uniform, no varying. In software GL (SwiftShader, headless Chromium) each varying
 * is interpolated for every pixel of every point; the constant attribute this replaced cost ~1.5× a bare draw.
 */
const VERTEX_PLAIN = `${POSITION}
void main() {
  gl_Position = position();
  gl_PointSize = size;
}`

const FRAGMENT_PLAIN = `
precision mediump float;
uniform vec4 plain;
void main() { gl_FragColor = plain; }`

/**
 * The context's attributes: no antialiasing (square points, as the density image draws them), the picture kept
 * after a frame (tests and the bench read it back), colours not premultiplied (the blend below expects straight).
 */
export const GL_ATTRIBUTES: WebGLContextAttributes = { antialias: false, preserveDrawingBuffer: true, premultipliedAlpha: false }

export class Scatter {
  private readonly gl: WebGLRenderingContext
  /** Each program is linked on first use: a plain map never compiles the coloured one, nor the reverse. */
  private colouredProgram: WebGLProgram | null = null
  private plainProgram: WebGLProgram | null = null
  /** The coloured program's colour attribute (-1 until that program exists). */
  private colourAt = -1
  private readonly xs: WebGLBuffer
  private readonly ys: WebGLBuffer
  private readonly colours: WebGLBuffer
  /** RGBA (0–1) of every point while no colour buffer is set. */
  private plain: [number, number, number, number] | null = null
  private count = 0

  /** `gl`: the canvas's context when the caller already asked for it (drawer.ts, with its own attributes). */
  constructor(
    private readonly canvas: HTMLCanvasElement,
    gl: WebGLRenderingContext | null = canvas.getContext('webgl', GL_ATTRIBUTES),
  ) {
    if (!gl) throw new Error('This window cannot draw with WebGL, which the map needs')
    this.gl = gl
    this.xs = gl.createBuffer()!
    this.ys = gl.createBuffer()!
    this.colours = gl.createBuffer()!
  }

  /** x and y per point; every point drawn in `colour` (RGBA bytes) until {@link setColours}. */
  setPoints(x: Float32Array, y: Float32Array, colour: readonly [number, number, number, number]): void {
    const { gl } = this
    // Linked here, where the caller handles a failure, rather than inside the first draw.
    this.plainProgram ??= link(gl, VERTEX_PLAIN, FRAGMENT_PLAIN)
    this.count = x.length
    gl.bindBuffer(gl.ARRAY_BUFFER, this.xs)
    gl.bufferData(gl.ARRAY_BUFFER, x, gl.STATIC_DRAW)
    gl.bindBuffer(gl.ARRAY_BUFFER, this.ys)
    gl.bufferData(gl.ARRAY_BUFFER, y, gl.STATIC_DRAW)
    this.setPlain(colour)
  }

  /** RGBA bytes per point. */
  setColours(colours: Uint8Array): void {
    const { gl } = this
    this.plain = null
    gl.bindBuffer(gl.ARRAY_BUFFER, this.colours)
    gl.bufferData(gl.ARRAY_BUFFER, colours, gl.STATIC_DRAW)
  }

  /** One colour (RGBA bytes) for every point. */
  setPlain(colour: readonly [number, number, number, number]): void {
    this.plain = [colour[0] / 255, colour[1] / 255, colour[2] / 255, colour[3] / 255]
  }

  draw(view: View, size: number): void {
    const { gl, canvas } = this
    gl.viewport(0, 0, canvas.width, canvas.height)
    gl.clearColor(0, 0, 0, 0)
    gl.clear(gl.COLOR_BUFFER_BIT)
    if (this.count === 0) return
    const program = this.plain ? (this.plainProgram ??= link(gl, VERTEX_PLAIN, FRAGMENT_PLAIN)) : this.coloured()
    gl.useProgram(program)
    gl.enable(gl.BLEND)
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
    // The colour array left enabled by a coloured draw is switched off first (its slot may be px or py now).
    if (this.colourAt >= 0) gl.disableVertexAttribArray(this.colourAt)
    for (const [name, buffer] of [
      ['px', this.xs],
      ['py', this.ys],
    ] as const) {
      const at = gl.getAttribLocation(program, name)
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
      gl.enableVertexAttribArray(at)
      gl.vertexAttribPointer(at, 1, gl.FLOAT, false, 0, 0)
    }
    if (this.plain) {
      gl.uniform4f(gl.getUniformLocation(program, 'plain'), ...this.plain)
    } else {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colours)
      gl.enableVertexAttribArray(this.colourAt)
      gl.vertexAttribPointer(this.colourAt, 4, gl.UNSIGNED_BYTE, true, 0, 0)
    }
    gl.uniform2f(gl.getUniformLocation(program, 'centre'), view.cx, view.cy)
    // Data y grows upwards on screen, as on any chart.
    gl.uniform2f(gl.getUniformLocation(program, 'pixelsToClip'), 2 / canvas.width, 2 / canvas.height)
    gl.uniform1f(gl.getUniformLocation(program, 'scale'), view.scale * (window.devicePixelRatio || 1))
    gl.uniform1f(gl.getUniformLocation(program, 'size'), size * (window.devicePixelRatio || 1))
    gl.drawArrays(gl.POINTS, 0, this.count)
  }

  private coloured(): WebGLProgram {
    if (!this.colouredProgram) {
      this.colouredProgram = link(this.gl, VERTEX, FRAGMENT)
      this.colourAt = this.gl.getAttribLocation(this.colouredProgram, 'colour')
    }
    return this.colouredProgram
  }

  dispose(): void {
    const { gl } = this
    gl.deleteBuffer(this.xs)
    gl.deleteBuffer(this.ys)
    gl.deleteBuffer(this.colours)
    if (this.colouredProgram) gl.deleteProgram(this.colouredProgram)
    if (this.plainProgram) gl.deleteProgram(this.plainProgram)
  }
}

/** A program of these two shaders, or an error saying which failed (the density image's quad uses it too). */
export function link(gl: WebGLRenderingContext, vertex: string, fragment: string): WebGLProgram {
  const program = gl.createProgram()!
  for (const [type, source] of [
    [gl.VERTEX_SHADER, vertex],
    [gl.FRAGMENT_SHADER, fragment],
  ] as const) {
    const shader = gl.createShader(type)!
    gl.shaderSource(shader, source)
    gl.compileShader(shader)
    if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`map shader: ${gl.getShaderInfoLog(shader)}`)
    gl.attachShader(program, shader)
  }
  gl.linkProgram(program)
  if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`map program: ${gl.getProgramInfoLog(program)}`)
  return program
}
