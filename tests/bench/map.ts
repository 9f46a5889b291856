/**
 * Embedding-map benchmark (a section of `npm run bench`): BENCH_MAP_ROWS rows (1,000,000) × BENCH_MAP_DIM-d
 * vectors (768), generated once into the cache directory.
 *
 * - PCA coordinates (`mapColumn`: the even sample, the fit, one streaming scan placing every row) vs a bare
 *   @lancedb/lancedb scan of the vector column, in the same run (ABBA reps). Target ≤ 1.5×.
 * - Peak RSS of the process after the map runs (it holds the bench's own state too: an upper bound). Target < 1 GB.
 * - In headless Chromium through the harness (needs `npm run build`): first paint once the coordinates exist (the
 *   map opened a second time, answered from the side cache: Map clicked → points drawn, read back), and the frame
 *   time of a zoom (one wheel event → the draw finished, `readPixels` forcing the GPU work). Targets ≤ 1 s, ≤ 16 ms.
 */
import { loadavg } from 'node:os'
import * as lancedb from '@lancedb/lancedb'
import { chromium } from '@playwright/test'
import { mapColumn } from '../../src/core/map'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { startHarness } from '../../src/harness/server'
import { BENCH_TABLE, ensureRowsCatalog } from './data'
import { compare, count, envInt, median, ms, ratio, verdict, type BenchContext, type Report, type Section } from './lib'

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run']

/** In the page: whether the points canvas has a drawn pixel (read back from WebGL). A string: this file has no DOM types. */
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

/** In the page: 30 zooms (one wheel event each), each timed until its draw has finished (readPixels waits for it). */
const FRAMES = `(async () => {
  const overlay = document.querySelector('[data-testid="map-overlay"]')
  const gl = document.querySelector('[data-testid="map-points"]').getContext('webgl')
  const one = new Uint8Array(4)
  const box = overlay.getBoundingClientRect()
  const times = []
  for (let i = 0; i < 30; i++) {
    const started = performance.now()
    overlay.dispatchEvent(new WheelEvent('wheel', { deltaY: i % 2 ? 100 : -100, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2, bubbles: true }))
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, one)
    times.push(performance.now() - started)
    await new Promise((resolve) => requestAnimationFrame(resolve))
  }
  return times
})()`

async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_MAP_ROWS', 1_000_000)
  const dim = envInt('BENCH_MAP_DIM', 768)
  const reps = envInt('BENCH_MAP_REPS', 3)
  const root = await ensureRowsCatalog(context, { rows, dim })
  const client = await DirNamespaceClient.open(root)
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  const version = await table.version()
  const ref = { connectionId: 'bench', namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }

  context.log('map: PCA coordinates vs a bare scan of the vector column')
  let placed = 0
  const pca = await compare(
    async () => {
      placed = (await mapColumn(client, ref, version, 'vector')).summary.rows
    },
    async () => {
      let n = 0
      for await (const batch of table.query().select(['vector'])) n += batch.numRows
      if (n !== rows) throw new Error(`bare scan read ${n} rows`)
    },
    { reps, warmup: 1 },
  )
  const rssMb = process.resourceUsage().maxRSS / 1024
  table.close()
  db.close()
  await client.close()

  context.log('map: first paint and frame time in Chromium')
  const harness = await startHarness({ root })
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const paints: number[] = []
  let frames: number[]
  try {
    // The app's CSP forbids eval; the probes below are strings (this file has no DOM types).
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true })
    await page.goto(harness.url)
    await page.getByRole('treeitem', { name: 'bench' }).click()
    await page.getByRole('treeitem', { name: BENCH_TABLE.name, exact: true }).click()
    const mapButton = page.getByRole('button', { name: 'Map', exact: true })
    // The first opening makes the coordinates (kept); each later one measures the paint.
    await mapButton.click()
    await page.getByTestId('map-points').waitFor({ timeout: 600_000 })
    await mapButton.click()
    for (let i = 0; i < reps; i++) {
      const started = Date.now()
      await mapButton.click()
      for (let tries = 0; !(await page.evaluate(DRAWN)); tries++) if (tries > 2000) throw new Error('the map never drew its points')
      paints.push(Date.now() - started)
      if (i < reps - 1) await mapButton.click()
    }
    frames = (await page.evaluate(FRAMES)) as number[]
  } finally {
    await browser.close()
    await harness.close()
  }
  const paint = median(paints)
  const frame = median(frames)
  return {
    notes: [
      `${count(rows)} rows × ${dim}-d vectors (${count(placed)} placed); ${reps} reps (ABBA), medians; load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} on this machine's shared cores.`,
      'Points drawn with our own WebGL 1 scatter (src/renderer/features/map/scatter.ts); headless Chromium renders WebGL with SwiftShader (software).',
    ],
    tables: [
      {
        title: 'Embedding map',
        columns: ['measure', 'ours', 'bare', 'ratio / value', 'verdict'],
        rows: [
          ['PCA coordinates vs a bare scan of the vector column (ms)', ms(pca.ours), ms(pca.bare), ratio(pca.ratio), verdict(pca.ratio, 1.5)],
          ['peak RSS of the process (MiB)', rssMb.toFixed(0), '—', `${rssMb.toFixed(0)} MiB`, rssMb < 1000 ? 'ok (< 1 GB)' : '**over** (target < 1 GB)'],
          ['first paint, coordinates kept: Map clicked → points drawn (ms)', ms(paint), '—', ms(paint), paint <= 1000 ? 'ok (≤ 1 s)' : '**over** (target ≤ 1 s)'],
          ['zoom frame: wheel → draw finished, median of 30 (ms)', ms(frame), '—', ms(frame), frame <= 16 ? 'ok (≤ 16 ms)' : '**over** (target ≤ 16 ms)'],
        ],
      },
    ],
  }
}

export const section: Section = { title: 'Embedding map', run }
