/**
 * Embedding-map benchmark (a section of `npm run bench`): BENCH_MAP_ROWS rows (1,000,000) × BENCH_MAP_DIM-d
 * vectors (768), generated once into the cache directory.
 *
 * - PCA coordinates (`mapColumn`: the even sample, the fit, one streaming scan placing every row) vs a bare
 *   @lancedb/lancedb scan of the vector column, in the same run (ABBA reps). Target ≤ 1.5×.
 * - Peak RSS of the map job in its own process (`mapJob.ts`: the coordinates made and encoded as the app keeps
 *   them); this process also holds the bare scans' read-ahead, so its own peak is shown as an upper bound. Target < 1 GB.
 * - In headless Chromium through the harness (needs `npm run build`): first paint once the coordinates exist (the
 *   map opened a second time, answered from the side cache: Map clicked → points drawn, read back), and the frame
 *   time of a zoom (one wheel event → the draw finished, a pixel read back). Targets ≤ 1 s, ≤ 16 ms.
 *   Beside it, what is ours in a frame (the wheel handler's JS, the density image binned and put), and one
 *   more opening split into its steps by the app's performance marks (`map:*`, MapPanel.tsx and useMap.ts).
 * - On a blank page of the same Chromium (mapLibs.ts): a bare WebGL draw, our GL-points scatter, our density image
 *   (as the app puts it on a 2D canvas, and as a WebGL texture), regl-scatterplot and deck.gl's ScatterplotLayer
 *   drawing as many points on a canvas of the map's size — first draw and zoom frame —
 *   so the drawing library is chosen by measurement (issue #22) and the app's frame read as a ratio to the bare draw.
 *
 * BENCH_MAP_PARTS (default `pca,paint,libs`) picks the parts; `libs` alone needs no table (BENCH_MAP_ROWS points).
 * BENCH_MAP_LIB_ROUNDS (2) × BENCH_MAP_LIB_FRAMES (10) size the library comparison; BENCH_MAP_LIBS (all) names its drawers.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { mapColumn } from '../../src/core/map'
import { startHarness } from '../../src/harness/server'
import { BENCH_TABLE, bareVectorScan, ensureRowsCatalog, openRowsTable } from './data'
import { chosenLibs, compareLibraries, LIB_NAMES, LIBS, libraryRows, type LibComparison } from './mapLibs'
import { compare, loadAverages, count, envInt, median, ms, ratio, verdict, type BenchContext, type Report, type ResultTable, type Section } from './lib'

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run']

/**
 * In the page: a function reading one pixel of the points canvas back, which waits for its drawing to finish —
 * from whichever context the map's drawer took (drawer.ts: a 2D one for the density image, WebGL for GL points; a
 * canvas gives null for the other kind). Its leading `;` ends the statement before it (no automatic semicolon
 * before a line starting with `(`).
 */
const READ_PIXEL = `;((canvas) => {
  const ctx = canvas.getContext('2d')
  if (ctx) return ctx.getImageData(0, 0, 1, 1)
  const gl = canvas.getContext('webgl')
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4))
})`

/** In the page: whether the points canvas has a drawn pixel (read back). A string: this file has no DOM types. */
const DRAWN = `(() => {
  const canvas = document.querySelector('[data-testid="map-points"]')
  if (!canvas || canvas.width === 0) return false
  const copy = document.createElement('canvas')
  copy.width = canvas.width
  copy.height = canvas.height
  const ctx = copy.getContext('2d')
  ctx.drawImage(canvas, 0, 0)
  const data = ctx.getImageData(0, 0, copy.width, copy.height).data
  for (let k = 3; k < data.length; k += 4) if (data[k] !== 0) return true
  return false
})()`

/**
 * In the page: 30 zooms (one wheel event each), each timed until its draw has finished (reading a pixel back
 * waits for it), or — `drawn` false — without that read: the JS of a frame (handler, overlay, the density image
 * binned and put: since the map draws a density image, nearly all of the frame is ours).
 */
const zoomFrames = (drawn: boolean) => `(async () => {
  const overlay = document.querySelector('[data-testid="map-overlay"]')
  const canvas = document.querySelector('[data-testid="map-points"]')
  const box = overlay.getBoundingClientRect()
  const times = []
  for (let i = 0; i < 30; i++) {
    const started = performance.now()
    overlay.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 100 : -100, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true }))
    ${drawn ? '' : 'times.push(performance.now() - started)'}
    ${READ_PIXEL}(canvas)
    ${drawn ? 'times.push(performance.now() - started)' : ''}
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
  return times
})()`
const FRAMES = zoomFrames(true)
const FRAMES_JS = zoomFrames(false)

/**
 * In the page, installed before Map is clicked: when the map marks its first draw queued (`map:drawn`, see
 * MapPanel.tsx), one pixel is read back (waiting for the GPU work) and marked; `window.mapSplit` resolves to every
 * mark since the click, so the first paint can be split into its steps.
 */
const SPLIT_WATCH = `(() => {
  performance.clearMarks()
  document.addEventListener('click', () => performance.mark('bench:click'), { capture: true, once: true })
  window.mapSplit = new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntries().some((e) => e.name === 'map:drawn')) return
      observer.disconnect()
      ${READ_PIXEL}(document.querySelector('[data-testid="map-points"]'))
      performance.mark('bench:pixels')
      resolve(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))
    })
    observer.observe({ type: 'mark' })
  })
})()`

/** The steps of the first paint, named by the marks that end them (tests/bench/map.ts's SPLIT_WATCH). */
const SPLIT_STEPS: [string, string][] = [
  ['bench:click', 'click → map/start sent (React: the panel mounts, the job hook starts)'],
  ['map:start', 'map/start answered from the side cache (summary read) → job done seen'],
  ['map:done', 'map/coords: the kept coordinates read and carried (Arrow IPC bytes)'],
  ['map:coords', 'decode (tableFromIPC) and bounds pass (Points)'],
  ['map:points', 'React renders the canvas; its size effect runs'],
  ['map:canvas', 'the drawer made (drawer.ts: its context; the WebGL probe ran at the page\'s first map, not here)'],
  ['map:program', 'points handed to the drawer (GL points: uploaded; the image: kept)'],
  ['map:uploaded', 'the first frame (the image: fit, one pass over the points, putImageData; GL points: the draw queued)'],
  ['map:drawn', 'until one pixel is read back'],
]

/** The map job (PCA, or UMAP with its sample size) once in its own process: its peak RSS and time. */
export async function jobInOwnProcess(root: string, umapSample?: number): Promise<{ rows: number; ms: number; maxRssMiB: number }> {
  const method = umapSample === undefined ? ['pca'] : ['umap', String(umapSample)]
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(__dirname, 'mapJob.ts'), root, ...method], { maxBuffer: 1 << 20 })
  return JSON.parse(stdout.trim().split('\n').pop()!) as { rows: number; ms: number; maxRssMiB: number }
}

/** The map's canvas size in the 1400×900 window (measured by the paint part), for the library comparison run alone. */
const CANVAS_FALLBACK: [number, number] = [546, 648]

async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_MAP_ROWS', 1_000_000)
  const dim = envInt('BENCH_MAP_DIM', 768)
  const reps = envInt('BENCH_MAP_REPS', 3)
  const libFrames = envInt('BENCH_MAP_LIB_FRAMES', 10)
  const libRounds = envInt('BENCH_MAP_LIB_ROUNDS', 2)
  const parts = new Set((process.env.BENCH_MAP_PARTS ?? 'pca,paint,libs').split(',').map((p) => p.trim()))
  const loadStart = loadAverages()
  const notes: string[] = []
  const tableRows: (string | number)[][] = []
  let placed = rows

  let root: string | null = null
  if (parts.has('pca') || parts.has('paint')) root = await ensureRowsCatalog(context, { rows, dim })
  if (parts.has('pca') && root) {
    const { client, table, version, ref, close } = await openRowsTable(root)
    const loadBefore = loadAverages()
    context.log('map: PCA coordinates vs a bare scan of the vector column')
    const pca = await compare(
      async () => {
        placed = (await mapColumn(client, ref, version, 'vector')).summary.rows
      },
      () => bareVectorScan(table, rows),
      { reps, warmup: 1 },
    )
    const rssMb = process.resourceUsage().maxRSS / 1024
    const loadAfter = loadAverages()
    await close()
    context.log('map: the job alone in its own process (peak RSS)')
    const job = await jobInOwnProcess(root)
    if (job.rows !== placed) throw new Error(`the job in its own process placed ${job.rows} rows, not ${placed}`)
    notes.push(
      `PCA: ${reps} reps (ABBA), medians; load average ${loadBefore} before the reps, ${loadAfter} after.`,
      `Reps (ours / bare): ${pca.reps.map((r) => `${ms(r.ours)} / ${ms(r.bare)} ms = ${ratio(r.ratio)}`).join('; ')}.`,
      `The job alone in its own process: ${ms(job.ms)} ms, peak RSS ${job.maxRssMiB.toFixed(0)} MiB; the bench process (the job, the bare scans' read-ahead and the bench's state): ${rssMb.toFixed(0)} MiB.`,
    )
    tableRows.push(
      ['PCA coordinates vs a bare scan of the vector column (ms)', ms(pca.ours), ms(pca.bare), ratio(pca.ratio), verdict(pca.ratio, 1.5)],
      ['peak RSS of the map job in its own process (MiB)', job.maxRssMiB.toFixed(0), '—', `${job.maxRssMiB.toFixed(0)} MiB`, job.maxRssMiB < 1000 ? 'ok (< 1 GB)' : '**over** (target < 1 GB)'],
    )
  }

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  let canvasSize = CANVAS_FALLBACK
  let paintRows: (string | number)[][] = []
  let libs: LibComparison | null = null
  let appFrame: number | null = null
  try {
    if (parts.has('paint') && root) {
      context.log('map: first paint and frame time in Chromium')
      const harness = await startHarness({ root })
      try {
        const paint = await paintInApp(browser, harness.url, reps, context.dir)
        canvasSize = paint.canvasSize
        placed = paint.points
        const split = paint.split
        appFrame = median(paint.frames)
        notes.push(
          `First paints (ms) of ${count(placed)} points on the map's ${canvasSize[0]}×${canvasSize[1]} canvas: ${paint.paints.map((t) => t.toFixed(0)).join(', ')}. One more opening split by performance marks (ms): ${split.map(([step, t]) => `${step} ${t.toFixed(0)}`).join('; ')}.`,
          `Screenshots of the map: ${join(context.dir, 'map-plain.png')}, ${join(context.dir, 'map-coloured.png')}.`,
          `Zoom frames (ms, in order): ${paint.frames.map((t) => t.toFixed(0)).join(', ')}; our JS per frame (no wait for the draw): median ${ms(median(paint.framesJs))}. Coloured by \`score\`: ${paint.framesColoured.map((t) => t.toFixed(0)).join(', ')}.`,
        )
        const drawer = paint.drawer === 'image' ? 'density image' : paint.drawer === 'points' ? 'GL points' : paint.drawer
        paintRows = [
          [`first paint, coordinates kept, drawer chosen automatically (here: ${drawer}): Map clicked → points drawn (ms)`, ms(median(paint.paints)), '—', ms(median(paint.paints)), median(paint.paints) <= 1000 ? 'ok (≤ 1 s)' : '**over** (target ≤ 1 s)'],
          ['zoom frame: wheel → draw finished, median of 30 (ms)', ms(median(paint.frames)), '—', ms(median(paint.frames)), median(paint.frames) <= 16 ? 'ok (≤ 16 ms)' : '**over** (target ≤ 16 ms)'],
          [`our JS per zoom frame (wheel handler, overlay, ${paint.drawer === 'image' ? 'the density image binned and put' : 'the GL draw call'}), median of 30 (ms)`, ms(median(paint.framesJs)), '—', ms(median(paint.framesJs)), '—'],
          ['zoom frame coloured by a column (`score`, a colour per point), median of 30 (ms)', ms(median(paint.framesColoured)), '—', ms(median(paint.framesColoured)), median(paint.framesColoured) <= 16 ? 'ok (≤ 16 ms)' : '**over** (target ≤ 16 ms)'],
        ]
        for (const [step, t] of split) paintRows.push([`first paint step: ${step} (ms)`, t.toFixed(0), '—', '—', '—'])
      } finally {
        await harness.close()
      }
    }
    if (parts.has('libs')) {
      context.log('map: drawing libraries on a blank page')
      libs = await compareLibraries(browser, { points: placed, width: canvasSize[0], height: canvasSize[1], frames: libFrames, rounds: libRounds, libs: chosenLibs(), log: context.log })
    }
  } finally {
    await browser.close()
  }
  if (libs && appFrame !== null) {
    // The app's frame beside the bare draw measured on the blank page in the same run.
    const bare = median(libs.results.bare.frames)
    paintRows[1]![2] = ms(bare)
    paintRows[1]![3] = `${ms(appFrame)} (${ratio(appFrame / bare)} the bare draw)`
  }
  tableRows.push(...paintRows)
  notes.unshift(`${count(rows)} rows × ${dim}-d vectors (${count(placed)} placed); parts ${[...parts].join(', ')}; load average ${loadStart} at the start, ${loadAverages()} at the end, on this machine's shared cores.`)
  notes.push(
    'The app chooses its drawer per canvas (src/renderer/features/map/drawer.ts): GL points (glPoints.ts) where WebGL runs on a GPU, else a density image binned on the CPU each frame and put on a 2D canvas (density.ts, densityCanvas.ts). Headless Chromium\'s WebGL is SwiftShader (software), so the app rows above measure the density image, and the bare WebGL draw it is compared with runs in software too; the library comparison below keeps our GL-points scatter (`ours`), the drawer a GPU machine gets.',
  )
  const tables: ResultTable[] = []
  if (tableRows.length > 0) tables.push({ title: 'Embedding map', columns: ['measure', 'ours', 'bare', 'ratio / value', 'verdict'], rows: tableRows })
  if (libs) {
    notes.push(
      `Drawing libraries: ${count(placed)} points on a ${canvasSize[0]}×${canvasSize[1]} canvas, each in a fresh blank page, ${libRounds} rounds in rotated order × ${libFrames} zoom frames; medians. Page bundle (esbuild, minified, every drawer): ${(libs.bytes / 1024).toFixed(0)} KiB.`,
      ...LIBS.filter((lib) => libs!.results[lib].firsts.length > 0).map((lib) => `${LIB_NAMES[lib]}: first draws ${libs!.results[lib].firsts.map((t) => t.toFixed(0)).join(', ')} ms; frames ${libs!.results[lib].frames.map((t) => t.toFixed(0)).join(', ')} ms.`),
    )
    tables.push({ title: 'Embedding map: drawing libraries on a blank page (same points, canvas, point size)', columns: ['drawer', 'first draw (ms)', 'vs bare', 'zoom frame (ms)', 'vs bare', 'pixels drawn'], rows: libraryRows(libs) })
  }
  return { notes, tables }
}

/** In the app through the harness: first paints (coordinates kept), their split, zoom frames. */
/** `shots`: where to put screenshots of the map (plain and coloured), to look at the picture the numbers are of. */
async function paintInApp(browser: Browser, url: string, reps: number, shots: string) {
  // The app's CSP forbids eval; the probes below are strings (this file has no DOM types).
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
  try {
    await page.goto(url)
    await page.getByRole('treeitem', { name: 'bench' }).click()
    await page.getByRole('treeitem', { name: BENCH_TABLE.name, exact: true }).click()
    const mapButton = page.getByRole('button', { name: 'Map', exact: true })
    // The first opening makes the coordinates (kept); each later one measures the paint.
    await mapButton.click()
    await page.getByTestId('map-points').waitFor({ timeout: 600_000 })
    await mapButton.click()
    const paints: number[] = []
    for (let i = 0; i < reps; i++) {
      const started = Date.now()
      await mapButton.click()
      for (let tries = 0; !(await page.evaluate(DRAWN)); tries++) if (tries > 2000) throw new Error('the map never drew its points')
      paints.push(Date.now() - started)
      await mapButton.click()
    }
    // One more opening, split by the app's performance marks.
    await page.evaluate(SPLIT_WATCH)
    await mapButton.click()
    const marks = new Map((await page.evaluate('window.mapSplit')) as [string, number][])
    const split: [string, number][] = []
    for (let k = 0; k < SPLIT_STEPS.length; k++) {
      const [from, step] = SPLIT_STEPS[k]!
      const to = SPLIT_STEPS[k + 1]?.[0] ?? 'bench:pixels'
      const a = marks.get(from)
      const b = marks.get(to)
      if (a !== undefined && b !== undefined) split.push([step, b - a])
    }
    const total = (marks.get('bench:pixels') ?? NaN) - (marks.get('bench:click') ?? NaN)
    split.push(['total, click → pixels read back', total])
    const frames = (await page.evaluate(FRAMES)) as number[]
    const framesJs = (await page.evaluate(FRAMES_JS)) as number[]
    // Measured before the legend appears above the canvas (and shortens it).
    const canvasSize = (await page.evaluate(`(() => { const c = document.querySelector('[data-testid="map-points"]'); return [c.width, c.height] })()`)) as [number, number]
    await page.getByRole('button', { name: 'Fit' }).click()
    await page.getByRole('region', { name: 'Embedding map' }).screenshot({ path: join(shots, 'map-plain.png') })
    // Coloured by a column (a colour per point: the density image keeps a colour per pixel too), once its legend shows.
    await page.getByRole('combobox', { name: 'Colour by' }).selectOption('score')
    await page.getByRole('list', { name: 'Legend' }).waitFor({ timeout: 600_000 })
    const framesColoured = (await page.evaluate(FRAMES)) as number[]
    await page.getByRole('button', { name: 'Fit' }).click()
    await page.getByRole('region', { name: 'Embedding map' }).screenshot({ path: join(shots, 'map-coloured.png') })
    const points = Number(await page.getByTestId('map-points').getAttribute('data-points'))
    const drawer = (await page.getByTestId('map-points').getAttribute('data-drawer')) ?? '?'
    return { paints, split, frames, framesJs, framesColoured, canvasSize, points, drawer }
  } finally {
    await page.close()
  }
}

export const section: Section = { title: 'Embedding map', run }
