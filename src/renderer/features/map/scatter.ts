/**
 * The map's points on WebGL: a buffer of x, one of y (the kept coordinates' own columns, uploaded as they arrive,
 * not interleaved first) and, when coloured by a column, one of colours; drawn as GL points with the view (centre
 * and scale) as uniforms, so a pan or zoom is one draw call whatever the number of points — no per-point work on
 * the main thread. Without a colour column every point takes one constant colour (no per-point buffer to fill
 * before the first frame). WebGL 1, which every Chromium has (headless runs use SwiftShader).
 */
export interface View {
  /** The data point at the canvas's centre. */
  cx: number
  cy: number
  /** Canvas pixels per data unit. */
  scale: number
}

const VERTEX = `
attribute float px;
attribute float py;
attribute vec4 colour;
uniform vec2 centre;
uniform vec2 pixelsToClip;
uniform float scale;
uniform float size;
varying vec4 vColour;
void main() {
  gl_Position = vec4((vec2(px, py) - centre) * scale * pixelsToClip, 0.0, 1.0);
  gl_PointSize = size;
  vColour = colour;
}`

const FRAGMENT = `
precision mediump float;
varying vec4 vColour;
void main() { gl_FragColor = vColour; }`

export class Scatter {
  private readonly gl: WebGLRenderingContext
  private readonly program: WebGLProgram
  private readonly xs: WebGLBuffer
  private readonly ys: WebGLBuffer
  private readonly colours: WebGLBuffer
  /** RGBA (0–1) of every point while no colour buffer is set. */
  private plain: [number, number, number, number] | null = null
  private count = 0

  constructor(private readonly canvas: HTMLCanvasElement) {
    const gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: true, premultipliedAlpha: false })
    if (!gl) throw new Error('This window cannot draw with WebGL, which the map needs')
    this.gl = gl
    this.program = link(gl, VERTEX, FRAGMENT)
    this.xs = gl.createBuffer()!
    this.ys = gl.createBuffer()!
    this.colours = gl.createBuffer()!
  }

  /** x and y per point; every point drawn in `colour` (RGBA bytes) until {@link setColours}. */
  setPoints(x: Float32Array, y: Float32Array, colour: readonly [number, number, number, number]): void {
    const { gl } = this
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
    const { gl, canvas, program } = this
    gl.viewport(0, 0, canvas.width, canvas.height)
    gl.clearColor(0, 0, 0, 0)
    gl.clear(gl.COLOR_BUFFER_BIT)
    if (this.count === 0) return
    gl.useProgram(program)
    gl.enable(gl.BLEND)
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
    for (const [name, buffer] of [
      ['px', this.xs],
      ['py', this.ys],
    ] as const) {
      const at = gl.getAttribLocation(program, name)
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer)
      gl.enableVertexAttribArray(at)
      gl.vertexAttribPointer(at, 1, gl.FLOAT, false, 0, 0)
    }
    const colour = gl.getAttribLocation(program, 'colour')
    if (this.plain) {
      // A disabled attribute array reads its constant value for every vertex.
      gl.disableVertexAttribArray(colour)
      gl.vertexAttrib4f(colour, ...this.plain)
    } else {
      gl.bindBuffer(gl.ARRAY_BUFFER, this.colours)
      gl.enableVertexAttribArray(colour)
      gl.vertexAttribPointer(colour, 4, gl.UNSIGNED_BYTE, true, 0, 0)
    }
    gl.uniform2f(gl.getUniformLocation(program, 'centre'), view.cx, view.cy)
    // Data y grows upwards on screen, as on any chart.
    gl.uniform2f(gl.getUniformLocation(program, 'pixelsToClip'), 2 / canvas.width, 2 / canvas.height)
    gl.uniform1f(gl.getUniformLocation(program, 'scale'), view.scale * (window.devicePixelRatio || 1))
    gl.uniform1f(gl.getUniformLocation(program, 'size'), size * (window.devicePixelRatio || 1))
    gl.drawArrays(gl.POINTS, 0, this.count)
  }

  dispose(): void {
    const { gl } = this
    gl.deleteBuffer(this.xs)
    gl.deleteBuffer(this.ys)
    gl.deleteBuffer(this.colours)
    gl.deleteProgram(this.program)
  }
}

function link(gl: WebGLRenderingContext, vertex: string, fragment: string): WebGLProgram {
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
