import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { Float64, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'

/**
 * Header histograms: the **Histograms** toggle draws the view's profile in each grid column header (bars for
 * numbers, top values for text, norms for vectors); a bar filters like the Summary's. The toggle is remembered
 * for the session, and a profiled version is answered from the side cache after a harness restart.
 * `readings` has 2,000 rows: `level` runs 0 … 99.5 evenly (bars of width 5, 100 rows each), `site` cycles
 * through four names, `v` is a 4-d vector.
 */
const ROWS = 2000
const SCREENSHOTS = join(__dirname, '..', '..', 'resources', 'screenshots')
let dir: string
let root: string

function readings() {
  const vectors = Float32Array.from({ length: ROWS * 4 }, (_, k) => ((k * 13) % 9) / 9)
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i))), nullable: false },
      level: vectorFromArray(Array.from({ length: ROWS }, (_, i) => (i % 200) / 2), new Float64()),
      site: vectorFromArray(Array.from({ length: ROWS }, (_, i) => ['Aveiro', 'Bergen', 'Cusco', 'Delft'][i % 4]!), new Utf8()),
      v: { vector: float32Vectors(vectors, 4), nullable: false },
    }),
  ])
}

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-header-histograms-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'readings', data: readings() },
      { namespace: [], name: 'readings_copy', data: readings() },
    ],
  })
  await mkdir(SCREENSHOTS, { recursive: true })
})

test.afterAll(async () => {
  await removeDir(dir)
})

const header = (page: Page, name: string) => page.getByRole('grid', { name }).getByRole('row').first()
const numberText = (n: number) => n.toLocaleString('en-US')

test('Histograms draws each column’s distribution in its header; a bar filters; the toggle is kept for the session', async ({ page }) => {
  const harness = await startHarness({ root })
  try {
    await page.setViewportSize({ width: 1300, height: 760 })
    await openApp(page, harness)
    await openTable(page, [], 'readings')
    const toggle = page.getByRole('button', { name: 'Histograms', exact: true })
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await expect(header(page, 'readings').getByRole('group')).toHaveCount(0)
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')

    const head = header(page, 'readings')
    const level = head.getByRole('group', { name: 'Histogram of level' })
    await expect(level.getByRole('button')).toHaveCount(20)
    await expect(head.getByRole('group', { name: 'Histogram of site' }).getByRole('button')).toHaveCount(4)
    // Vectors show their norms (not a filter).
    await expect(head.getByRole('group', { name: 'Histogram of v' })).toBeVisible()
    await expect(head.getByRole('group', { name: 'Histogram of v' }).getByRole('button')).toHaveCount(0)
    // The grid still scrolls and reads rows under the strip.
    await expect(page.getByRole('grid', { name: 'readings' }).getByRole('gridcell').first()).toBeVisible()
    if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(await screenshot(page, 'header-histograms'), join(SCREENSHOTS, 'header-histograms.png'))
    else await screenshot(page, 'header-histograms')

    // A numeric bar filters to its half-open range, as the Summary's bars do.
    await level.getByRole('button', { name: `level 20 to 25: ${numberText(100)} rows` }).click()
    await expect(page.getByRole('textbox', { name: 'Filter rows' })).toHaveValue('level >= 20 AND level < 25')
    await expect(page.getByTestId('row-count')).toHaveText(numberText(100))
    // The strips follow the view: now the filtered rows' profile (the level bars narrow to the range).
    await expect(head.getByRole('group', { name: 'Histogram of level' }).getByRole('button', { name: /^level 20 to / })).toBeVisible()
    // Levels 20 … 24.5 are rows 40 … 49 of every 200; a quarter-cycle of sites runs through them.
    const aveiro = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 200 >= 40 && i % 200 < 50 && i % 4 === 0).length
    const aveiroBar = head.getByRole('group', { name: 'Histogram of site' }).getByRole('button', { name: `site = Aveiro: ${aveiro} rows` })
    await expect(aveiroBar).toBeVisible()

    // A top-value bar adds an equality filter.
    await aveiroBar.click()
    await expect(page.getByRole('textbox', { name: 'Filter rows' })).toHaveValue("(level >= 20 AND level < 25) AND site = 'Aveiro'")
    await expect(page.getByTestId('row-count')).toHaveText(String(aveiro))

    // Another table opens with the toggle still on (remembered for the session), and so does a reload.
    await openTable(page, [], 'readings_copy')
    await expect(page.getByRole('button', { name: 'Histograms', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await expect(header(page, 'readings_copy').getByRole('group', { name: 'Histogram of level' }).getByRole('button')).toHaveCount(20)
    await page.reload()
    await openTable(page, [], 'readings')
    await expect(page.getByRole('button', { name: 'Histograms', exact: true })).toHaveAttribute('aria-pressed', 'true')
    await page.getByRole('button', { name: 'Histograms', exact: true }).click()
    await expect(header(page, 'readings').getByRole('group')).toHaveCount(0)
  } finally {
    await harness.close()
  }
})

test('a profiled version is kept across a harness restart (--cache-dir): the Summary says it is kept, no scan runs', async ({ page }) => {
  const cacheDir = join(dir, 'cache')
  const first = await startHarness({ root, cacheDir })
  try {
    await openApp(page, first)
    await openTable(page, [], 'readings')
    await page.getByRole('button', { name: 'Summary', exact: true }).click()
    const summary = page.getByRole('region', { name: 'Summary' })
    await expect(summary.getByTestId('summary-meta')).toHaveText(`Version 1 · ${numberText(ROWS)} rows`)
  } finally {
    await first.close()
  }
  const second = await startHarness({ root, cacheDir })
  try {
    await openApp(page, second)
    await openTable(page, [], 'readings')
    await page.getByRole('button', { name: 'Summary', exact: true }).click()
    const summary = page.getByRole('region', { name: 'Summary' })
    await expect(summary.getByTestId('summary-meta')).toHaveText(`Version 1 · ${numberText(ROWS)} rows · kept`)
    await expect(summary.getByRole('row', { name: 'level' })).toContainText('0 – 99.5')
    // The jobs list has no scan for it: the answer came from the cache.
    const jobs = await (await fetch(`${second.origin}/api/jobs/list`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-token': second.token }, body: '{}' })).json()
    expect(JSON.stringify(jobs)).toContain('"cached":true')
  } finally {
    await second.close()
  }
})

/** The data row under the grid's header: the one drawn at the first pixel below the header row. */
async function rowUnderHeader(page: Page, name: string) {
  return page.getByRole('grid', { name }).evaluate((grid) => {
    const head = grid.querySelector('[role="row"][aria-rowindex="1"]')!.getBoundingClientRect()
    const rows = [...grid.querySelectorAll('[role="row"][aria-rowindex]:not([aria-rowindex="1"])')]
    const under = rows.find((r) => {
      const box = r.getBoundingClientRect()
      return box.top <= head.bottom + 1 && box.bottom > head.bottom + 1
    })
    return under ? Number(under.getAttribute('aria-rowindex')) - 2 : null
  })
}

test('Histograms on and off keeps the grid’s first visible row: the header grows over no row', async ({ page }) => {
  const harness = await startHarness({ root })
  try {
    await page.setViewportSize({ width: 1300, height: 760 })
    await openApp(page, harness)
    await openTable(page, [], 'readings')
    const grid = page.getByRole('grid', { name: 'readings' })
    await grid.getByRole('gridcell').first().hover()
    await page.mouse.wheel(0, 900 * 24)
    const status = page.getByRole('status', { name: 'Table status' })
    await expect(status).not.toContainText('Rows 1–')
    await expect(grid.getByRole('gridcell').first()).toBeVisible()
    const first = await rowUnderHeader(page, 'readings')
    expect(first).toBeGreaterThan(100)
    const shown = (await status.textContent())!.match(/Rows ([\d,]+)–/)![1]
    const toggle = page.getByRole('button', { name: 'Histograms', exact: true })
    await toggle.click()
    await expect(header(page, 'readings').getByRole('group', { name: 'Histogram of level' }).getByRole('button')).toHaveCount(20)
    await expect.poll(() => rowUnderHeader(page, 'readings')).toBe(first)
    await expect(status).toContainText(`Rows ${shown}–`)
    await toggle.click()
    await expect(header(page, 'readings').getByRole('group')).toHaveCount(0)
    await expect.poll(() => rowUnderHeader(page, 'readings')).toBe(first)
    await expect(status).toContainText(`Rows ${shown}–`)
  } finally {
    await harness.close()
  }
})
