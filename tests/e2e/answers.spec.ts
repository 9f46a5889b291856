import { copyFile, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { parse } from 'csv-parse/sync'
import type { Locator, Page } from '@playwright/test'
import {
  DateDay,
  DateMillisecond,
  DurationMillisecond,
  DurationSecond,
  Float64,
  Int64,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimeUnit,
  Timestamp,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  type DataType,
} from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, gridCell, gridRow, makeTempDir, openApp, openTable, removeDir, screenshot, startHarness, test } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { toolbarButton } from './toolbar'

/**
 * Right answers, said plainly: filters that cannot silently mean something else, counts that are the count
 * (compared with lancedb's own for the same view), dates and times shown as what they are, and the small
 * things (headers fitted, Go to row centred, Escape closes the topmost panel, a usable 900×600 layout).
 * `wildlife` has 3,000 rows with columns named with a space, `$`, non-ASCII letters and a reserved word,
 * short `label` values, a text column every row of which matches "common" (FTS index) and an 8-d vector.
 */
const ROWS = 3000
const SCREENSHOTS = join(__dirname, '..', '..', 'resources', 'screenshots')
let dir: string
let root: string
let db: lancedb.Connection

function wildlifeTable() {
  const n = ROWS
  const values = new Float32Array(n * 8)
  for (let i = 0; i < n; i++) for (let k = 0; k < 8; k++) values[i * 8 + k] = i + k / 1000
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(i))), nullable: false },
      'Wildlife Size': vectorFromArray(Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 'Large' : 'Small')), new Utf8()),
      label: vectorFromArray(Array.from({ length: n }, (_, i) => `l${i % 7}`), new Utf8()),
      score: vectorFromArray(Array.from({ length: n }, (_, i) => i / 10), new Float64()),
      price$: vectorFromArray(Array.from({ length: n }, (_, i) => BigInt(i % 50)), new Int64()),
      größe: vectorFromArray(Array.from({ length: n }, (_, i) => BigInt(i % 11)), new Int64()),
      select: vectorFromArray(Array.from({ length: n }, (_, i) => BigInt(i % 5)), new Int64()),
      note: vectorFromArray(Array.from({ length: n }, (_, i) => `common words ${i % 2 === 0 ? 'even' : 'odd'} row ${i}`), new Utf8()),
      vector: { vector: float32Vectors(values, 8), nullable: false },
    }),
  ])
}

function column(type: DataType, data: Int32Array | BigInt64Array) {
  // The type says how the buffer reads (days, seconds, ms, µs, ns); apache-arrow's typings want one per type.
  return makeVector(makeData({ type, length: data.length, nullCount: 0, data } as never))
}

/** One row per case: a leap day, the epoch; times with and without fractions; naive and zoned timestamps. */
function temporalTable() {
  const leapDay = 19_782 // 2024-02-29
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from([1n, 2n])), nullable: false },
      day: column(new DateDay(), Int32Array.from([leapDay, 0])),
      day64: column(new DateMillisecond(), BigInt64Array.from([BigInt(leapDay) * 86_400_000n, -86_400_000n])),
      at_s: column(new TimeSecond(), Int32Array.from([45_000, 1])),
      at_ms: column(new TimeMillisecond(), Int32Array.from([45_000_250, 0])),
      at_us: column(new TimeMicrosecond(), BigInt64Array.from([45_000_000_001n, 86_399_999_999n])),
      at_ns: column(new TimeNanosecond(), BigInt64Array.from([45_000_000_000_000n, 1n])),
      naive: column(new Timestamp(TimeUnit.MICROSECOND), BigInt64Array.from([1_709_209_800_000_000n, 1_709_209_800_123_456n])),
      utc: column(new Timestamp(TimeUnit.MICROSECOND, 'UTC'), BigInt64Array.from([1_709_209_800_000_000n, 1_709_209_800_123_456n])),
      new_york: column(new Timestamp(TimeUnit.MILLISECOND, 'America/New_York'), BigInt64Array.from([1_709_209_800_000n, 0n])),
      took: column(new DurationMillisecond(), BigInt64Array.from([5_400_500n, 0n])),
      took_s: column(new DurationSecond(), BigInt64Array.from([93_784n, -90n])),
    }),
  ])
}

test.beforeAll(async () => {
  test.setTimeout(180_000)
  dir = await makeTempDir('lcb-e2e-answers-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'wildlife', data: wildlifeTable() },
      { namespace: [], name: 'temporal', data: temporalTable() },
    ],
  })
  db = await lancedb.connectNamespace('dir', { root })
  const wildlife = await db.openTable('wildlife')
  await wildlife.createIndex('note', { config: lancedb.Index.fts() })
  wildlife.close()
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
const countLabel = (page: Page) => page.getByTestId('row-count-label')
const numberText = (n: number) => n.toLocaleString('en-US')

async function applyFilter(page: Page, predicate: string) {
  await filterBox(page).fill(predicate)
  await filterBox(page).press('Enter')
}

/** A screenshot in test-results, and with UPDATE_SCREENSHOTS=1 also the docs' copy in resources/screenshots. */
async function keepScreenshot(page: Page, name: string) {
  const path = await screenshot(page, name)
  if (process.env.UPDATE_SCREENSHOTS === '1') await copyFile(path, join(SCREENSHOTS, `${name}.png`))
}

test('a column name in quotes gets a warning with the fix one click away; Lance’s errors name only the user’s columns', async ({ page }) => {
  await openApp(page, harness)
  await openTable(page, [], 'wildlife')
  const wildlife = await db.openTable('wildlife')
  await applyFilter(page, `"Wildlife Size" = 'Large'`)
  // Lance runs it — two constants compared — and finds nothing: the warning says why.
  await expect(rowCount(page)).toHaveText('0')
  const warning = page.getByRole('status', { name: 'Filter warning' })
  await expect(warning).toContainText('"Wildlife Size" is a string here, not a column')
  await expect(warning).toContainText('Did you mean the column `Wildlife Size`?')
  await keepScreenshot(page, 'filter-warning')
  await warning.getByRole('button', { name: 'Use `Wildlife Size`' }).click()
  await expect(filterBox(page)).toHaveValue("`Wildlife Size` = 'Large'")
  await expect(rowCount(page)).toHaveText(numberText(await wildlife.countRows("`Wildlife Size` = 'Large'")))
  await expect(rowCount(page)).toHaveText('1,000')
  await expect(warning).toHaveCount(0)

  // Single quotes, `$`, non-ASCII and reserved words the same way.
  for (const [written, fixed] of [
    [`'score' > 100`, '`score` > 100'],
    [`"price$" > 40`, '`price$` > 40'],
    [`"größe" > 9`, '`größe` > 9'],
    [`"select" = 4`, '`select` = 4'],
  ]) {
    await applyFilter(page, written!)
    await expect(warning).toBeVisible()
    await warning.getByRole('button').first().click()
    await expect(filterBox(page)).toHaveValue(fixed!)
    await expect(rowCount(page)).toHaveText(numberText(await wildlife.countRows(fixed!)))
    await expect(warning).toHaveCount(0)
  }
  // A value that happens to be a column's name, compared with a column, is no warning.
  await applyFilter(page, `label = 'score'`)
  await expect(rowCount(page)).toHaveText('0')
  await expect(warning).toHaveCount(0)

  // A name matching a column up to case or spaces: Lance refuses it; the fix is offered.
  await applyFilter(page, `wildlife_size = 'Small'`)
  const alert = page.getByRole('alert')
  await expect(alert).toContainText('Did you mean the column `Wildlife Size`?')
  await warning.getByRole('button', { name: 'Use `Wildlife Size`' }).click()
  await expect(rowCount(page)).toHaveText('2,000')
  await expect(alert).toHaveCount(0)

  // An unknown column: Lance's list of valid fields holds the user's columns only.
  await applyFilter(page, 'zzqx > 1')
  await expect(alert).toContainText('No field named zzqx')
  await expect(alert).toContainText('größe')
  for (const internal of ['_rowid', '_rowaddr', '_row_last_updated_at_version', '_row_created_at_version', '_rowoffset']) await expect(alert).not.toContainText(internal)
  await screenshot(page, 'answers-schema-error')
  wildlife.close()
})

test('every count is the count: header, status bar, search note and export sheet agree with lancedb', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'wildlife')
  const wildlife = await db.openTable('wildlife')
  const status = page.getByRole('status', { name: 'Table status' })
  const exportCount = async () => {
    await page.getByRole('button', { name: 'Export…' }).click()
    const sheet = page.getByRole('dialog', { name: 'Export wildlife' })
    const text = await sheet.getByTestId('export-rows').textContent()
    const scope = (await sheet.locator('.export-scope').textContent()) ?? ''
    await sheet.getByRole('button', { name: 'Cancel' }).click()
    await expect(sheet).toHaveCount(0)
    return { rows: text, scope }
  }

  // The whole table.
  const all = await wildlife.countRows()
  await expect(countLabel(page)).toHaveText('Rows')
  await expect(rowCount(page)).toHaveText(numberText(all))
  await expect(status).toContainText(`of ${numberText(all)}`)
  expect((await exportCount()).rows).toBe(numberText(all))

  // A filter: matching rows.
  await applyFilter(page, 'score >= 120.5')
  const matching = await wildlife.countRows('score >= 120.5')
  await expect(countLabel(page)).toHaveText('Matching rows')
  await expect(rowCount(page)).toHaveText(numberText(matching))
  await expect(grid).toHaveAttribute('aria-rowcount', String(matching + 1))
  await expect(status).toContainText(`of ${numberText(matching)}`)
  const filtered = await exportCount()
  expect(filtered.rows).toBe(numberText(matching))
  expect(filtered.scope).toContain(`of ${numberText(all)}`)
  await filterBox(page).press('Escape')
  await expect(rowCount(page)).toHaveText(numberText(all))

  // A full-text search: its results, and the limit that cut them.
  const search = page.getByRole('searchbox', { name: 'Full-text search' })
  await search.fill('common')
  await search.press('Enter')
  const lanceTop = (await wildlife.query().fullTextSearch('common').limit(1000).toArray()).length
  expect(lanceTop).toBe(1000)
  await expect(countLabel(page)).toHaveText('Search results')
  await expect(rowCount(page)).toHaveText(numberText(lanceTop))
  const note = page.getByRole('status', { name: 'Search count' })
  await expect(note).toContainText('Top 1,000 matches — raise the limit')
  await expect(status).toContainText('of 1,000')
  await keepScreenshot(page, 'search-count')
  // Go to row offers the view's rows.
  await page.getByRole('button', { name: 'Go to row…' }).click()
  await expect(page.getByRole('dialog', { name: 'Go to row' })).toContainText('Row number (1–1,000)')
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Go to row' })).toHaveCount(0)
  const searched = await exportCount()
  expect(searched.rows).toBe('1,000')
  expect(searched.scope).toContain('top 1,000')
  await note.getByRole('button', { name: 'Raise the limit to 10,000' }).click()
  const lanceAll = (await wildlife.query().fullTextSearch('common').limit(10_000).toArray()).length
  await expect(rowCount(page)).toHaveText(numberText(lanceAll))
  await expect(note).toContainText(`All ${numberText(lanceAll)} matches`)
  // With a filter too: lancedb's count for the same view.
  await applyFilter(page, `label = 'l3'`)
  const lanceFiltered = (await wildlife.query().fullTextSearch('common').where(`label = 'l3'`).limit(10_000).toArray()).length
  await expect(rowCount(page)).toHaveText(numberText(lanceFiltered))
  await expect(countLabel(page)).toHaveText('Search results')
  await search.fill('')
  await filterBox(page).press('Escape')
  await expect(rowCount(page)).toHaveText(numberText(all))

  // A vector search: the k nearest.
  await gridCell(grid, 4, 0).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
  const source = Array.from({ length: 8 }, (_, k) => 4 + k / 1000)
  const lanceNearest = (await wildlife.query().nearestTo(source).column('vector').distanceType('l2').limit(20).toArray()).length
  await expect(countLabel(page)).toHaveText('Nearest rows')
  await expect(rowCount(page)).toHaveText(String(lanceNearest))
  await expect(note).toContainText('The 20 nearest rows (k = 20)')
  expect((await exportCount()).rows).toBe(String(lanceNearest))
  wildlife.close()
})

test('dates, times, timestamps and durations read the same in the grid, the inspector, a copy and an export', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harness.url).origin })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'temporal')
  const expected = [
    ['1', '2024-02-29', '2024-02-29', '12:30:00', '12:30:00.250', '12:30:00.000001', '12:30:00', '2024-02-29T12:30:00.000000', '2024-02-29T12:30:00.000000Z', '2024-02-29T12:30:00.000Z', '1h 30m 0.5s', '1d 2h 3m 4s'],
    ['2', '1970-01-01', '1969-12-31', '00:00:01', '00:00:00', '23:59:59.999999', '00:00:00.000000001', '2024-02-29T12:30:00.123456', '2024-02-29T12:30:00.123456Z', '1970-01-01T00:00:00.000Z', '0s', '-1m 30s'],
  ]
  for (const [r, row] of expected.entries()) for (const [c, text] of row.entries()) await expect(gridCell(grid, r, c)).toHaveText(text)
  await screenshot(page, 'answers-temporal-grid')

  // The inspector: the same text, and what it means.
  const panel = page.getByRole('complementary', { name: 'Cell inspector' })
  await gridCell(grid, 0, 1).dblclick()
  await expect(panel).toContainText('2024-02-29')
  await expect(panel).toContainText('Thursday, February 29, 2024')
  await gridCell(grid, 0, 7).click()
  await page.keyboard.press('Enter')
  await expect(panel).toContainText('2024-02-29T12:30:00.000000')
  await expect(panel).toContainText('none (a wall-clock time, not converted)')
  await expect(panel).not.toContainText('2024-02-29T12:30:00.000000Z')
  await gridCell(grid, 0, 9).click()
  await page.keyboard.press('Enter')
  await expect(panel).toContainText('2024-02-29T12:30:00.000Z')
  await expect(panel).toContainText('America/New_York')
  await expect(panel).toContainText('7:30:00 AM')
  await gridCell(grid, 0, 10).click()
  await page.keyboard.press('Enter')
  await expect(panel).toContainText('1h 30m 0.5s')
  await expect(panel).toContainText('5400500 ms')
  await screenshot(page, 'answers-temporal-inspector')
  await page.keyboard.press('Escape')

  // Copy: the whole table as TSV holds the same texts.
  await gridCell(grid, 0, 0).click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.press('ControlOrMeta+c')
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText())
  await expect.poll(async () => (await clipboard()).split('\n').slice(1, 3)).toEqual(expected.map((row) => row.join('\t')))

  // Export as CSV: the same texts again.
  await page.getByRole('button', { name: 'Export…' }).click()
  const sheet = page.getByRole('dialog', { name: 'Export temporal' })
  const download = page.waitForEvent('download')
  await sheet.getByRole('button', { name: 'Export', exact: true }).click()
  const file = await download
  const path = join(dir, 'temporal.csv')
  await file.saveAs(path)
  const records = parse(await readFile(path), { columns: false }) as string[][]
  expect(records.slice(1)).toEqual(expected)
})

/** The header names drawn cut (with an ellipsis): none may be, every name here is short. */
async function cutHeaders(grid: Locator): Promise<string[]> {
  return grid.evaluate((g) => Array.from(g.querySelectorAll<HTMLElement>('[role="columnheader"] .header-name')).filter((n) => n.scrollWidth > n.clientWidth).map((n) => n.textContent ?? ''))
}

test('headers stay fitted to their names after a filter, a text search and a vector search', async ({ page }) => {
  await page.setViewportSize({ width: 1600, height: 800 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'wildlife')
  expect(await cutHeaders(grid)).toEqual([])
  await applyFilter(page, `label = 'l1'`)
  await expect(rowCount(page)).toHaveText('429')
  expect(await cutHeaders(grid)).toEqual([])
  await page.getByRole('searchbox', { name: 'Full-text search' }).fill('odd')
  await page.getByRole('searchbox', { name: 'Full-text search' }).press('Enter')
  await expect(grid.getByRole('columnheader', { name: '_score' })).toBeVisible()
  expect(await cutHeaders(grid)).toEqual([])
  await page.getByRole('searchbox', { name: 'Full-text search' }).fill('')
  await gridCell(grid, 2, 0).click({ button: 'right' })
  await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
  await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
  expect(await cutHeaders(grid)).toEqual([])
  await screenshot(page, 'answers-headers')
})

test('Go to row puts the row in the middle of the grid', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'wildlife')
  await page.getByRole('button', { name: 'Go to row…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Go to row' })
  await dialog.getByRole('textbox').fill('1,500')
  await dialog.getByRole('textbox').press('Enter')
  const row = gridRow(grid, 1499)
  await expect(row.getByRole('rowheader')).toHaveText('1,500')
  await expect(grid).toBeFocused()
  const body = await grid.locator('.grid-body').boundingBox()
  const box = await row.boundingBox()
  const middle = body!.y + body!.height / 2
  expect(Math.abs(box!.y + box!.height / 2 - middle)).toBeLessThanOrEqual(box!.height)
  // Near the end the grid cannot scroll past the last row: the row is shown, the grid ends there.
  await page.keyboard.press('ControlOrMeta+g')
  await dialog.getByRole('textbox').fill(String(ROWS))
  await dialog.getByRole('textbox').press('Enter')
  await expect(gridRow(grid, ROWS - 1).getByRole('rowheader')).toBeInViewport()
})

test('Escape closes the side panel opened last and gives the focus back to the grid', async ({ page }) => {
  await openApp(page, harness)
  const grid = await openTable(page, [], 'wildlife')
  await page.getByRole('button', { name: 'Schema' }).click()
  const schema = page.getByRole('complementary', { name: 'Schema' })
  await expect(schema).toBeVisible()
  await page.getByRole('group', { name: 'Table lifecycle' }).getByRole('button', { name: 'Versions' }).click()
  const versions = page.getByRole('complementary', { name: 'Versions' })
  await expect(versions).toBeVisible()
  await gridCell(grid, 1, 1).dblclick()
  const inspector = page.getByRole('complementary', { name: 'Cell inspector' })
  await expect(inspector).toBeVisible()

  await page.keyboard.press('Escape')
  await expect(inspector).toHaveCount(0)
  await expect(versions).toBeVisible()
  await expect(grid).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(versions).toHaveCount(0)
  await expect(schema).toBeVisible()
  await expect(grid).toBeFocused()
  // Focus inside the panel: Escape closes it all the same.
  await schema.getByRole('button', { name: 'Close schema' }).focus()
  await page.keyboard.press('Escape')
  await expect(schema).toHaveCount(0)
  await expect(grid).toBeFocused()

  // The inspector opened first and the schema after: the schema goes first.
  await gridCell(grid, 2, 1).dblclick()
  await expect(inspector).toBeVisible()
  await page.getByRole('button', { name: 'Schema' }).click()
  await expect(schema).toBeVisible()
  await grid.focus()
  await page.keyboard.press('Escape')
  await expect(schema).toHaveCount(0)
  await expect(inspector).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(inspector).toHaveCount(0)
  await expect(grid).toBeFocused()
})

test('a 900×600 window: a side panel overlays the grid instead of squeezing it', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 600 })
  await openApp(page, harness)
  const grid = await openTable(page, [], 'wildlife')
  const before = await grid.boundingBox()
  await toolbarButton(page, 'Schema')
  const schema = page.getByRole('complementary', { name: 'Schema' })
  await expect(schema).toBeVisible()
  await screenshot(page, 'answers-900x600-schema')
  const after = await grid.boundingBox()
  // The grid keeps its size (the panel lies over its right side) and the panel fits in the window.
  expect(after!.width).toBeGreaterThanOrEqual(before!.width - 1)
  const panel = await schema.boundingBox()
  expect(panel!.x + panel!.width).toBeLessThanOrEqual(900)
  expect(panel!.x).toBeGreaterThanOrEqual(after!.x)
  // More than a handful of rows show.
  const rows = await grid.locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"])').count()
  expect(rows).toBeGreaterThanOrEqual(12)
  // Escape closes it: the grid again.
  await page.keyboard.press('Escape')
  await expect(schema).toHaveCount(0)
  await page.getByRole('group', { name: 'Table lifecycle' }).getByRole('button', { name: 'Versions' }).click()
  const versions = page.getByRole('complementary', { name: 'Versions' })
  await expect(versions).toBeVisible()
  expect((await grid.boundingBox())!.width).toBeGreaterThanOrEqual(before!.width - 1)
  await gridCell(grid, 1, 1).dblclick()
  const inspector = page.getByRole('complementary', { name: 'Cell inspector' })
  await expect(inspector).toBeVisible()
  expect((await grid.boundingBox())!.width).toBeGreaterThanOrEqual(before!.width - 1)
  await screenshot(page, 'answers-900x600-inspector')
})
