import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { parse } from 'csv-parse/sync'
import { parquetReadObjects } from 'hyparquet'
import type { Page } from '@playwright/test'
import { buildCatalog, inspectTable, inspectVector, LONG_TEXT, INSPECT_DIMENSION } from '../helpers/catalog'
import { expect, gridCell, openTable, screenshot, startHarness, test, makeTempDir, removeDir } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'

// A catalog of our own: lab/kinds (every kind of value: 10 KB text, PNG, 768-d vector, …) and
// lab/rows (20,000 sample rows, ids above 2^53) for copies and exports bigger than a page.
const START = 9_007_199_254_740_993n
const ROWS = 20_000
let dir: string
let root: string

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-inspect-')
  root = await buildCatalog(join(dir, 'catalog'), {
    namespaces: [['lab']],
    tables: [
      { namespace: ['lab'], name: 'kinds', data: inspectTable() },
      { namespace: ['lab'], name: 'rows', rows: ROWS, sample: { start: START, dimension: 4 } },
    ],
  })
})
test.afterAll(async () => removeDir(dir))

async function openLab(page: Page, harness: Harness, table: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(harness.url).origin })
  await page.goto(harness.url)
  return openTable(page, ['lab'], table)
}

const clipboard = (page: Page) => page.evaluate(() => navigator.clipboard.readText())

/** What the inspector shows for a float (formatCell.ts: 10 significant digits). */
const shown = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(10))))

test.describe('cell inspector, select and copy, export', () => {
  let harness: Harness
  test.beforeEach(async () => {
    harness = await startHarness({ root })
  })
  test.afterEach(async () => harness.close())

  test('the inspector shows a 10 KB text whole, a PNG as an image, a 768-d vector\'s stats; arrows follow, Escape closes', async ({ page }) => {
    const grid = await openLab(page, harness, 'kinds')
    // Columns: id, title, doc, image, at, meta, tags, embedding.
    await gridCell(grid, 0, 1).click()
    await page.keyboard.press('Enter')
    const panel = page.getByRole('complementary', { name: 'Cell inspector' })
    await expect(panel).toBeVisible()
    await expect(panel.getByTestId('inspector-text')).toHaveText(LONG_TEXT)
    await expect(panel).toContainText(`${new Intl.NumberFormat('en-US').format(LONG_TEXT.length)} characters`)
    await screenshot(page, 'inspector-text')

    // → the JSON string: pretty-printed as a foldable tree.
    await page.keyboard.press('ArrowRight')
    await expect(panel.getByRole('tree', { name: 'JSON' })).toContainText('nested')
    // → the PNG: an img element from a blob: URL, decoded (48×48).
    await page.keyboard.press('ArrowRight')
    const image = panel.locator('img')
    await expect(image).toBeVisible()
    await expect(image).toHaveAttribute('src', /^blob:/)
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48)
    await expect(panel.getByLabel('Hex dump')).toContainText('89 50 4e 47 0d 0a 1a 0a')
    await screenshot(page, 'inspector-image')
    // → the timestamp: UTC to the microsecond, and local time.
    await page.keyboard.press('ArrowRight')
    await expect(panel).toContainText('2024-05-01T12:00:00.123456Z')
    await expect(panel).toContainText('Local')
    // → → → the 768-d vector: dimension, norm, min / max / mean, NaN and zero counts, a plot.
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowRight')
    const v = Array.from(inspectVector(0))
    const finite = v.filter((x) => !Number.isNaN(x))
    const facts = {
      Dimension: String(INSPECT_DIMENSION),
      Norm: shown(Math.sqrt(finite.reduce((s, x) => s + x * x, 0))),
      Min: shown(Math.min(...finite)),
      Max: shown(Math.max(...finite)),
      Mean: shown(finite.reduce((s, x) => s + x, 0) / finite.length),
      NaN: '1',
      Zeros: String(finite.filter((x) => x === 0).length),
    }
    for (const [label, value] of Object.entries(facts)) await expect(panel.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('+ dd')).toHaveText(value)
    await expect(panel.getByRole('img', { name: /^Plot of 768 values/ })).toBeVisible()
    await screenshot(page, 'inspector-vector')
    await page.emulateMedia({ colorScheme: 'dark' })
    await screenshot(page, 'inspector-vector-dark')
    await page.emulateMedia({ colorScheme: 'light' })
    // ↓ follows to the next row.
    await page.keyboard.press('ArrowDown')
    await expect(panel).toContainText('Row 2')
    await expect(panel).toContainText('NaN')
    // Escape closes and gives focus back to the grid; Space and double-click open it too.
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()
    await expect(grid).toBeFocused()
    await page.keyboard.press(' ')
    await expect(panel).toBeVisible()
    await page.keyboard.press('Escape')
    await gridCell(grid, 1, 0).dblclick()
    await expect(panel).toContainText(String(START + 1n))
  })

  test('copy a 3×3 range (TSV, CSV, JSON, Markdown) and a 768-d vector cell, whole', async ({ page }) => {
    const grid = await openLab(page, harness, 'rows')
    await gridCell(grid, 0, 0).click()
    await gridCell(grid, 2, 2).click({ modifiers: ['Shift'] })
    await expect(grid.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(9)
    await page.keyboard.press('ControlOrMeta+c')
    const rows = [0, 1, 2].map((i) => [String(START + BigInt(i)), `row-${i}`, String(i / 2)])
    await expect.poll(() => clipboard(page)).toBe(['id\tlabel\tscore', ...rows.map((r) => r.join('\t'))].join('\n') + '\n')
    await screenshot(page, 'copy-range')

    // Shift+arrows extend the same way; the context menu copies as CSV, JSON or Markdown.
    await gridCell(grid, 0, 0).click()
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowDown')
    await page.keyboard.press('Shift+ArrowRight')
    await page.keyboard.press('Shift+ArrowRight')
    await gridCell(grid, 1, 1).click({ button: 'right' })
    await page.getByRole('menuitem', { name: 'Copy as CSV' }).click()
    await expect.poll(() => clipboard(page)).toBe(['id,label,score', ...rows.map((r) => r.join(','))].join('\n') + '\n')
    await gridCell(grid, 1, 1).click({ button: 'right' })
    await page.getByRole('menuitem', { name: 'Copy as JSON' }).click()
    await expect.poll(() => clipboard(page)).toBe(`[\n${rows.map((r) => `{"id":${r[0]},"label":"${r[1]}","score":${r[2]}}`).join(',\n')}\n]\n`)
    await gridCell(grid, 1, 1).click({ button: 'right' })
    await page.getByRole('menuitem', { name: 'Copy as Markdown' }).click()
    await expect.poll(() => clipboard(page)).toBe(['| id | label | score |', '| --- | --- | --- |', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n') + '\n')

    // A row header selects the whole row.
    await grid.locator('[role="row"][aria-rowindex="3"] [role="rowheader"]').click()
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(() => clipboard(page)).toBe(`id\tlabel\tscore\tnote\tvector\n${START + 1n}\trow-1\t0.5\tnote 1\t${JSON.stringify(Array.from({ length: 4 }, (_, k) => Math.fround(1 + k / 1000)))}\n`)

    // One 768-d vector cell: all 768 values.
    const kinds = await openTable(page, ['lab'], 'kinds')
    await gridCell(kinds, 1, 7).click()
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(async () => (await clipboard(page)).length).toBeGreaterThan(1000)
    const values = JSON.parse(await clipboard(page)) as number[]
    expect(values).toHaveLength(INSPECT_DIMENSION)
    expect(Float32Array.from(values)).toEqual(inspectVector(1))
    // And the 10 KB text, whole.
    await gridCell(kinds, 0, 1).click()
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(() => clipboard(page)).toBe(LONG_TEXT)
  })

  test('a whole column of 20,000 rows: asks first, then copies every row (fetched through the contract)', async ({ page }) => {
    const grid = await openLab(page, harness, 'rows')
    await grid.getByRole('columnheader', { name: 'id' }).hover()
    await page.getByRole('button', { name: 'Column menu for id' }).click()
    await page.getByRole('menuitem', { name: 'Copy column' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Copy 20,000 rows?' })
    await expect(confirm).toBeVisible()
    await screenshot(page, 'copy-confirm')
    await confirm.getByRole('button', { name: 'Copy' }).click()
    await expect(page.getByRole('status', { name: 'Copy' })).toContainText('Copied 20,000 × 1 as TSV')
    const lines = (await clipboard(page)).trimEnd().split('\n')
    expect(lines).toHaveLength(ROWS + 1)
    expect(lines[0]).toBe('id')
    expect(lines[ROWS]).toBe(String(START + BigInt(ROWS - 1)))
    // "Select column" and Ctrl+A select without copying.
    await page.getByRole('button', { name: 'Column menu for label' }).click()
    await page.getByRole('menuitem', { name: 'Select column' }).click()
    await expect(grid.locator('[role="gridcell"][aria-selected="true"]')).toHaveCount(await grid.locator('[role="row"][aria-rowindex]:not([aria-rowindex="1"])').count())
    await page.keyboard.press('ControlOrMeta+a')
    await expect(grid.locator('[role="gridcell"][aria-selected="false"]')).toHaveCount(0)
  })

  test('export each format through the sheet and read the downloaded file back', async ({ page }) => {
    await openLab(page, harness, 'rows')
    for (const format of ['CSV', 'JSON lines', 'Arrow IPC (file)', 'Parquet'] as const) {
      await page.getByRole('button', { name: 'Export…' }).click()
      const sheet = page.getByRole('dialog', { name: 'Export rows' })
      await expect(sheet).toBeVisible()
      await sheet.getByRole('radio', { name: new RegExp(`^${format.replace(/[()]/g, '\\$&')}`) }).check()
      if (format === 'Parquet') await screenshot(page, 'export-sheet')
      const download = page.waitForEvent('download')
      await sheet.getByRole('button', { name: 'Export', exact: true }).click()
      const file = await download
      const path = join(dir, `download-${file.suggestedFilename()}`)
      await file.saveAs(path)
      const bytes = await readFile(path)
      if (format === 'CSV') {
        expect(file.suggestedFilename()).toBe('rows.csv')
        const records = parse(bytes, { columns: true }) as Record<string, string>[]
        expect(records).toHaveLength(ROWS)
        expect(records[ROWS - 1]).toMatchObject({ id: String(START + BigInt(ROWS - 1)), label: `row-${ROWS - 1}`, note: `note ${ROWS - 1}` })
        expect(records[0]!.note).toBe('')
      } else if (format === 'JSON lines') {
        const lines = bytes.toString('utf8').trimEnd().split('\n')
        expect(lines).toHaveLength(ROWS)
        expect(lines[12_345]).toMatch(new RegExp(`^\\{"id":${START + 12_345n},"label":"row-12345","score":6172.5,`))
      } else if (format === 'Arrow IPC (file)') {
        const table = tableFromIPC(bytes)
        expect(table.numRows).toBe(ROWS)
        expect(table.getChild('id')!.get(ROWS - 1)).toBe(START + BigInt(ROWS - 1))
      } else {
        const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as Record<string, unknown>[]
        expect(rows).toHaveLength(ROWS)
        expect(rows[ROWS - 1]).toMatchObject({ id: START + BigInt(ROWS - 1), label: `row-${ROWS - 1}`, score: (ROWS - 1) / 2 })
      }
      // Once the run is over the jobs panel collapses to the status bar's indicator: open it to see the job.
      const indicator = page.getByRole('button', { name: /^Jobs: / })
      await expect(indicator).toContainText('ended')
      if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
      await expect(page.getByRole('listitem', { name: 'Export of rows' }).first()).toContainText('Done')
    }
  })

  test('export and copy read the filtered, sorted view: only the matching rows, in the view\'s order', async ({ page }) => {
    const grid = await openLab(page, harness, 'rows')
    const filter = page.getByRole('textbox', { name: 'Filter rows' })
    await filter.fill('score >= 100 AND score < 110')
    await filter.press('Enter')
    await expect(page.getByTestId('row-count')).toHaveText('20')
    const header = grid.getByRole('columnheader', { name: 'score' })
    await header.click()
    await header.click()
    await expect(header).toHaveAttribute('aria-sort', 'descending')
    // Rows 219 … 200: the matching rows, score descending.
    const expected = Array.from({ length: 20 }, (_, k) => 219 - k)
    await expect(gridCell(grid, 0, 1)).toHaveText('row-219')

    // Copy a range of the filtered view: the clipboard holds those rows, not the table's first ones.
    await gridCell(grid, 0, 0).click()
    await gridCell(grid, 2, 1).click({ modifiers: ['Shift'] })
    await page.keyboard.press('ControlOrMeta+c')
    await expect.poll(() => clipboard(page)).toBe(['id\tlabel', ...expected.slice(0, 3).map((i) => `${START + BigInt(i)}\trow-${i}`)].join('\n') + '\n')

    // Export… → CSV: every matching row, in the grid's order, and nothing else.
    await page.getByRole('button', { name: 'Export…' }).click()
    const sheet = page.getByRole('dialog', { name: 'Export rows' })
    await sheet.getByRole('radio', { name: /^CSV/ }).check()
    const download = page.waitForEvent('download')
    await sheet.getByRole('button', { name: 'Export', exact: true }).click()
    const file = await download
    const path = join(dir, `filtered-${file.suggestedFilename()}`)
    await file.saveAs(path)
    const records = parse(await readFile(path), { columns: true }) as Record<string, string>[]
    expect(records.map((r) => r.label)).toEqual(expected.map((i) => `row-${i}`))
    expect(records.map((r) => r.id)).toEqual(expected.map((i) => String(START + BigInt(i))))
  })
})
