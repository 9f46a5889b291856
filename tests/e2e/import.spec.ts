/**
 * Import through the real renderer in Chromium against the real core (harness): files dropped
 * on a namespace (a real drop event carrying a File), the import sheet, the jobs panel with
 * progress and Cancel, the new table opened in the grid. The bytes travel over HTTP
 * (`POST /api/upload`) and progress over Server-Sent Events (`GET /api/events`).
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { Field, Float64, List, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog, sampleTable } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { dropFiles, type DroppedFile } from './drop'

interface Fixture {
  dir: string
  root: string
  harness: Harness
}

const test = base.extend<{ catalog: Fixture }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-import-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, {
      namespaces: [['lab']],
      tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }],
    })
    const harness = await startHarness({ root })
    await use({ dir, root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

/** `rows` rows: id, city, and `emb`, a list of 4 doubles (a vector candidate). */
function measurements(rows: number): Table {
  const ids = Int32Array.from({ length: rows }, (_, i) => i)
  const cities = Array.from({ length: rows }, (_, i) => ['Oslo', 'Lima', 'Pune', 'Kyiv'][i % 4] ?? '')
  const emb = Array.from({ length: rows }, (_, i) => [i, i + 0.25, i + 0.5, i + 0.75])
  return new Table({
    id: vectorFromArray(ids),
    city: vectorFromArray(cities, new Utf8()),
    emb: vectorFromArray(emb, new List(new Field('item', new Float64(), true))),
  })
}

/** Files dropped on a tree row must light it up as a drop target first (pass false for a drop elsewhere). */
const drop = (page: Page, target: Locator, files: DroppedFile[], onRow = true) => dropFiles(page, target, files, { expectDropTarget: onRow })

async function tablesIn(root: string, namespace: string[]): Promise<string[]> {
  const client = await DirNamespaceClient.open(root)
  try {
    return (await client.listTables(namespace)).items
  } finally {
    await client.close()
  }
}

function sheet(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Import / })
}

function jobsPanel(page: Page): Locator {
  return page.getByRole('region', { name: 'Import jobs' })
}

/**
 * Once nothing runs, the panel collapses to the status bar's "Imports: …" line: wait for that line to
 * say `summary` (so the run is over), then show the panel.
 */
async function showFinishedJobs(page: Page, summary: string): Promise<Locator> {
  const indicator = page.getByRole('button', { name: `Imports: ${summary}` })
  await expect(indicator).toHaveAttribute('aria-expanded', 'false')
  await indicator.click()
  await expect(indicator).toHaveAttribute('aria-expanded', 'true')
  return jobsPanel(page)
}

test('a file dropped on a namespace is previewed, imported with progress, and opened in the grid', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await expect(treeItem(page, 'lab')).toBeVisible()
  await drop(page, treeItem(page, 'lab'), [{ name: 'city measurements.arrow', bytes: tableToIPC(measurements(1000), 'file') }])

  const dialog = sheet(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByLabel('Namespace')).toHaveValue('lab')
  // The name comes from the file name, made valid.
  const name = dialog.getByLabel('Table name')
  await expect(name).toHaveValue('city_measurements')
  await expect(dialog.getByRole('radio', { name: 'Create' })).toBeChecked()
  await expect(dialog.getByText('1,000 rows').first()).toBeVisible()
  // The list-of-double column is offered as a vector, and the schema to write follows the choice.
  const vector = dialog.getByRole('checkbox', { name: /emb as vector FixedSizeList<Float32>\[4\]/ })
  await expect(vector).toBeChecked()
  const schema = dialog.getByRole('region', { name: 'Schema to write' })
  await expect(schema).toContainText('FixedSizeList<Float32>[4]')
  await vector.uncheck()
  await expect(schema).not.toContainText('FixedSizeList<Float32>[4]')
  await vector.check()
  await expect(schema).toContainText('FixedSizeList<Float32>[4]')
  // The first 20 rows.
  const sample = dialog.getByRole('table', { name: 'First rows' })
  await expect(sample.locator('tbody tr')).toHaveCount(20)
  await expect(sample.locator('thead th')).toHaveText(['#', 'id', 'city', 'emb'])
  await expect(sample.locator('tbody tr').nth(1)).toContainText('Lima')

  // Live name check with the component rule's words.
  await name.fill('city measurements')
  await expect(dialog.getByText('The name contains whitespace')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
  await name.fill('cities')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await screenshot(page, 'import-sheet')
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toBeHidden()

  // The job ends in the history and the new table is selected and open.
  const panel = await showFinishedJobs(page, '1 done')
  await expect(panel.getByRole('listitem', { name: 'Import of city measurements.arrow' })).toContainText('Done')
  await expect(panel).toContainText('1,000 rows in lab / cities')
  const grid = page.getByRole('grid', { name: 'cities' })
  await expect(grid).toBeVisible()
  await expect(grid).toHaveAttribute('aria-rowcount', '1001')
  await expect(grid.getByRole('columnheader', { name: 'emb' })).toBeVisible()
  await expect(treeItem(page, 'cities')).toHaveAttribute('aria-selected', 'true')
  await screenshot(page, 'import-done')
  expect(await tablesIn(catalog.root, ['lab'])).toContain('cities')
})

test('create over an existing name is refused in the sheet; overwrite needs a confirmation; append shows the difference', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await drop(page, treeItem(page, 'lab'), [{ name: 'existing.arrows', bytes: tableToIPC(measurements(30), 'stream') }])
  const dialog = sheet(page)
  await expect(dialog.getByLabel('Table name')).toHaveValue('existing')
  await expect(dialog.getByRole('alert')).toContainText(/already exists/)
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()

  // Append is off: the schemas differ, and the difference is listed.
  await expect(dialog.getByRole('radio', { name: 'Append' })).toBeDisabled()
  await expect(dialog.getByLabel('Schema difference')).toContainText('city is in the file, not in the table')

  await dialog.getByText('Overwrite', { exact: true }).click()
  const confirm = dialog.getByRole('checkbox', { name: /Replace all 5 rows of “existing”/ })
  await expect(confirm).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Overwrite' })).toBeDisabled()
  await screenshot(page, 'import-sheet-overwrite')
  await confirm.check()
  await expect(dialog.getByRole('button', { name: 'Overwrite' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  // Nothing was written.
  expect(await tablesIn(catalog.root, ['lab'])).toEqual(['existing'])
})

test('append (same schema) and overwrite (confirmed) update the open table', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await treeItem(page, 'lab').click()
  await treeItem(page, 'existing').click()
  await expect(page.getByRole('grid', { name: 'existing' })).toHaveAttribute('aria-rowcount', '6')

  // Same columns as the table: append is offered.
  await drop(page, treeItem(page, 'lab'), [{ name: 'existing.arrow', bytes: tableToIPC(sampleTable(3, { start: 100n }), 'file') }])
  const dialog = sheet(page)
  const append = dialog.getByRole('radio', { name: 'Append' })
  await expect(append).toBeEnabled()
  await dialog.getByText('Append', { exact: true }).click()
  await expect(dialog.getByText('Adds rows to “existing” (5 rows now)')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Append' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Append' }).click()
  await expect(page.getByRole('grid', { name: 'existing' })).toHaveAttribute('aria-rowcount', '9')

  await drop(page, treeItem(page, 'lab'), [{ name: 'existing.arrows', bytes: tableToIPC(measurements(30), 'stream') }])
  await dialog.getByText('Overwrite', { exact: true }).click()
  await dialog.getByRole('checkbox', { name: /Replace all 8 rows of “existing”/ }).check()
  await dialog.getByRole('button', { name: 'Overwrite' }).click()
  const grid = page.getByRole('grid', { name: 'existing' })
  await expect(grid).toHaveAttribute('aria-rowcount', '31')
  await expect(grid.getByRole('columnheader', { name: 'city' })).toBeVisible()
})

test('a corrupt file gets a clear message and nothing is written', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  const good = tableToIPC(measurements(200), 'file')
  await drop(page, treeItem(page, 'lab'), [{ name: 'broken.arrow', bytes: good.subarray(0, Math.floor(good.length / 2)) }])
  const dialog = sheet(page)
  const alert = dialog.getByRole('alert').filter({ hasText: 'This file cannot be imported' })
  await expect(alert).toBeVisible()
  await expect(alert).toContainText(/broken\.arrow/)
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
  await screenshot(page, 'import-sheet-corrupt')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  expect(await tablesIn(catalog.root, ['lab'])).toEqual(['existing'])
})

test('several dropped files queue: one sheet after another, jobs run in turn', async ({ page, catalog }) => {
  await openApp(page, catalog.harness)
  await drop(page, treeItem(page, 'catalog'), [
    { name: 'first.arrow', bytes: tableToIPC(measurements(50), 'file') },
    { name: 'second.arrows', bytes: tableToIPC(measurements(70), 'stream') },
  ])
  const dialog = sheet(page)
  await expect(dialog).toHaveAccessibleName('Import first.arrow')
  await expect(dialog).toContainText('1 more waiting')
  // Another drop, on the window this time, while the sheet is open: it waits its turn too.
  await drop(page, page.locator('.app'), [{ name: 'third.jsonl', bytes: new TextEncoder().encode('{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n') }], false)
  await expect(dialog).toContainText('2 more waiting')
  await expect(dialog.getByLabel('Namespace')).toHaveValue('')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toHaveAccessibleName('Import second.arrows')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toHaveAccessibleName('Import third.jsonl')
  await expect(dialog.getByText('JSON lines')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toBeHidden()

  const panel = await showFinishedJobs(page, '3 done')
  await expect(panel.getByRole('listitem', { name: 'Import of third.jsonl' })).toContainText('Done')
  await expect(panel.getByRole('listitem', { name: 'Import of first.arrow' })).toContainText('Done')
  await expect(panel.getByRole('listitem', { name: 'Import of second.arrows' })).toContainText('Done')
  await expect(panel).toContainText('70 rows in root namespace / second')
  expect((await tablesIn(catalog.root, [])).sort()).toEqual(['first', 'second', 'third'])
  // The last one finished is open.
  await expect(page.getByRole('grid', { name: 'third' })).toHaveAttribute('aria-rowcount', '3')
})

test('a job that fails after its preview shows the reason in the history and leaves no table', async ({ page, catalog }) => {
  // The preview reads the first rows only; the bad line comes far after them.
  const lines = ['id,city', ...Array.from({ length: 30_000 }, (_, i) => `${i},city ${i}`), '30000,too,many,fields']
  await openApp(page, catalog.harness)
  await drop(page, treeItem(page, 'lab'), [{ name: 'towns.csv', bytes: new TextEncoder().encode(`${lines.join('\n')}\n`) }])
  const dialog = sheet(page)
  await expect(dialog).toContainText('CSV')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  const job = jobsPanel(page).getByRole('listitem', { name: 'Import of towns.csv' })
  await expect(job).toContainText('Failed')
  await expect(job).toContainText('line 30002')
  await screenshot(page, 'import-jobs-failed')
  expect(await tablesIn(catalog.root, ['lab'])).toEqual(['existing'])
})

test.afterEach(() => {
  delete process.env.LCB_IMPORT_COMMIT_MB
})

test('an import cancelled mid-way leaves no table', async ({ page, catalog }) => {
  // Big enough to be caught running: 400k rows with 64-d vectors (~120 MB) as an Arrow stream, committed per
  // 8 MiB (the in-process harness reads LCB_IMPORT_COMMIT_MB) so the job is seen between commits.
  process.env.LCB_IMPORT_COMMIT_MB = '8'
  const path = join(catalog.dir, 'big.arrows')
  await writeFile(path, tableToIPC(sampleTable(400_000, { dimension: 64 }), 'stream'))
  await openApp(page, catalog.harness)
  await treeItem(page, 'lab').click()
  // "Import…" in the harness: the file input (a browser has no native dialog giving paths).
  await page.getByRole('button', { name: 'Import files' }).click()
  await page.getByTestId('import-file-input').setInputFiles(path)
  const dialog = sheet(page)
  await expect(dialog.getByLabel('Namespace')).toHaveValue('lab')
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled({ timeout: 60_000 })
  await dialog.getByRole('button', { name: 'Import' }).click()

  const job = jobsPanel(page).getByRole('listitem', { name: 'Import of big.arrows' })
  const bar = job.getByRole('progressbar')
  // Rows are being written: cancel now.
  await expect(job).toContainText('Importing')
  await expect(bar).toHaveAttribute('aria-valuetext', /[1-9][\d,]* rows/)
  // Taken while the click goes out (not awaited first: the job must still be running when Cancel lands).
  const shot = screenshot(page, 'import-jobs-running')
  await job.getByRole('button', { name: 'Cancel import of big.arrows' }).click()
  await shot
  await showFinishedJobs(page, '1 cancelled')
  await expect(job).toContainText('Cancelled')
  await expect(job).toContainText('Cancelled; no table was made')
  await screenshot(page, 'import-jobs-cancelled')

  await page.getByRole('button', { name: 'Refresh tree' }).click()
  await expect(treeItem(page, 'existing')).toBeVisible()
  await expect(treeItem(page, 'big')).toHaveCount(0)
  expect(await tablesIn(catalog.root, ['lab'])).toEqual(['existing'])
})
