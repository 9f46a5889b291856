import { DensityCanvas } from './densityCanvas'
import { GL_ATTRIBUTES, Scatter } from './glPoints'
import type { View } from './view'

/** How the map's points are drawn: `points` = GL points (glPoints.ts), `image` = a density image (densityCanvas.ts). */
export type DrawerKind = 'points' | 'image'

/** localStorage key forcing a drawer (`points` or `image`; absent or anything else = chosen automatically). */
export const DRAWER_KEY = 'lcb.map.drawer'

/** What the map asks of either drawer. */
export interface Drawer {
  /** x and y per point; every point drawn in `colour` (RGBA bytes) until {@link setColours}. */
  setPoints(x: Float32Array, y: Float32Array, colour: readonly [number, number, number, number]): void
  /** RGBA bytes per point. */
  setColours(colours: Uint8Array): void
  /** One colour (RGBA bytes) for every point. */
  setPlain(colour: readonly [number, number, number, number]): void
  /** `view.scale` in CSS pixels per data unit, `size` in CSS pixels. */
  draw(view: View, size: number): void
  dispose(): void
}

/** The drawer the user forced in localStorage, or null (automatic; also when storage cannot be read). */
export function forcedDrawer(): DrawerKind | null {
  try {
    const value = localStorage.getItem(DRAWER_KEY)
    return value === 'points' || value === 'image' ? value : null
  } catch {
    return null
  }
}

/** Renderer names of software GL: SwiftShader (Chromium's own), Mesa's llvmpipe/softpipe/lavapipe, Windows' WARP. */
const SOFTWARE_RENDERER = /SwiftShader|llvmpipe|softpipe|lavapipe|Software Rasterizer|Basic Render Driver/i

/** The probe's answer, kept: the GPU does not change while the window lives, and each probe makes a context. */
let software: boolean | undefined

/**
 * Whether this window's WebGL is software (or absent), probed once on a scratch canvas so the map's own canvas is
 * still free to give a 2D context. `failIfMajorPerformanceCaveat` alone is not enough: Chromium 150 headless returns
 * a context with it on SwiftShader (ANGLE over Vulkan), so the renderer's name is checked too.
 */
export function softwareGL(): boolean {
  if (software !== undefined) return software
  const gl = document.createElement('canvas').getContext('webgl', { failIfMajorPerformanceCaveat: true })
  if (!gl) return (software = true)
  const info = gl.getExtension('WEBGL_debug_renderer_info')
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER))
  // Contexts are few per page (Chromium keeps ~16): this one is given back at once.
  gl.getExtension('WEBGL_lose_context')?.loseContext()
  return (software = SOFTWARE_RENDERER.test(renderer))
}

/**
 * The drawer for this canvas, chosen once (a canvas keeps the first kind of context it gives). Why two: on a GPU,
 * GL points are the GPU's work (not measured here: our machines have none), while the density image costs 9–20 ms
 * of CPU a frame at 1M points (more on high-DPI screens); in software GL (SwiftShader, llvmpipe, VMs, remote desktops) the same GL draw takes 0.5–1.6 s and the
 * image wins by far. So: GL points where WebGL is hardware ({@link softwareGL} says no, and the canvas gives a
 * context with `failIfMajorPerformanceCaveat`), else the density image on a 2D context of the same canvas (a
 * canvas whose WebGL request returned null still gives one). Forced `points` skips the probe and asks without that
 * flag (so software GL is used too, as in headless tests), still falling back to the image where there is no WebGL
 * at all. Throws when the canvas cannot be drawn on at all.
 */
export function makeDrawer(canvas: HTMLCanvasElement, forced: DrawerKind | null = forcedDrawer()): { drawer: Drawer; kind: DrawerKind } {
  if (forced === 'points' || (forced === null && !softwareGL())) {
    const gl = canvas.getContext('webgl', forced === 'points' ? GL_ATTRIBUTES : { ...GL_ATTRIBUTES, failIfMajorPerformanceCaveat: true })
    if (gl) return { drawer: new Scatter(canvas, gl), kind: 'points' }
  }
  return { drawer: new DensityCanvas(canvas), kind: 'image' }
}
