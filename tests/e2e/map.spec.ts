import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page, Route } from '@playwright/test'
import { Float32, Float64, Int32, Utf8, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf, timestampsMicro } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * The embedding map: `points` has 5,000 rows of 16-d vectors in two tight clusters (even rows one, odd rows the
 * other), an `id` equal to the row's offset and a `side` label naming the cluster. A lasso around one cluster holds
 * 2,500 rows: more than a `_rowoffset IN (…)` filter could name (~2,000), so it goes through a row set.
 */
const ROWS = 5000
const DIM = 16
const SCREENSHOTS = join(__dirname, '..', '..', 'resources', 'screenshots')
let dir: string
let root: string

function pointsTable() {
  const random = seededRandom(3)
  const values = new Float32Array(ROWS * DIM)
  for (let i = 0; i < ROWS; i++) for (let k = 0; k < DIM; k++) values[i * DIM + k] = (i % 2 === 0 ? (k < 8 ? 5 : 0) : k < 8 ? 0 : 5) + (random() - 0.5)
  return tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i), new Int32()),
      side: vectorFromArray(Array.from({ length: ROWS }, (_, i) => (i % 2 === 0 ? 'left' : 'right')), new Utf8()),
      score: vectorFromArray(Array.from({ length: ROWS }, (_, i) => i / 3), new Float64()),
      vec: { vector: float32Vectors(values, DIM), nullable: false },
    }),
  ])
}

/**
 * `spread`: 4,000 points spread evenly over a square (two strong random axes), with a `taken` timestamp (µs, UTC)
 * one minute apart from 2025-06-01, a float32 `ratio` of 0.1 … 0.9, a skewed `bytes` (e^(10u): most values small,
 * a few up to 22,026), `kind20` with 20 values and `kind25` with 25 (160 rows each).
 */
const SPREAD = 4000
const TAKEN_FROM = Date.UTC(2025, 5, 1)
function spreadTable() {
  const random = seededRandom(11)
  const values = new Float32Array(SPREAD * DIM)
  for (let i = 0; i < SPREAD; i++) for (let k = 0; k < DIM; k++) values[i * DIM + k] = k < 2 ? random() * 10 : random() * 0.01
  return tableOf([
    batchOf({
      id: vectorFromArray(Array.from({ length: SPREAD }, (_, i) => i), new Int32()),
      taken: timestampsMicro(BigInt64Array.from({ length: SPREAD }, (_, i) => BigInt(TAKEN_FROM + i * 60_000) * 1000n)),
      ratio: vectorFromArray(Array.from({ length: SPREAD }, (_, i) => ((i % 9) + 1) / 10), new Float32()),
      bytes: vectorFromArray(Array.from({ length: SPREAD }, () => Math.exp(10 * random())), new Float64()),
      kind20: vectorFromArray(Array.from({ length: SPREAD }, (_, i) => `k${String(i % 20).padStart(2, '0')}`), new Utf8()),
      kind25: vectorFromArray(Array.from({ length: SPREAD }, (_, i) => `k${String(i % 25).padStart(2, '0')}`), new Utf8()),
      vec: { vector: float32Vectors(values, DIM), nullable: false },
    }),
  ])
}

/** `rows` vectors of DIM whose element k of row i is `element(i, k)`: on one line, or all the same. */
function degenerateTable(rows: number, element: (i: number, k: number) => number) {
  const values = new Float32Array(rows * DIM)
  for (let i = 0; i < rows; i++) for (let k = 0; k < DIM; k++) values[i * DIM + k] = element(i, k)
  return tableOf([batchOf({ vec: { vector: float32Vectors(values, DIM), nullable: false } })])
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await makeTempDir('lcb-e2e-map-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'points', data: pointsTable() },
      { namespace: [], name: 'spread', data: spreadTable() },
      { namespace: [], name: 'line', data: degenerateTable(200, (i, k) => (i - 100) * (k + 1)) },
      { namespace: [], name: 'same', data: degenerateTable(50, (_, k) => k) },
    ],
  })
  await mkdir(SCREENSHOTS, { recursive: true })
})
test.afterAll(async () => {
  await removeDir(dir)
})

let harness: Harness
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

/**
 * The drawn pixels of the points canvas (read back): how many, their box, one at the far left (CSS pixels), and per
 * half of the picture (left and right of its middle) how many and whether they are more red than blue.
 */
async function drawnPixels(page: Page): Promise<{ count: number; box: { minX: number; maxX: number; minY: number; maxY: number }; left: [number, number]; halves: { count: number; redder: boolean }[] }> {
  return page.getByTestId('map-points').evaluate((canvas: HTMLCanvasElement) => {
    const copy = document.createElement('canvas')
    copy.width = canvas.width
    copy.height = canvas.height
    const ctx = copy.getContext('2d')!
    ctx.drawImage(canvas, 0, 0)
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height)
    const ratio = canvas.width / canvas.clientWidth
    let count = 0
    const box = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity }
    let left: [number, number] = [-1, -1]
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue
      const p = i / 4
      const x = (p % copy.width) / ratio
      const y = Math.floor(p / copy.width) / ratio
      if (x < box.minX) left = [x, y]
      box.minX = Math.min(box.minX, x)
      box.maxX = Math.max(box.maxX, x)
      box.minY = Math.min(box.minY, y)
      box.maxY = Math.max(box.maxY, y)
      count++
    }
    // A second pass, now that the picture's middle is known.
    const middle = (box.minX + box.maxX) / 2
    const halves = [0, 1].map(() => ({ count: 0, red: 0, blue: 0 }))
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! === 0) continue
      const half = halves[(i / 4) % copy.width / ratio < middle ? 0 : 1]!
      half.count++
      half.red += data[i]!
      half.blue += data[i + 2]!
    }
    return { count, box, left, halves: halves.map((h) => ({ count: h.count, redder: h.red > h.blue })) }
  })
}

test('Map draws every row; hover shows it, a click selects it, Find similar rows draws lines, the Lasso filters the grid', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 860 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'points')
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const map = page.getByRole('region', { name: 'Embedding map' })
  await expect(map).toBeVisible()
  await expect(map.getByTestId('map-meta')).toContainText(`vec · version 1 · ${ROWS.toLocaleString('en-US')} points`)
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', String(ROWS))
  // The drawer chosen automatically: headless Chromium's WebGL is software, so the density image (drawer.ts).
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-drawer', 'image')
  await expect.poll(async () => (await drawnPixels(page)).count).toBeGreaterThan(20)
  const { box: drawn, left, halves } = await drawnPixels(page)
  // Two clusters far apart along the first axis: the picture spans most of the canvas's width, with an empty middle.
  const size = (await map.getByTestId('map-points').boundingBox())!
  expect(drawn.maxX - drawn.minX).toBeGreaterThan(size.width * 0.5)
  // Both clusters drawn (the density image covers every point, not a sample), each as a blob of pixels.
  for (const half of halves) expect(half.count).toBeGreaterThan(50)
  const first = left

  // Hover: the row's values.
  const overlay = map.getByTestId('map-overlay')
  const box = (await overlay.boundingBox())!
  await page.mouse.move(box.x + first[0] + 1, box.y + first[1] + 1)
  const tooltip = map.getByRole('tooltip')
  await expect(tooltip).toContainText(/Row [\d,]+/)
  await expect(tooltip).toContainText(/side: (left|right)/)

  // Click: the row is selected in the grid (its id is its offset).
  await page.mouse.click(box.x + first[0] + 1, box.y + first[1] + 1)
  const selectedNote = map.getByRole('status', { name: 'Selected point' })
  await expect(selectedNote).toContainText(/Row [\d,]+ selected/)
  const rowNumber = Number((await selectedNote.textContent())!.match(/Row ([\d,]+)/)![1]!.replace(/,/g, ''))
  await expect(grid.locator('[role="row"]:has([aria-selected="true"])').first()).toContainText(String(rowNumber - 1))

  // Find similar rows: lines to the 10 nearest.
  await map.getByRole('button', { name: 'Find similar rows' }).click()
  await expect(selectedNote).toContainText('lines to its 10 nearest rows')

  // Colour by a number column: by quantiles (7 colours of 5,000 / 7 points); on the linear scale, a ramp whose ends
  // read as numbers (4999 / 3, to six digits), not a float's 17 digits.
  await map.getByRole('combobox', { name: 'Colour by' }).selectOption('score')
  await expect(map.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveCount(7)
  await map.getByRole('combobox', { name: 'Colour scale' }).selectOption('linear')
  await expect(map.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText(['0', '1666.33'])
  await screenshot(page, 'embedding-map-ramp')
  // Colour by a text column: two categories, with their rows.
  await map.getByRole('combobox', { name: 'Colour by' }).selectOption('side')
  await expect(map.getByRole('list', { name: 'Legend' }).getByRole('listitem')).toHaveText(['left · 2,500', 'right · 2,500'])
  // Each cluster drawn in its own colour (blue and orange): one half of the picture redder than blue, the other not.
  await expect.poll(async () => (await drawnPixels(page)).halves.map((h) => h.redder).sort()).toEqual([false, true])
  await expect(page.getByTestId('row-count')).toHaveText(ROWS.toLocaleString('en-US'))
  const screenshotPath = await screenshot(page, 'embedding-map')
  if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(screenshotPath, join(SCREENSHOTS, 'embedding-map.png'))

  // Lasso around the left half of the picture (one cluster): the grid shows exactly the rows the filter names.
  const lasso = map.getByRole('button', { name: 'Lasso' })
  await lasso.click()
  await expect(lasso).toHaveAttribute('aria-pressed', 'true')
  const midX = (drawn.minX + drawn.maxX) / 2
  // The legend and the note above the canvas moved it down: measure it again (its width, and so x, is unchanged).
  const now = (await overlay.boundingBox())!
  await page.mouse.move(now.x + 2, now.y + 2)
  await page.mouse.down()
  for (const [x, y] of [
    [midX, 2],
    [midX, now.height - 2],
    [2, now.height - 2],
    [2, 2],
  ] as const)
    await page.mouse.move(now.x + x, now.y + y, { steps: 4 })
  // The lasso's count held (a slow disk): until it answers, the table's rows on screen are named the previous result.
  const heldCounts: Route[] = []
  await page.route('**/api/tables/count', async (route) => {
    if ((route.request().postDataJSON() as { view?: { rowSet?: string } }).view?.rowSet) heldCounts.push(route)
    else await route.continue()
  })
  await page.mouse.up()
  const previous = page.getByRole('status', { name: 'Previous result' })
  await expect(previous).toContainText(`the ${ROWS.toLocaleString('en-US')} rows shown are for the whole table. Waiting for the lasso’s ${(ROWS / 2).toLocaleString('en-US')} rows…`)
  await expect(page.getByTestId('row-count-label')).toHaveText('Rows (previous result)')
  await expect.poll(() => heldCounts.length).toBe(1)
  await heldCounts[0]!.continue()
  await page.unroute('**/api/tables/count')
  await expect(previous).toHaveCount(0)
  // The grid shows exactly the cluster's rows: the count, and every row read through the view is of one side.
  const chip = page.getByRole('status', { name: 'Row set' })
  await expect(chip).toContainText(`lasso: ${(ROWS / 2).toLocaleString('en-US')} rows of version 1`)
  await expect(page.getByTestId('row-count')).toHaveText((ROWS / 2).toLocaleString('en-US'))
  const sideCells = grid.getByRole('gridcell').filter({ hasText: /^(left|right)$/ })
  const sidesShown = async () => [...new Set(await sideCells.allTextContents())]
  await expect.poll(async () => (await sidesShown()).length).toBe(1)
  const side = (await sidesShown())[0]!
  // The filter box's predicate ANDs with the lasso's rows: ids below 100 of that cluster are 50.
  const filterBox = page.getByRole('textbox', { name: 'Filter rows' })
  await filterBox.fill('id < 100')
  await filterBox.press('Enter')
  await expect(page.getByTestId('row-count')).toHaveText('50')
  await expect.poll(sidesShown).toEqual([side])
  // The Summary describes the same rows: the lasso's that match the filter (one side only).
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByTestId('summary-meta')).toHaveText('Version 1 · filtered · lasso · 50 rows')
  await expect(summary.getByText('Rows in the map’s lasso that match')).toBeVisible()
  const sideRow = summary.getByRole('row', { name: 'side' })
  await expect(sideRow).toContainText(side)
  await expect(sideRow).not.toContainText(side === 'left' ? 'right' : 'left')
  await screenshot(page, 'summary-of-lasso')
  await summary.getByRole('button', { name: 'Close summary' }).click()
  // Clearing the lasso returns to the table (the filter stays), clearing the filter to every row.
  await chip.getByRole('button', { name: 'Clear the lasso' }).click()
  await expect(chip).toBeHidden()
  await expect(page.getByTestId('row-count')).toHaveText('100')
  await filterBox.fill('')
  await expect(page.getByTestId('row-count')).toHaveText(ROWS.toLocaleString('en-US'))

  // UMAP on a sample the user sizes: an out-of-bounds size is refused in words, 1,000 is taken on Enter; every row
  // is drawn (the rest placed by their nearest sample rows) and the map says which method and sample made it.
  await expect(map.getByTestId('map-meta')).toContainText('· PCA')
  await map.getByRole('combobox', { name: 'Map method' }).selectOption('umap')
  const sampleField = map.getByRole('textbox', { name: 'UMAP sample rows' })
  await sampleField.fill('50')
  await expect(map.getByRole('alert').filter({ hasText: '1,000 to 20,000 rows' })).toBeVisible()
  await sampleField.fill('1000')
  // The progress line says the step in words while the layout is fitted. Looked at on every animation frame (the
  // step lasts many), not at growing intervals, so a fast fit cannot slip between two looks.
  const saidEpoch = page.waitForFunction(() => /Fitting UMAP: epoch \d+ of 200/.test(document.querySelector('[aria-label="Map progress"]')?.textContent ?? ''), undefined, {
    polling: 'raf',
  })
  await sampleField.press('Enter')
  await saidEpoch
  await expect(map.getByTestId('map-meta')).toContainText(`${ROWS.toLocaleString('en-US')} points · UMAP of a 1,000-row sample`)
  await expect(map.getByTestId('map-note')).toContainText('UMAP of 1,000 sample rows')
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', String(ROWS))
  await expect.poll(async () => (await drawnPixels(page)).count).toBeGreaterThan(20)

  // The GL-points drawer forced (localStorage lcb.map.drawer, read when a map's canvas is made; asked without
  // failIfMajorPerformanceCaveat, so headless Chromium's software GL gives it): the kept PCA map, reopened, draws
  // both clusters as GL points.
  await page.evaluate(() => localStorage.setItem('lcb.map.drawer', 'points'))
  await map.getByRole('button', { name: 'Close map' }).click()
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const canvas = map.getByTestId('map-points')
  await expect(canvas).toHaveAttribute('data-drawer', 'points')
  await expect(map.getByTestId('map-meta')).toContainText('· PCA')
  await expect.poll(async () => (await drawnPixels(page)).count).toBeGreaterThan(20)
  const gl = await drawnPixels(page)
  expect(gl.box.maxX - gl.box.minX).toBeGreaterThan(size.width * 0.5)
  for (const half of gl.halves) expect(half.count).toBeGreaterThan(50)
})

/**
 * Per legend entry (by its swatch's colour), the share of the drawn pixels nearest to that colour; pixels far
 * from every legend colour are left out. The density image keeps each pixel's last point's colour, so on points
 * spread evenly a colour's share of pixels is about its share of points.
 */
async function legendShares(page: Page): Promise<{ colour: string; share: number }[]> {
  const colours = await page.getByRole('list', { name: 'Legend' }).locator('[data-colour]').evaluateAll((spans) => spans.map((s) => s.getAttribute('data-colour')!))
  return page.getByTestId('map-points').evaluate((canvas: HTMLCanvasElement, legend: string[]) => {
    const rgb = legend.map((c) => c.match(/\d+/g)!.map(Number))
    const copy = document.createElement('canvas')
    copy.width = canvas.width
    copy.height = canvas.height
    const ctx = copy.getContext('2d')!
    ctx.drawImage(canvas, 0, 0)
    const { data } = ctx.getImageData(0, 0, copy.width, copy.height)
    const counts = legend.map(() => 0)
    let total = 0
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! < 128) continue
      total++
      let best = -1
      let bestDistance = 24 * 24 * 3
      rgb.forEach(([r, g, b], k) => {
        const d = (data[i]! - r!) ** 2 + (data[i + 1]! - g!) ** 2 + (data[i + 2]! - b!) ** 2
        if (d < bestDistance) {
          bestDistance = d
          best = k
        }
      })
      if (best >= 0) counts[best]!++
    }
    return legend.map((colour, k) => ({ colour, share: total ? counts[k]! / total : 0 }))
  }, colours)
}

/** The `spread` table's map, drawn. */
async function openSpread(page: Page) {
  await page.setViewportSize({ width: 1400, height: 900 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'spread')
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const map = page.getByRole('region', { name: 'Embedding map' })
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', String(SPREAD))
  await expect.poll(async () => (await drawnPixels(page)).count).toBeGreaterThan(1000)
  return { grid, map, colourBy: map.getByRole('combobox', { name: 'Colour by' }), legend: map.getByRole('list', { name: 'Legend' }), caption: map.getByTestId('map-legend-caption') }
}

test('vectors on one line: the first axis explains all the variance, not more; vectors all the same: said so', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'line')
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const map = page.getByRole('region', { name: 'Embedding map' })
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', '200')
  await expect(map.getByTestId('map-note')).toHaveText(`PCA of ${DIM}-d vectors: axes explain 100% and 0%.`)
  await openTable(page, [], 'same')
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', '50')
  await expect(map.getByTestId('map-note')).toHaveText(`PCA of ${DIM}-d vectors: the sampled vectors are all the same, so every row is drawn at one point.`)
})

test('a skewed number is coloured by quantiles: seven colours, each a real share of the picture; linear stays a choice', async ({ page }) => {
  const { map, colourBy, legend, caption } = await openSpread(page)
  // Seven colours by quantiles, each naming the values it holds and its ~571 points; each colour holds a real share
  // of the picture (a linear ramp paints most of it the first colour's shade).
  await colourBy.selectOption('bytes')
  await expect(caption).toContainText('By quantiles: 7 colours')
  await expect(legend.getByRole('listitem')).toHaveCount(7)
  for (const text of await legend.getByRole('listitem').allTextContents()) expect(text).toMatch(/^[\d.,]+ – [\d.,]+ · 57[12]$/)
  await expect(legend.getByRole('listitem').first()).toHaveText(/^1(\.\d+)? – /)
  await expect.poll(async () => (await legendShares(page)).filter((c) => c.share > 0.06).length).toBe(7)
  await screenshot(page, 'embedding-map-quantiles')
  // The linear scale stays a choice: its two ends.
  await map.getByRole('combobox', { name: 'Colour scale' }).selectOption('linear')
  await expect(caption).toHaveText('Linear from the minimum to the maximum')
  await expect(legend.getByRole('listitem')).toHaveCount(2)
  await map.getByRole('combobox', { name: 'Colour scale' }).selectOption('quantiles')
  await expect(legend.getByRole('listitem')).toHaveCount(7)
})

test('20 categories take 20 colours; 25 put the least frequent five into a named "other"', async ({ page }) => {
  const { colourBy, legend, caption } = await openSpread(page)
  await colourBy.selectOption('kind20')
  await expect(legend.getByRole('listitem')).toHaveCount(20)
  await expect(legend.getByRole('listitem').filter({ hasText: 'other' })).toHaveCount(0)
  expect(new Set(await legend.locator('[data-colour]').evaluateAll((s) => s.map((e) => e.getAttribute('data-colour'))))).toHaveProperty('size', 20)
  await expect.poll(async () => (await legendShares(page)).filter((c) => c.share > 0.02).length).toBe(20)
  await screenshot(page, 'embedding-map-categories')
  await colourBy.selectOption('kind25')
  await expect(legend.getByRole('listitem')).toHaveCount(21)
  await expect(legend.getByRole('listitem').last()).toHaveText('other (5 values) · 800')
  await expect(caption).toHaveText('The 20 most frequent of 25 values; the rest in grey as “other”')
})

test('the tooltip reads a timestamp and a float32 as the grid shows them', async ({ page }) => {
  const { grid, map } = await openSpread(page)
  // A timestamp as the grid shows it (ISO, microseconds), not epoch digits; a float32 at its own precision
  // (0.1 … 0.9), not widened to 17 digits. The clicked row's grid cells read the same.
  const points = await drawnPixels(page)
  const overlay = map.getByTestId('map-overlay')
  const box = (await overlay.boundingBox())!
  await page.mouse.move(box.x + points.left[0] + 1, box.y + points.left[1] + 1)
  const tooltip = map.getByRole('tooltip')
  await expect(tooltip).toContainText(/ratio: /)
  const text = (await tooltip.textContent())!
  const row = Number(text.match(/Row ([\d,]+)/)![1]!.replace(/,/g, '')) - 1
  const taken = new Date(TAKEN_FROM + row * 60_000).toISOString().replace('Z', '000Z')
  const ratio = String(((row % 9) + 1) / 10)
  await expect(tooltip).toContainText(`taken: ${taken}`)
  await expect(tooltip).toContainText(`ratio: ${ratio}bytes`)
  await page.mouse.click(box.x + points.left[0] + 1, box.y + points.left[1] + 1)
  const selectedRow = grid.locator('[role="row"]:has([aria-selected="true"])').first()
  const cellTexts = async () => (await selectedRow.getByRole('gridcell').allTextContents()).map((t) => t.trim())
  await expect.poll(cellTexts).toContain(taken)
  expect(await cellTexts()).toContain(ratio)
})

test('dragging the dock wider or narrower: the map takes the dock’s new size once the drag ends, every point drawn again', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 860 })
  await openApp(page, harness)
  await openTable(page, [], 'points')
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  const map = page.getByRole('region', { name: 'Embedding map' })
  const points = map.getByTestId('map-points')
  await expect(points).toHaveAttribute('data-points', String(ROWS))
  await expect.poll(async () => (await drawnPixels(page)).count).toBeGreaterThan(20)
  const before = (await points.boundingBox())!.width
  // A drag as a hand makes it: many small moves (while they come, the canvas keeps its size and picture).
  const separator = page.getByRole('separator', { name: 'Resize dock' })
  const grip = (await separator.boundingBox())!
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2)
  await page.mouse.down()
  await page.mouse.move(grip.x + grip.width / 2 - 120, grip.y + grip.height / 2, { steps: 12 })
  await page.mouse.up()
  // Then the canvas fills the map's box again, its pixels match its size, and both clusters are drawn.
  const canvasFitsBox = () =>
    points.evaluate((canvas: HTMLCanvasElement) => {
      const box = canvas.parentElement!.getBoundingClientRect()
      const own = canvas.getBoundingClientRect()
      const ratio = window.devicePixelRatio || 1
      return Math.abs(own.width - box.width) < 1 && Math.abs(own.height - box.height) < 1 && canvas.width === Math.round(box.width * ratio)
    })
  await expect.poll(canvasFitsBox).toBe(true)
  expect((await points.boundingBox())!.width).toBeGreaterThan(before + 60)
  await expect.poll(async () => (await drawnPixels(page)).halves.every((half) => half.count > 50)).toBe(true)
  await screenshot(page, 'map-after-dock-drag')
})
