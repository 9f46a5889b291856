/**
 * The map bench's drawing-library comparison, run in a blank page (bundled by bench/mapLibs.ts with esbuild):
 * the same N points (seeded random in [-1, 1]², x and y as two Float32Arrays, as the map receives them), the same
 * canvas size, point size 3 px and one translucent colour, drawn by
 *
 * - `bare`: a minimal WebGL 1 program (one interleaved buffer, GL points) — SwiftShader's own floor;
 * - `ours`: our GL-points scatter (src/renderer/features/map/glPoints.ts), the app's drawer where WebGL runs on a GPU;
 * - `density2d`: the app's density image (features/map/density.ts) put on a 2D canvas (densityCanvas.ts), its drawer where WebGL is software;
 * - `density`: the same image as a WebGL texture on a quad (densityTexture.ts), the other way to show it;
 * - `regl`: regl-scatterplot (its own camera; draws through a shared WebGL renderer into the canvas's 2D context);
 * - `deck`: deck.gl's ScatterplotLayer in an OrthographicView (WebGL 2, binary attributes: no per-point accessor).
 *
 * Each returns the first draw (from making the drawer with the points in hand until its pixels can be read back:
 * shader compile, upload, draw) and `frames` zoom frames (view changed → drawn → one pixel read back, which waits
 * for the GPU work), plus how many pixels the last frame coloured, so a library that drew nothing is seen.
 */
import { Deck, OrthographicView } from '@deck.gl/core'
import { ScatterplotLayer } from '@deck.gl/layers'
import createScatterplot from 'regl-scatterplot'
import { DensityCanvas } from '../../../src/renderer/features/map/densityCanvas'
import { DensityScatter } from './densityTexture'
import { Scatter } from '../../../src/renderer/features/map/glPoints'

export interface LibResult {
  first: number
  frames: number[]
  /** Pixels with any alpha in the last frame (read back after the timing). */
  drawn: number
}

type Drawer = (n: number, width: number, height: number, frames: number) => Promise<LibResult>

const COLOUR: [number, number, number, number] = [60, 100, 230, 180]
const SIZE = 3

/** Seeded (mulberry32) so every drawer gets the same points. */
function points(n: number): { x: Float32Array; y: Float32Array } {
  let seed = 42
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const x = new Float32Array(n)
  const y = new Float32Array(n)
  for (let i = 0; i < n; i++) {
    x[i] = random() * 2 - 1
    y[i] = random() * 2 - 1
  }
  return { x, y }
}

function canvasOf(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  canvas.style.width = `${width}px`
  canvas.style.height = `${height}px`
  document.body.appendChild(canvas)
  return canvas
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

/**
 * The zoom frames of one drawer: each after the browser's next frame, `zoomOnce(i)` zooms and draws (resolving once
 * the frame is on the canvas, for a drawer that draws on its own loop); returns each frame's time.
 */
async function timeFrames(frames: number, zoomOnce: (i: number) => void | Promise<void>): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < frames; i++) {
    await nextFrame()
    const t = performance.now()
    const drawing = zoomOnce(i)
    // Only an asynchronous drawer is awaited: an await of a plain value would add a microtask to every sync frame.
    if (drawing) await drawing
    times.push(performance.now() - t)
  }
  return times
}

/** Pixels with any alpha on a canvas of any kind (copied through a 2D canvas). */
function drawnPixels(canvas: HTMLCanvasElement): number {
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const ctx = copy.getContext('2d')!
  ctx.drawImage(canvas, 0, 0)
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data
  let drawn = 0
  for (let k = 3; k < data.length; k += 4) if (data[k] !== 0) drawn++
  return drawn
}

/** Zoom factor of frame i: in and out in turn, so the view stays near the whole cloud. */
const zoomOf = (i: number) => (i % 2 ? 1 / 1.25 : 1.25)

const bare: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const one = new Uint8Array(4)
  const started = performance.now()
  const gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: true, premultipliedAlpha: false })!
  const shader = (type: number, source: string) => {
    const s = gl.createShader(type)!
    gl.shaderSource(s, source)
    gl.compileShader(s)
    return s
  }
  const program = gl.createProgram()!
  gl.attachShader(program, shader(gl.VERTEX_SHADER, `attribute vec2 p; uniform vec2 k; void main() { gl_Position = vec4(p * k, 0.0, 1.0); gl_PointSize = ${SIZE.toFixed(1)}; }`))
  gl.attachShader(program, shader(gl.FRAGMENT_SHADER, `precision mediump float; void main() { gl_FragColor = vec4(${COLOUR.map((c) => (c / 255).toFixed(3)).join(', ')}); }`))
  gl.linkProgram(program)
  gl.useProgram(program)
  // The bare page interleaves x and y itself (a GPU-ready layout), inside the timing like any upload.
  const xy = new Float32Array(n * 2)
  for (let i = 0; i < n; i++) {
    xy[i * 2] = x[i]!
    xy[i * 2 + 1] = y[i]!
  }
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer())
  gl.bufferData(gl.ARRAY_BUFFER, xy, gl.STATIC_DRAW)
  const p = gl.getAttribLocation(program, 'p')
  gl.enableVertexAttribArray(p)
  gl.vertexAttribPointer(p, 2, gl.FLOAT, false, 0, 0)
  gl.enable(gl.BLEND)
  gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA)
  // The same square of the canvas as the others fill: the cloud fitted to the shorter side, with a margin.
  let k = 0.9
  const side = Math.min(width, height)
  const draw = () => {
    gl.viewport(0, 0, width, height)
    gl.clear(gl.COLOR_BUFFER_BIT)
    gl.uniform2f(gl.getUniformLocation(program, 'k'), (k * side) / width, (k * side) / height)
    gl.drawArrays(gl.POINTS, 0, n)
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one)
  }
  draw()
  const first = performance.now() - started
  const times = await timeFrames(frames, (i) => {
    k *= zoomOf(i)
    draw()
  })
  return { first, frames: times, drawn: drawnPixels(canvas) }
}

const ours: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const one = new Uint8Array(4)
  const started = performance.now()
  const scatter = new Scatter(canvas)
  scatter.setPoints(x, y, COLOUR)
  const view = { cx: 0, cy: 0, scale: (Math.min(width, height) / 2) * 0.9 }
  const gl = canvas.getContext('webgl')!
  const draw = () => {
    scatter.draw(view, SIZE)
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one)
  }
  draw()
  const first = performance.now() - started
  const times = await timeFrames(frames, (i) => {
    view.scale *= zoomOf(i)
    draw()
  })
  const drawn = drawnPixels(canvas)
  scatter.dispose()
  return { first, frames: times, drawn }
}

const regl: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const started = performance.now()
  const scatterplot = createScatterplot({
    canvas,
    width,
    height,
    pointSize: SIZE,
    // Our map keeps a point's size whatever the zoom (regl-scatterplot's default grows it).
    pointScaleMode: 'constant',
    pointColor: COLOUR.map((c) => c / 255) as [number, number, number, number],
    showReticle: false,
  })
  const ctx = canvas.getContext('2d')!
  // draw() takes the columns (it makes per-point arrays, a state texture and a k-d tree of them) and resolves once
  // its render loop has drawn them into the canvas; reading a pixel waits for that copy.
  await scatterplot.draw({ x, y })
  ctx.getImageData(0, 0, 1, 1)
  const first = performance.now() - started
  let distance = 1 / 0.9
  const times = await timeFrames(frames, async (i) => {
    distance /= zoomOf(i)
    // Draws on its render loop's next animation frame (so a frame here includes up to one frame's wait).
    await scatterplot.zoomToLocation([0, 0], distance, { transition: false })
    ctx.getImageData(0, 0, 1, 1)
  })
  const drawn = drawnPixels(canvas)
  scatterplot.destroy()
  return { first, frames: times, drawn }
}

const deck: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const one = new Uint8Array(4)
  const started = performance.now()
  // deck.gl takes positions interleaved (a binary attribute of size 2); the copy is part of its cost.
  const xy = new Float32Array(n * 2)
  for (let i = 0; i < n; i++) {
    xy[i * 2] = x[i]!
    xy[i * 2 + 1] = y[i]!
  }
  const layer = new ScatterplotLayer({
    id: 'points',
    data: { length: n, attributes: { getPosition: { value: xy, size: 2 } } },
    radiusUnits: 'pixels',
    getRadius: SIZE / 2,
    getFillColor: COLOUR,
    stroked: false,
    antialiasing: false,
  })
  let zoom = Math.log2((Math.min(width, height) / 2) * 0.9)
  let gl: WebGL2RenderingContext | null = null
  let rendered: (() => void) | null = null
  const instance = new Deck({
    canvas,
    width,
    height,
    useDevicePixels: false,
    controller: false,
    views: new OrthographicView({ id: 'map' }),
    viewState: { target: [0, 0, 0], zoom },
    layers: [layer],
    onAfterRender: (context: { gl: WebGL2RenderingContext }) => {
      gl = context.gl
      if (layer.isLoaded) rendered?.()
    },
  })
  await new Promise<void>((resolve) => (rendered = resolve))
  rendered = null
  gl!.readPixels(0, 0, 1, 1, gl!.RGBA, gl!.UNSIGNED_BYTE, one)
  const first = performance.now() - started
  const times = await timeFrames(frames, (i) => {
    zoom += Math.log2(zoomOf(i))
    instance.setProps({ viewState: { target: [0, 0, 0], zoom } })
    instance.redraw('bench')
    gl!.readPixels(0, 0, 1, 1, gl!.RGBA, gl!.UNSIGNED_BYTE, one)
  })
  // Read back a frame drawn now (deck's drawing buffer is not preserved between tasks).
  let drawn = 0
  await new Promise<void>((resolve) => {
    rendered = () => {
      drawn = drawnPixels(canvas)
      resolve()
    }
    instance.redraw('count')
  })
  instance.finalize()
  return { first, frames: times, drawn }
}

/** The app's density image (features/map/density.ts) shown as a WebGL texture on a quad (densityTexture.ts). */
const density: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const one = new Uint8Array(4)
  const started = performance.now()
  const scatter = new DensityScatter(canvas)
  scatter.setPoints(x, y, COLOUR)
  const view = { cx: 0, cy: 0, scale: (Math.min(width, height) / 2) * 0.9 }
  const gl = canvas.getContext('webgl')!
  const draw = () => {
    scatter.draw(view, SIZE)
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one)
  }
  draw()
  const first = performance.now() - started
  const times = await timeFrames(frames, (i) => {
    view.scale *= zoomOf(i)
    draw()
  })
  const drawn = drawnPixels(canvas)
  scatter.dispose()
  return { first, frames: times, drawn }
}

/** The same density image put on a 2D canvas (putImageData), as the app draws it (features/map/densityCanvas.ts). */
const density2d: Drawer = async (n, width, height, frames) => {
  const { x, y } = points(n)
  const canvas = canvasOf(width, height)
  const started = performance.now()
  const drawer = new DensityCanvas(canvas)
  drawer.setPoints(x, y, COLOUR)
  const ctx = canvas.getContext('2d')!
  const view = { cx: 0, cy: 0, scale: (Math.min(width, height) / 2) * 0.9 }
  const draw = () => {
    drawer.draw(view, SIZE)
    ctx.getImageData(0, 0, 1, 1)
  }
  draw()
  const first = performance.now() - started
  const times = await timeFrames(frames, (i) => {
    view.scale *= zoomOf(i)
    draw()
  })
  return { first, frames: times, drawn: drawnPixels(canvas) }
}

declare global {
  interface Window {
    scatterLibs: Record<'bare' | 'ours' | 'density' | 'density2d' | 'regl' | 'deck', Drawer>
  }
}
window.scatterLibs = { bare, ours, density, density2d, regl, deck }
