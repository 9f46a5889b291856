/**
 * The map's points on WebGL: one buffer of positions and one of colours, drawn as GL points with the view (centre
 * and scale) as uniforms, so a pan or zoom is one draw call whatever the number of points — no per-point work on
 * the main thread. WebGL 1, which every Chromium has (headless runs use SwiftShader).
 */
export interface View {
  /** The data point at the canvas's centre. */
  cx: number
  cy: number
  /** Canvas pixels per data unit. */
  scale: number
}

const VERTEX = `
attribute vec2 position;
attribute vec4 colour;
uniform vec2 centre;
uniform vec2 pixelsToClip;
uniform float scale;
uniform float size;
varying vec4 vColour;
void main() {
  gl_Position = vec4((position - centre) * scale * pixelsToClip, 0.0, 1.0);
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
  private readonly positions: WebGLBuffer
  private readonly colours: WebGLBuffer
  private count = 0

  constructor(private readonly canvas: HTMLCanvasElement) {
    const gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: true, premultipliedAlpha: false })
    if (!gl) throw new Error('This window cannot draw with WebGL, which the map needs')
    this.gl = gl
    this.program = link(gl, VERTEX, FRAGMENT)
    this.positions = gl.createBuffer()!
    this.colours = gl.createBuffer()!
  }

  /** Interleaved x, y per point, and RGBA bytes per point. */
  setPoints(xy: Float32Array, colours: Uint8Array): void {
    const { gl } = this
    this.count = xy.length / 2
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positions)
    gl.bufferData(gl.ARRAY_BUFFER, xy, gl.STATIC_DRAW)
    this.setColours(colours)
  }

  setColours(colours: Uint8Array): void {
    const { gl } = this
    gl.bindBuffer(gl.ARRAY_BUFFER, this.colours)
    gl.bufferData(gl.ARRAY_BUFFER, colours, gl.STATIC_DRAW)
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
    const position = gl.getAttribLocation(program, 'position')
    gl.bindBuffer(gl.ARRAY_BUFFER, this.positions)
    gl.enableVertexAttribArray(position)
    gl.vertexAttribPointer(position, 2, gl.FLOAT, false, 0, 0)
    const colour = gl.getAttribLocation(program, 'colour')
    gl.bindBuffer(gl.ARRAY_BUFFER, this.colours)
    gl.enableVertexAttribArray(colour)
    gl.vertexAttribPointer(colour, 4, gl.UNSIGNED_BYTE, true, 0, 0)
    gl.uniform2f(gl.getUniformLocation(program, 'centre'), view.cx, view.cy)
    // Data y grows upwards on screen, as on any chart.
    gl.uniform2f(gl.getUniformLocation(program, 'pixelsToClip'), 2 / canvas.width, 2 / canvas.height)
    gl.uniform1f(gl.getUniformLocation(program, 'scale'), view.scale * (window.devicePixelRatio || 1))
    gl.uniform1f(gl.getUniformLocation(program, 'size'), size * (window.devicePixelRatio || 1))
    gl.drawArrays(gl.POINTS, 0, this.count)
  }

  dispose(): void {
    const { gl } = this
    gl.deleteBuffer(this.positions)
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
