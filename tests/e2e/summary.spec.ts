import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { Page } from '@playwright/test'
import { Float64, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

/**
 * The Summary: one row per column with its statistics, histogram bars that filter the grid to their range,
 * and a profile that follows the view (its filter) and says which version it describes.
 * `weather` has 3,000 rows: `air temp` runs 0.25 … 49.25 and peaks in the middle (bars of width 5), `city` is
 * null in every tenth row, and the 8-d `embedding` has a NaN in 3 rows, is all zero in 3, and repeats 7 patterns.
 */
const ROWS = 3000
const DIM = 8
const SCREENSHOTS = join(__dirname, '..', '..', 'resources', 'screenshots')
let dir: string
let root: string
let db: lancedb.Connection

/** A triangular spread: the mean of two cycles. */
const airTemp = (i: number) => ((i % 50) + (Math.floor(i / 50) % 50)) / 2 + 0.25

function weatherTable() {
  const values = new Float32Array(ROWS * DIM)
  for (let i = 0; i < ROWS; i++) {
    for (let k = 0; k < DIM; k++) values[i * DIM + k] = i % 1000 === 1 ? 0 : k === 0 && i % 1000 === 2 ? Number.NaN : ((i + k) % 7) / 7 + 0.1
  }
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: ROWS }, (_, i) => BigInt(i))), nullable: false },
      'air temp': vectorFromArray(Array.from({ length: ROWS }, (_, i) => airTemp(i)), new Float64()),
      city: vectorFromArray(Array.from({ length: ROWS }, (_, i) => (i % 10 === 0 ? null : ['Lisbon', 'Oslo', 'Lima', 'Pune'][i % 4]!)), new Utf8()),
      embedding: { vector: float32Vectors(values, DIM), nullable: false },
    }),
  ])
}

/**
 * `events`: 150,000 rows stored with ids 1,500 … 149,999 first and 0 … 1,499 last (so the scan meets the minimum
 * last), and `bytes`, skewed: 0 … 99 in all rows but the first 232, which hold 5,000 … 5,099.
 */
const EVENTS = 150_000
const eventId = (row: number) => (row < EVENTS - 1500 ? row + 1500 : row - (EVENTS - 1500))
const eventBytes = (row: number) => (row < 232 ? 5000 + (row % 100) : row % 100)

function eventsTable() {
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: EVENTS }, (_, row) => BigInt(eventId(row)))), nullable: false },
      bytes: vectorFromArray(Array.from({ length: EVENTS }, (_, row) => eventBytes(row)), new Float64()),
    }),
  ])
}

/**
 * `tags`: 120,000 rows of text, past the exact distinct limit (100,000). `early` fills the first 45 rows (counted
 * from its first row, never dropped from the kept top values: exact); `late` is in row 20,000 once (dropped when
 * the top values are pruned) and again in the last 50 rows (its count a lower bound); every other row unique.
 */
const TAGS = 120_000
const tagOf = (row: number) => (row < 45 ? 'early' : row === 20_000 || row >= TAGS - 50 ? 'late' : `t${row}`)

test.beforeAll(async () => {
  test.setTimeout(120_000)
  dir = await makeTempDir('lcb-e2e-summary-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'weather', data: weatherTable() },
      // Written to by a test (a newer version), so the other tests' table stays as built.
      { namespace: [], name: 'weather_live', data: weatherTable() },
      { namespace: [], name: 'events', data: eventsTable() },
      { namespace: [], name: 'tags', data: tableOf([batchOf({ tag: vectorFromArray(Array.from({ length: TAGS }, (_, row) => tagOf(row)), new Utf8()) })]) },
    ],
  })
  db = await lancedb.connectNamespace('dir', { root })
  await mkdir(SCREENSHOTS, { recursive: true })
})

test.afterAll(async () => {
  db?.close()
  await removeDir(dir)
})

let harness: Harness
test.beforeEach(async () => {
  harness = await startHarness({ root })
})
test.afterEach(async () => {
  await harness.close()
})

const filterBox = (page: Page) => page.getByRole('textbox', { name: 'Filter rows' })
const rowCount = (page: Page) => page.getByTestId('row-count')
const numberText = (n: number) => n.toLocaleString('en-US')

/** A screenshot in test-results, and with UPDATE_SCREENSHOTS=1 also the docs' copy in resources/screenshots. */
async function keepScreenshot(page: Page, name: string) {
  const path = await screenshot(page, name)
  if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(path, join(SCREENSHOTS, `${name}.png`))
}

test('Summary shows each column’s statistics; a histogram bar filters the grid to its range', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 860 })
  const weather = await db.openTable('weather')
  await openApp(page, harness)
  await openTable(page, [], 'weather')
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary).toBeVisible()
  const version = await weather.version()
  await expect(summary.getByTestId('summary-meta')).toHaveText(`Version ${version} · ${numberText(ROWS)} rows`)

  // One row per column, with values lancedb's own counts agree with.
  const city = summary.getByRole('row', { name: 'city' })
  await expect(city.getByRole('cell').nth(0)).toContainText(numberText(await weather.countRows('city IS NULL')))
  await expect(city.getByRole('cell').nth(1)).toContainText('4')
  await expect(city.getByRole('cell').nth(1)).toContainText('exact')
  await expect(city.getByRole('list', { name: 'Top values of city' }).getByRole('listitem')).toHaveCount(4)
  const embedding = summary.getByRole('row', { name: 'embedding' })
  await expect(embedding).toContainText('dimension 8')
  await expect(embedding).toContainText('3 with NaN · 3 all zero')
  // Seven patterns and the zero vector; every other vector without NaN repeats one of them.
  await expect(embedding).toContainText(`${numberText(ROWS - 3 - 8)} exact duplicates`)
  const temp = summary.getByRole('row', { name: 'air temp' })
  const temps = Array.from({ length: ROWS }, (_, i) => airTemp(i))
  await expect(temp).toContainText(`0.25 – 49.25 · mean ${Number((temps.reduce((a, b) => a + b, 0) / ROWS).toPrecision(6))}`)
  const inBar = temps.filter((t) => t >= 20 && t < 25).length
  const bars = temp.getByRole('group', { name: 'Histogram of air temp' }).getByRole('button')
  await expect(bars).toHaveCount(10)
  const bar = summary.getByRole('button', { name: `air temp 20 to 25: ${numberText(inBar)} rows` })
  await expect(bar).toBeVisible()
  await keepScreenshot(page, 'summary')

  // Clicking the bar filters the grid to its range; the Filter rows box shows the predicate, the name quoted.
  await bar.click()
  const predicate = '`air temp` >= 20 AND `air temp` < 25'
  await expect(filterBox(page)).toHaveValue(predicate)
  await expect(rowCount(page)).toHaveText(numberText(await weather.countRows(predicate)))
  await expect(rowCount(page)).toHaveText(numberText(inBar))
  // The Summary follows the view: now of the matching rows only.
  await expect(summary.getByTestId('summary-meta')).toHaveText(`Version ${version} · filtered · ${numberText(inBar)} rows`)
  await expect(summary.getByText(predicate)).toBeVisible()
  await expect(summary.getByRole('row', { name: 'air temp' })).toContainText('20.25 – 24.75')
  await screenshot(page, 'summary-filtered')
  weather.close()
})

test('reopening the Summary of the same version is answered from the kept profile; a newer version is summarised afresh', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'weather_live')
  const summaryButton = page.getByRole('button', { name: 'Summary', exact: true })
  await summaryButton.click()
  const summary = page.getByRole('region', { name: 'Summary' })
  const weather = await db.openTable('weather_live')
  const version = await weather.version()
  await expect(summary.getByTestId('summary-meta')).toContainText(`Version ${version} ·`)
  await summary.getByRole('button', { name: 'Close summary' }).click()
  await expect(summary).toBeHidden()
  await summaryButton.click()
  await expect(summary.getByTestId('summary-meta')).toHaveText(`Version ${version} · ${numberText(ROWS)} rows · kept`)

  // Another writer adds rows: the open view still reads its version; after reload the Summary describes the new one.
  await weather.add(tableOf([batchOf({ id: { vector: makeVector(BigInt64Array.from([100_000n])), nullable: false }, 'air temp': vectorFromArray([99.5], new Float64()), city: vectorFromArray(['Oslo'], new Utf8()), embedding: { vector: float32Vectors(new Float32Array(DIM).fill(1), DIM), nullable: false } })]))
  weather.close()
  await page.getByRole('button', { name: 'Reload table' }).click()
  await expect(page.getByTestId('table-version')).toHaveText(String(version + 1))
  await expect(summary.getByTestId('summary-meta')).toHaveText(`Version ${version + 1} · ${numberText(ROWS + 1)} rows`)
  // Escape closes it, as it closes the other side panels.
  await summary.getByRole('row', { name: 'id' }).click()
  await page.keyboard.press('Escape')
  await expect(summary).toBeHidden()
})

test('distinct counts are exact up to the limit and estimates stay within the rows read, with their range shown', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'events')
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByTestId('summary-meta')).toContainText(`${numberText(EVENTS)} rows`)

  // 150,000 distinct ids: past the exact limit, an estimate that never exceeds the rows, with its range.
  const distinct = summary.getByRole('row', { name: 'id' }).getByRole('cell').nth(1)
  await expect(distinct).toContainText('estimate')
  await expect(distinct).toHaveAttribute('title', /^Estimated: between [\d,]+ – [\d,]+ \(95 % confidence\); counted exactly up to 100,000 distinct values a column/)
  const shown = Number((await distinct.getByTestId('distinct-count').textContent())!.replace('≈ ', '').replaceAll(',', ''))
  expect(shown).toBeLessThanOrEqual(EVENTS)
  expect(shown).toBeGreaterThan(EVENTS * 0.97)
  const [low, high] = (await distinct.getByTestId('distinct-range').textContent())!.split(' – ').map((n) => Number(n.replaceAll(',', '')))
  expect(low).toBeLessThanOrEqual(shown)
  expect(high).toBeLessThanOrEqual(EVENTS)

  // An 11,538-row view is small enough to count exactly, and says so.
  await filterBox(page).fill('id < 11538')
  await filterBox(page).press('Enter')
  await expect(summary.getByTestId('summary-meta')).toContainText(`filtered · ${numberText(11_538)} rows`)
  const filtered = summary.getByRole('row', { name: 'id' }).getByRole('cell').nth(1)
  await expect(filtered).toHaveText(`${numberText(11_538)}exact`)
  await expect(filtered).toHaveAttribute('title', 'Counted exactly (counted exactly up to 100,000 distinct values a column)')
})

test('histogram bars cover the values’ range, are as tall as their counts, and a log scale shows the small ones', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 860 })
  await openApp(page, harness)
  await openTable(page, [], 'events')
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })

  // The ids start at 0 (met last in the scan): the first bar starts there, not below, and the last ends at the maximum.
  const ids = summary.getByRole('group', { name: 'Histogram of id' }).getByRole('button')
  await expect(ids.first()).toHaveAttribute('aria-label', /^id 0 to [\d,]+: [\d,]+ rows$/)
  await expect(ids.last()).toHaveAttribute('aria-label', /^id [\d,]+ to 149,999 \(the maximum\): [\d,]+ rows$/)
  // Every bar's name holds its exact count: the bars' filters agree.
  const first = (await ids.first().getAttribute('aria-label'))!.match(/^id 0 to ([\d,]+): ([\d,]+) rows$/)!
  const firstHi = Number(first[1]!.replaceAll(',', ''))
  expect(Number(first[2]!.replaceAll(',', ''))).toBe(firstHi)

  // Skewed: 149,768 rows in the first bar, 232 in the last. Heights are proportional to the counts.
  const bytes = summary.getByRole('group', { name: 'Histogram of bytes' })
  const big = bytes.getByRole('button').first()
  const small = bytes.getByRole('button').last()
  await expect(big).toHaveAttribute('aria-label', new RegExp(`^bytes 0 to [\\d,]+: ${numberText(EVENTS - 232)} rows$`))
  await expect(small).toHaveAttribute('aria-label', /^bytes [\d,]+ to 5,099 \(the maximum\): 232 rows$/)
  const height = async (bar: typeof big) => (await bar.locator('span').boundingBox())!.height
  await expect(small).toBeVisible()
  const bigHeight = await height(big)
  expect(bigHeight).toBeGreaterThan(20)
  // 232 / 149,768 of the tallest: a hairline (1 px), not the 4 % it was drawn at.
  expect(await height(small)).toBeLessThanOrEqual(1.5)
  expect(await height(small)).toBeGreaterThan(0)
  // Empty bars between them have no height at all.
  const empty = bytes.getByRole('button', { name: /: 0 rows$/ }).first()
  expect(await height(empty)).toBe(0)

  // The log scale: the 232-row bar is about half as tall as the 149,768-row one (log 233 / log 149,769 ≈ 0.46).
  const scale = summary.getByRole('button', { name: 'Log scale' })
  await expect(scale).toHaveAttribute('aria-pressed', 'false')
  await scale.click()
  await expect(scale).toHaveAttribute('aria-pressed', 'true')
  await expect(summary.getByRole('group', { name: 'Histogram of bytes (log scale)' })).toBeVisible()
  const ratio = (await height(small)) / (await height(big))
  expect(ratio).toBeGreaterThan(0.4)
  expect(ratio).toBeLessThan(0.52)
  await screenshot(page, 'summary-log-scale')
})

test('a top value counted exactly reads its count; one that may have been missed reads "≥"', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'tags')
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  const summary = page.getByRole('region', { name: 'Summary' })
  await expect(summary.getByTestId('summary-meta')).toContainText(`${numberText(TAGS)} rows`)
  // Past the exact limit: the distinct count is an estimate, yet `early` was counted from its first row.
  await expect(summary.getByRole('row', { name: 'tag' }).getByRole('cell').nth(1)).toContainText('estimate')
  const top = summary.getByRole('list', { name: 'Top values of tag' })
  await expect(top.getByRole('listitem').filter({ hasText: 'early' }).locator('.summary-top-count')).toHaveText('45')
  await expect(top.getByRole('listitem').filter({ hasText: 'late' }).locator('.summary-top-count')).toHaveText('≥ 50')
})
