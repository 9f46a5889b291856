import { existsSync } from 'node:fs'
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { Int64, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow'
import { parse } from 'csv-parse/sync'
import { startServer } from '../../src/server'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { IMAGE_ROWS } from '../../src/core/demo/tables'
import { buildCatalog, ensureDemoCatalog, sampleTable } from '../helpers/catalog'
import { gridCell } from '../helpers/e2e'
import { expectToolOn, moreTools, moreToolsItem, toolbarButton } from '../e2e/toolbar'
import { readAnswerProbe, startAnswerProbe, watchProcessTree } from '../helpers/hostWatch'
import { ABORTING_READER_ENV, hostileFiles, setEnv } from '../fixtures/import/hostile'
import type { DesktopApp, LaunchOptions, Launcher } from './app'

/**
 * Every desktop flow, written once and run by two launchers: the desktop rig (tests/desktop/rig.spec.ts, in every
 * `npm test`) and real Electron (tests/electron/app.spec.ts, where a binary exists). Each test starts the app
 * as a user would — its own userData — and drives the window, the native dialogs and the menu.
 */

const KEY = 'sk-desktop-4b7e1f9a2c6d8e0b3a5f'
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

interface Fixtures {
  /** A temp dir for this test (catalogs, files to drop, exports); removed afterwards. */
  work: string
  /** Start the app (`seedDemo`: copy a ready demo catalog into userData, so only first-start builds one). */
  launch: (options?: Partial<LaunchOptions> & { seedDemo?: boolean }) => Promise<DesktopApp>
}

interface WorkerFixtures {
  demoSeed: string
}

/**
 * Forget the remembered tabs (settings.json's `tabs`) of an app that has ended: a flow about another thing kept over
 * a restart (a cache) starts the next run without its tabs coming back with their panels open (a click on a
 * restored panel's button would close it).
 */
async function forgetTabs(userData: string): Promise<void> {
  const file = join(userData, 'settings.json')
  const settings = JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>
  delete settings.tabs
  await writeFile(file, JSON.stringify(settings))
}

export function desktopFlows(title: string, launcher: Launcher, unavailable: string | null): void {
  const test = base.extend<Fixtures, WorkerFixtures>({
    demoSeed: [
      // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
      async ({}, use) => {
        const dir = await mkdtemp(join(tmpdir(), 'lcb-desktop-seed-'))
        if (!unavailable) await ensureDemoCatalog(join(dir, 'demo-catalog'))
        await use(join(dir, 'demo-catalog'))
        await rm(dir, { recursive: true, force: true })
      },
      { scope: 'worker', timeout: 120_000 },
    ],
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
    work: async ({}, use) => {
      const dir = await mkdtemp(join(tmpdir(), 'lcb-desktop-'))
      await use(dir)
      await rm(dir, { recursive: true, force: true })
    },
    launch: async ({ work, demoSeed }, use, testInfo) => {
      const apps: DesktopApp[] = []
      await use(async (options = {}) => {
        const userData = options.userData ?? join(work, 'userData')
        if (options.seedDemo !== false) {
          await mkdir(userData, { recursive: true })
          await cp(demoSeed, join(userData, 'demo-catalog'), { recursive: true, force: false, errorOnExist: false })
        }
        const app = await launcher({ ...options, userData })
        apps.push(app)
        return app
      })
      for (const app of apps) {
        if (testInfo.status !== testInfo.expectedStatus) await testInfo.attach('main output', { body: app.output(), contentType: 'text/plain' })
        await app.dispose()
      }
    },
  })

  test.describe(title, () => {
    test.skip(unavailable !== null, unavailable ?? '')
    test.describe.configure({ timeout: 120_000 })

    test('first start creates the demo catalog in userData and opens it; the page has the bridge and no Node', async ({ launch, work }) => {
      const app = await launch({ seedDemo: false })
      const page = await ready(app)
      await expect(treeItem(page, 'demo-catalog')).toHaveAttribute('aria-expanded', 'true')
      await expect(treeItem(page, 'demo')).toBeVisible()
      expect((await readdir(join(work, 'userData', 'demo-catalog'))).length).toBeGreaterThan(0)
      await treeItem(page, 'demo').click()
      await expect(treeItem(page, 'images')).toBeVisible()
      // The page sees window.catalog (three functions), never Node or ipcRenderer.
      expect(await page.evaluate(() => Object.keys((window as unknown as { catalog: object }).catalog).sort())).toEqual(['getPathForFile', 'invoke', 'on'])
      expect(await page.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process])).toEqual(['undefined', 'undefined'])
      await page.screenshot({ path: `test-results/desktop-${app.kind}-first-start.png` })
    })

    test('Open Directory… through the native dialog: int64 exact at both ends; a cancelled dialog changes nothing', async ({ launch, work }) => {
      const root = await int64Catalog(work)
      const app = await launch()
      const page = await ready(app)

      await app.answerNextDialog('open', null)
      await app.clickMenu('File', 'Open Directory…')
      await expect.poll(async () => (await app.dialogsShown()).length).toBe(1)
      await expect(page.getByRole('tree').getByRole('treeitem', { level: 1 })).toHaveCount(1)

      await app.answerNextDialog('open', [root])
      await app.clickMenu('File', 'Open Directory…')
      await expect(treeItem(page, basename(root))).toBeVisible()
      expect((await app.dialogsShown()).map((d) => d.options.properties)).toEqual([['openDirectory'], ['openDirectory']])
      await treeItem(page, 'ends').click()
      const grid = page.getByRole('grid', { name: 'ends' })
      await expect(grid).toHaveAttribute('aria-rowcount', '4')
      await expect(gridCell(grid, 0, 0)).toHaveText(String(INT64_MIN))
      await expect(gridCell(grid, 1, 0)).toHaveText(String(2n ** 53n + 1n))
      await expect(gridCell(grid, 2, 0)).toHaveText(String(INT64_MAX))
    })

    test('a folder dragged onto the window opens as a catalog', async ({ launch, work }) => {
      const root = await int64Catalog(work)
      const app = await launch()
      const page = await ready(app)
      await app.dropPaths(page.locator('.app'), [root])
      await expect(treeItem(page, basename(root))).toBeVisible()
      await expect(treeItem(page, 'ends')).toBeVisible()
    })

    test('a REST server with an API key: the key is stored encrypted, and after a restart the saved connection reconnects', async ({ launch, work }) => {
      const served = await buildCatalog(join(work, 'served'), { namespaces: [['team']], tables: [{ namespace: ['team'], name: 'scores', rows: 20 }] })
      const server = await startServer({ root: served, apiKeys: [KEY], log: () => undefined })
      try {
        let app = await launch()
        let page = await ready(app)
        const dialog = await connectDialog(app, page)
        await dialog.getByLabel('Name', { exact: true }).fill('Team server')
        await dialog.getByLabel('Endpoint URL').fill(server.url)
        await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY)
        await dialog.getByRole('button', { name: 'Save & connect' }).click()
        await expect(dialog).toBeHidden()
        await expect(treeItem(page, 'Team server')).toHaveAttribute('aria-expanded', 'true')
        await expect(treeItem(page, 'team')).toBeVisible()

        await app.quit()
        // Encrypted: the key is nowhere in userData in plain text (nor base64 of it), but an encrypted secret is.
        expect(await filesContaining(app.userData, [KEY, Buffer.from(KEY).toString('base64')])).toEqual([])
        expect(Object.keys(JSON.parse(await readFile(join(app.userData, 'secrets.json'), 'utf8')) as object)).toHaveLength(1)

        app = await launch({ userData: app.userData })
        page = await ready(app)
        await page.getByRole('button', { name: 'Catalog servers' }).click()
        await page.getByRole('menuitem', { name: 'Connect to “Team server”' }).click()
        await expect(treeItem(page, 'Team server')).toHaveAttribute('aria-expanded', 'true')
        await treeItem(page, 'team').click()
        await expect(treeItem(page, 'scores')).toBeVisible()
      } finally {
        await server.close()
      }
    })

    test('without OS encryption (safeStorage unavailable) the app says so and never saves the key in plain text', async ({ launch, work }) => {
      const served = await buildCatalog(join(work, 'served'), { tables: [{ namespace: [], name: 'events', rows: 5 }] })
      const server = await startServer({ root: served, apiKeys: [KEY], log: () => undefined })
      try {
        const app = await launch({ encryption: false })
        const page = await ready(app)
        const dialog = await connectDialog(app, page)
        await dialog.getByLabel('Name', { exact: true }).fill('Team server')
        await dialog.getByLabel('Endpoint URL').fill(server.url)
        await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY)
        await dialog.getByRole('button', { name: 'Save & connect' }).click()
        await expect(dialog.getByRole('alert')).toContainText('The system keychain is not available, so the secret was not saved')
        await page.screenshot({ path: `test-results/desktop-${app.kind}-no-keychain.png` })
        await app.quit()
        expect(await filesContaining(app.userData, [KEY, Buffer.from(KEY).toString('base64')])).toEqual([])
      } finally {
        await server.close()
      }
    })

    test('an Arrow file dropped from disk on a namespace is imported by its path, with progress, and opened', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }] })
      const file = join(work, 'city measurements.arrow')
      await writeFile(file, tableToIPC(sampleTable(1000, { dimension: 0 }), 'file'))
      const app = await launch()
      const page = await openCatalog(app, root)
      await app.dropPaths(treeItem(page, 'lab'), [file])
      const sheet = page.getByRole('dialog', { name: /^Import / })
      await expect(sheet.getByLabel('Table name')).toHaveValue('city_measurements')
      await expect(sheet.getByText('1,000 rows').first()).toBeVisible()
      await sheet.getByRole('button', { name: 'Import' }).click()
      await expect(sheet).toBeHidden()
      await expect(page.getByRole('grid', { name: 'city_measurements' })).toHaveAttribute('aria-rowcount', '1001')
      await expect(page.getByRole('button', { name: /^Imports: 1 done/ })).toBeVisible()
      // By path: the job read the file where it lies on disk, never uploaded (in the rig there is no harness at all).
      const starts = (await app.invokes()).filter((call) => call.method === 'import/start')
      expect(starts.map((call) => (call.input as { source: unknown }).source)).toEqual([{ path: file }])
      expect(await tableNames(root, ['lab'])).toContain('city_measurements')
    })

    test('Import… from the menu (CmdOrCtrl+I) through the open dialog', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { namespaces: [['lab']] })
      const file = join(work, 'cities.csv')
      await writeFile(file, 'id,city\n1,Oslo\n2,Lima\n3,Pune\n')
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'lab').click()
      await app.answerNextDialog('open', [file])
      await app.pressAccelerator('CmdOrCtrl+I')
      const sheet = page.getByRole('dialog', { name: 'Import cities.csv' })
      await expect(sheet.getByLabel('Table name')).toHaveValue('cities')
      await sheet.getByRole('button', { name: 'Import' }).click()
      await expect(page.getByRole('grid', { name: 'cities' })).toHaveAttribute('aria-rowcount', '4')
      expect(await tableNames(root, ['lab'])).toContain('cities')
      const shown = (await app.dialogsShown()).at(-1)
      expect(shown?.options.properties).toEqual(['openFile', 'multiSelections'])
    })

    test('a filtered view exported through the save dialog: the file holds exactly the filtered rows', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500, sample: { start: 2n ** 60n } }] })
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'rows').click()
      const filter = page.getByRole('textbox', { name: 'Filter rows' })
      await filter.fill('score >= 100 AND score < 110')
      await filter.press('Enter')
      await expect(page.getByTestId('row-count')).toHaveText('20')
      const target = join(work, 'filtered.csv')
      await exportCsv(app, page, target)
      await showEndedJobs(page, /ended/)
      await expect(page.getByRole('listitem', { name: 'Export of rows' }).first()).toContainText('Done')
      const records = parse(await readFile(target), { columns: true }) as Record<string, string>[]
      const expected = Array.from({ length: 20 }, (_, k) => 200 + k)
      expect(records.map((r) => r.label).sort()).toEqual(expected.map((i) => `row-${i}`).sort())
      expect(records.map((r) => r.id).sort()).toEqual(expected.map((i) => String(2n ** 60n + BigInt(i))).sort())
      expect((await app.dialogsShown()).map((d) => d.kind)).toEqual(['open', 'save'])
    })

    test('Compare… → Show changes over IPC: the changed rows of a version exported through the save dialog', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 300, sample: { start: 2n ** 60n } }] })
      // v2 changes 20 rows (64-bit keys past 2^53) and deletes 3.
      const lancedb = await import('@lancedb/lancedb')
      const db = await lancedb.connectNamespace('dir', { root })
      const table = await db.openTable('rows')
      await table.update({ where: `id >= ${2n ** 60n + 100n} AND id < ${2n ** 60n + 120n}`, values: { note: 'edited' } })
      await table.delete(`id < ${2n ** 60n + 3n}`)
      table.close()
      db.close()
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'rows').click()
      await page.getByRole('button', { name: 'Versions' }).click()
      const form = page.getByRole('form', { name: 'Compare versions' })
      await form.getByRole('combobox', { name: 'From version' }).selectOption('1')
      await form.getByRole('combobox', { name: 'To version' }).selectOption('3')
      await form.getByRole('button', { name: 'Compare…' }).click()
      await form.getByRole('button', { name: 'Show changes' }).click()
      await expect(page.getByRole('region', { name: 'Changes from version 1 to version 3: 0 added, 3 deleted, 20 changed' })).toBeVisible()
      // What changed is a tab of its own: the tab shown holds the changed rows.
      await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('20')
      const target = join(work, 'changed.csv')
      await exportCsv(app, page, target)
      // Both jobs over (the comparison had ended before the export began, so "ended" alone would not wait for the export).
      await showEndedJobs(page, 'Jobs: 2 other jobs ended')
      await expect(page.getByRole('listitem', { name: 'Export of rows' }).first()).toContainText('Done')
      await expect(page.getByRole('listitem', { name: 'Comparison of rows v1 → v3' })).toContainText('0 added, 3 deleted, 20 changed')
      const records = parse(await readFile(target), { columns: true }) as Record<string, string>[]
      expect(records.map((r) => r.id).sort()).toEqual(Array.from({ length: 20 }, (_, k) => String(2n ** 60n + 100n + BigInt(k))).sort())
      expect(new Set(records.map((r) => r.note))).toEqual(new Set(['edited']))
    })

    test('the embedding map goes through IPC and is kept in userData: reopened after a restart it is answered from the cache', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      const userData = join(work, 'userData')
      for (const kept of [false, true]) {
        const app = await launch({ userData })
        const page = await openCatalog(app, root, 'rows')
        await page.getByRole('button', { name: 'Map', exact: true }).click()
        const map = page.getByRole('region', { name: 'Embedding map' })
        await expect(map.getByTestId('map-points')).toHaveAttribute('data-points', '500')
        await expect(map.getByTestId('map-meta')).toHaveText(`vector · version 1 · 500 points · PCA${kept ? ' · kept' : ''}`)
        if (!kept) {
          // Colour by a number column: by quantiles, seven colours of ~71 rows from the column's values read through
          // IPC (score = row / 2); on the linear scale, the ramp's ends are the column's range.
          await map.getByRole('combobox', { name: 'Colour by' }).selectOption('score')
          const legend = map.getByRole('list', { name: 'Legend' }).getByRole('listitem')
          await expect(legend).toHaveCount(7)
          await expect(legend.first()).toHaveText(/^0 – [\d.]+ · 7[12]$/)
          await expect(legend.last()).toHaveText(/^[\d.]+ – 249\.5 · 7[12]$/)
          await map.getByRole('combobox', { name: 'Colour scale' }).selectOption('linear')
          await expect(legend).toHaveText(['0', '249.5'])
        }
        if (kept) {
          // The lasso's rows cross the preload as a row set (rowsets/create) the grid's view then names.
          await map.getByRole('button', { name: 'Lasso' }).click()
          const box = (await map.getByTestId('map-overlay').boundingBox())!
          await page.mouse.move(box.x + 1, box.y + 1)
          await page.mouse.down()
          for (const [x, y] of [[box.width - 1, 1], [box.width - 1, box.height - 1], [1, box.height - 1], [1, 1]] as const) await page.mouse.move(box.x + x, box.y + y, { steps: 2 })
          await page.mouse.up()
          await expect(page.getByRole('status', { name: 'Row set' })).toContainText('lasso: 500 rows of version 1')
          await expect(page.getByTestId('row-count')).toHaveText('500')
          // The Summary describes the same rows as the grid (the lasso's, ANDed with the filter), through IPC too.
          const filterBox = page.getByRole('textbox', { name: 'Filter rows' })
          await filterBox.fill('score < 50')
          await filterBox.press('Enter')
          await expect(page.getByTestId('row-count')).toHaveText('100')
          await page.getByRole('button', { name: 'Summary', exact: true }).click()
          const summary = page.getByRole('region', { name: 'Summary' })
          await expect(summary.getByTestId('summary-meta')).toHaveText('Version 1 · filtered · lasso · 100 rows')
          await expect(summary.getByRole('row', { name: 'score' })).toContainText('0 – 49.5')
          // A row set's id means nothing in the next session, so its profile is never written beside the settings.
          const profiles = join(userData, 'cache', 'profile')
          expect(existsSync(profiles) ? await readdir(profiles) : []).toEqual([])
        }
        await app.dispose()
        await forgetTabs(userData)
      }
      // One entry of kind `map` beside the settings, nothing in the catalog.
      expect((await readdir(join(userData, 'cache', 'map'))).filter((name) => !name.endsWith('.tmp'))).toHaveLength(1)
    })

    test('the Read-only switch and the sidebar width survive a restart', async ({ launch }) => {
      let app = await launch()
      let page = await ready(app)
      const readOnly = page.getByRole('switch', { name: 'Read-only' })
      await expect(readOnly).toHaveAttribute('aria-checked', 'false')
      await readOnly.click()
      await expect(readOnly).toHaveAttribute('aria-checked', 'true')
      const handle = page.getByRole('separator', { name: 'Resize sidebar' })
      await handle.focus()
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      await expect(handle).toHaveAttribute('aria-valuenow', '292')
      await app.quit()

      app = await launch({ userData: app.userData })
      page = await ready(app)
      await expect(page.getByRole('switch', { name: 'Read-only' })).toHaveAttribute('aria-checked', 'true')
      await expect(page.getByRole('separator', { name: 'Resize sidebar' })).toHaveAttribute('aria-valuenow', '292')
    })

    test('the tabs survive a restart (kept in the settings, not the catalog): their tables, filter, order, scroll, active cell, panels and gallery; a table dropped since says so and offers to close', async ({ launch }) => {
      let app = await launch()
      let page = await ready(app)
      const tabs = page.getByRole('tablist', { name: 'Open tables' })
      await treeItem(page, 'analytics').click()
      await treeItem(page, 'events').click()
      await expect(page.getByRole('grid', { name: 'events', exact: true })).toBeVisible()
      const filter = page.getByRole('textbox', { name: 'Filter rows' })
      await filter.fill('id < 100')
      await filter.press('Enter')
      await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('100')
      // Where the user is in it: row 41 first, a cell of row 45 active, Versions open.
      const status = page.getByRole('tabpanel').getByRole('status', { name: 'Table status' })
      await page.getByRole('grid', { name: 'events', exact: true }).evaluate((element) => (element.scrollTop = 40 * 24))
      await expect(status).toContainText('Rows 41–')
      await page.getByRole('grid', { name: 'events', exact: true }).locator('[aria-rowindex="46"] [role="gridcell"]').nth(1).click()
      await expect(status).toContainText('Row 45, ')
      const activeText = (await status.textContent())!.replace(/^.*(Row 45, \S+).*$/, '$1')
      await page.getByRole('tabpanel').getByRole('button', { name: 'Versions', exact: true }).click()
      await expect(page.getByRole('complementary', { name: 'Versions' })).toBeVisible()
      await treeItem(page, 'welcome').click({ modifiers: ['Control'] })
      await treeItem(page, 'samples').click()
      await treeItem(page, 'empty').click({ button: 'middle' })
      await expect(page.getByRole('grid', { name: 'empty', exact: true })).toBeVisible()
      // The pictures shown as a gallery.
      await treeItem(page, 'pictures').click({ button: 'middle' })
      await page.getByRole('tabpanel').getByRole('button', { name: 'Gallery', exact: true }).click()
      await expect(page.getByRole('grid', { name: 'Gallery of image' })).toBeVisible()
      await expect(tabs.getByRole('tab')).toHaveText(['events', 'welcome', 'empty', 'pictures'])
      await page.keyboard.press('Control+1')
      await expect(tabs.getByRole('tab', { selected: true })).toHaveText('events')
      // Written a moment after the last change, into settings.json (the catalog holds nothing of it).
      const settings = join(app.userData, 'settings.json')
      const remembered = async () => JSON.stringify(JSON.parse(await readFile(settings, 'utf8').catch(() => '{}')).tabs ?? null)
      await expect.poll(remembered, { timeout: 15_000 }).toMatch(/"name":"events","filter":"id < 100","first":40,"cell":\{"row":44,.*"panels":\["versions"\].*"name":"empty".*"name":"pictures","gallery":true\}\],"active":0/)
      await app.quit()

      // Dropped by someone else between the two runs.
      const lancedb = await import('@lancedb/lancedb')
      const db = await lancedb.connectNamespace('dir', { root: join(app.userData, 'demo-catalog') })
      await db.dropTable('empty', ['samples'])
      db.close()

      app = await launch({ userData: app.userData })
      page = await ready(app)
      const restored = page.getByRole('tablist', { name: 'Open tables' })
      await expect(restored.getByRole('tab')).toHaveText(['events', 'welcome', 'empty', 'pictures'], { timeout: 30_000 })
      await expect(restored.getByRole('tab', { selected: true })).toHaveText('events')
      const shown = page.getByRole('tabpanel')
      await expect(shown.getByTestId('row-count')).toHaveText('100')
      await expect(shown.getByRole('textbox', { name: 'Filter rows' })).toHaveValue('id < 100')
      await expect(treeItem(page, 'events')).toHaveAttribute('aria-selected', 'true')
      // Where the user was: the same first row and active cell, Versions open; the pictures as a gallery.
      const shownStatus = shown.getByRole('status', { name: 'Table status' })
      await expect(shownStatus).toContainText('Rows 41–')
      await expect(shownStatus).toContainText(activeText)
      await expect(page.getByRole('complementary', { name: 'Versions' })).toBeVisible()
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-tabs-restored.png`) })
      await restored.getByRole('tab', { name: 'pictures' }).click()
      await expect(page.getByRole('grid', { name: 'Gallery of image' })).toBeVisible()
      await restored.getByRole('tab', { name: 'empty' }).click()
      const gone = page.getByRole('tabpanel').getByRole('alert')
      await expect(gone).toContainText('Could not open empty')
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-tab-gone.png`) })
      await gone.getByRole('button', { name: 'Close tab' }).click()
      await expect(restored.getByRole('tab')).toHaveText(['events', 'welcome', 'pictures'])
    })

    test('a catalog that cannot be reached at restart: the window starts, the refusal is in words, its tabs wait in the settings and come back once it opens', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      let app = await launch()
      let page = await openCatalog(app, root, 'rows')
      const filter = page.getByRole('textbox', { name: 'Filter rows' })
      await filter.fill('id < 50')
      await filter.press('Enter')
      await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('50')
      const settings = join(app.userData, 'settings.json')
      const remembered = async () => JSON.stringify(JSON.parse(await readFile(settings, 'utf8').catch(() => '{}')).tabs?.[`dir:${root}`] ?? null)
      await expect.poll(remembered, { timeout: 15_000 }).toContain('"filter":"id < 50"')
      await app.quit()

      // The catalog is away (an unplugged drive, a network share down) when the app starts again.
      await rename(root, `${root}-away`)
      app = await launch({ userData: app.userData })
      page = await ready(app)
      await app.answerNextDialog('open', [root])
      await app.clickMenu('File', 'Open Directory…')
      await expect(page.getByRole('alert')).toContainText(root)
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-catalog-away.png`) })
      // The window works (the demo catalog is there) and the away catalog's tabs are kept as they were.
      await expect(treeItem(page, 'demo-catalog')).toBeVisible()
      await expect.poll(remembered).toContain('"filter":"id < 50"')

      // Back: opening it restores its tab with its filter.
      await rename(`${root}-away`, root)
      await app.answerNextDialog('open', [root])
      await app.clickMenu('File', 'Open Directory…')
      await expect(page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab', { name: 'rows' })).toBeVisible({ timeout: 30_000 })
      await page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab', { name: 'rows' }).click()
      await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('50')
      await expect(page.getByRole('tabpanel').getByRole('textbox', { name: 'Filter rows' })).toHaveValue('id < 50')
    })

    test('docked panels: Summary, Map and Versions are tabs of the right dock beside a grid of ≥ 480 px; the dock keeps its size after a restart', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      let app = await launch()
      let page = await openCatalog(app, root, 'rows')
      const grid = page.getByRole('grid', { name: 'rows' })
      for (const name of ['Summary', 'Map', 'Versions']) await page.getByRole('button', { name, exact: true }).click()
      await expect(page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')).toHaveText(['Summary', 'Map', 'Versions'])
      await expect(page.getByRole('complementary', { name: 'Versions' })).toBeVisible()
      expect((await grid.boundingBox())!.width).toBeGreaterThanOrEqual(480)
      const separator = page.getByRole('separator', { name: 'Resize dock' })
      await separator.focus()
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft')
      const size = await separator.getAttribute('aria-valuenow')
      await page.keyboard.press('Escape')
      await expect(page.getByRole('complementary', { name: 'Versions' })).toHaveCount(0)
      await app.quit()
      await forgetTabs(app.userData)

      app = await launch({ userData: app.userData })
      page = await openCatalog(app, root, 'rows')
      await page.getByRole('button', { name: 'Summary', exact: true }).click()
      await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveAttribute('aria-valuenow', size!)
    })

    test('docked panels opened by the grid: the cell inspector is a tab of the right dock, Similar rows opens in the bottom dock under the grid', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'rows').click()
      const grid = page.getByRole('grid', { name: 'rows' })
      await page.getByRole('button', { name: 'Summary', exact: true }).click()
      // Enter on a cell: the inspector beside Summary, as the right dock's shown tab, reading the cell through IPC.
      await grid.getByRole('gridcell', { name: 'row-7', exact: true }).click()
      await page.keyboard.press('Enter')
      const inspector = page.getByRole('complementary', { name: 'Cell inspector' })
      await expect(inspector).toContainText('Row 8')
      await expect(page.getByRole('tablist', { name: 'Right dock' }).getByRole('tab')).toHaveText(['Summary', 'Inspector'])
      await expect(page.locator('[data-dock="right"]').getByRole('complementary', { name: 'Cell inspector' })).toBeVisible()
      // Find similar rows from the cell's menu: the bottom dock under the grid, the grid showing the nearest rows.
      await grid.getByRole('gridcell', { name: 'row-7', exact: true }).click({ button: 'right' })
      await page.getByRole('menuitem', { name: 'Find similar rows' }).click()
      const similar = page.locator('[data-dock="bottom"]').getByRole('region', { name: 'Similar rows' })
      await expect(similar).toContainText('Nearest 20 to row 8')
      await expect(grid.getByRole('columnheader', { name: '_distance' })).toBeVisible()
      await expect(grid.getByRole('gridcell', { name: 'row-7', exact: true })).toBeVisible()
      const [gridBox, dockBox] = [(await grid.boundingBox())!, (await similar.boundingBox())!]
      expect(dockBox.y).toBeGreaterThanOrEqual(gridBox.y + gridBox.height - 1)
      await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveCount(2)
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-docks-inspector-similar.png`) })
      await similar.getByRole('button', { name: 'Clear search' }).click()
      await expect(similar).toHaveCount(0)
      await expect(grid.getByRole('columnheader', { name: '_distance' })).toHaveCount(0)
    })

    test('the View menu drives the tabs: Next Tab, Split Right, Close Tab, Reopen Closed Tab, Previous Tab', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), {
        tables: [
          { namespace: [], name: 'orders', rows: 30 },
          { namespace: [], name: 'items', rows: 20 },
        ],
      })
      const app = await launch()
      const page = await openCatalog(app, root)
      const tabs = page.getByRole('tablist', { name: 'Open tables' })
      await treeItem(page, 'orders').click()
      await treeItem(page, 'items').click({ modifiers: ['ControlOrMeta'] })
      await expect(tabs.getByRole('tab')).toHaveText(['orders', 'items'])
      await expect(tabs.getByRole('tab', { name: 'items' })).toHaveAttribute('aria-selected', 'true')
      await app.clickMenu('View', 'Next Tab')
      await expect(tabs.getByRole('tab', { name: 'orders' })).toHaveAttribute('aria-selected', 'true')
      await app.clickMenu('View', 'Split Right')
      await expect(page.getByRole('tabpanel')).toHaveCount(2)
      await expect(page.getByRole('grid', { name: 'orders', exact: true })).toHaveCount(2)
      // The split's right pane is a tab of its own: it stays when the split closes.
      await page.getByRole('button', { name: 'Close split' }).click()
      await expect(page.getByRole('tabpanel')).toHaveCount(1)
      await expect(tabs.getByRole('tab')).toHaveText(['orders', 'orders', 'items'])
      await app.clickMenu('View', 'Close Tab')
      await expect(tabs.getByRole('tab')).toHaveText(['orders', 'items'])
      await app.clickMenu('View', 'Close Tab')
      await expect(tabs.getByRole('tab')).toHaveText(['orders'])
      await app.clickMenu('View', 'Reopen Closed Tab')
      await expect(tabs.getByRole('tab')).toHaveText(['orders', 'items'])
      await expect(tabs.getByRole('tab', { name: 'items' })).toHaveAttribute('aria-selected', 'true')
      await expect(page.getByRole('grid', { name: 'items', exact: true }).getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
      await app.clickMenu('View', 'Previous Tab')
      await expect(tabs.getByRole('tab', { name: 'orders' })).toHaveAttribute('aria-selected', 'true')
    })

    test('Split right: one table at two versions side by side, each pane its own grid and version', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'orders', rows: 200 }] })
      // v2: 10 rows added (210); v1 keeps 200.
      const lancedb = await import('@lancedb/lancedb')
      const db = await lancedb.connectNamespace('dir', { root })
      const table = await db.openTable('orders', [])
      await table.add(sampleTable(10, { start: 200n }))
      table.close()
      db.close()
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'orders').click()
      await expect(page.getByRole('tabpanel').getByTestId('row-count')).toHaveText('210')
      // Version 1 pinned in the tab, from the Versions panel.
      await page.getByRole('button', { name: 'Versions', exact: true }).click()
      const versions = page.getByRole('complementary', { name: 'Versions' })
      await versions.getByRole('listitem', { name: /^Version 1,/ }).getByRole('button', { name: 'Open read-only' }).click()
      const tabs = page.getByRole('tablist', { name: 'Open tables' })
      await expect(tabs.getByRole('tab', { name: 'orders @ v1', exact: true })).toBeVisible()
      await page.getByRole('button', { name: 'Versions', exact: true }).click()
      await expect(versions).toHaveCount(0)

      // Split right shows the same view beside it; the right one goes back to the latest version.
      await page.getByRole('button', { name: 'Split right' }).click()
      const panes = page.getByRole('tabpanel')
      await expect(panes).toHaveCount(2)
      await expect(page.getByRole('grid', { name: 'orders', exact: true })).toHaveCount(2)
      const [left, right] = [panes.nth(0), panes.nth(1)]
      await expect(right.getByTestId('table-version')).toHaveText('1')
      await right.getByRole('note').getByRole('button', { name: 'Back to latest' }).click()
      await expect(right.getByTestId('table-version')).toHaveText('2')
      await expect(right.getByTestId('row-count')).toHaveText('210')
      await expect(left.getByTestId('table-version')).toHaveText('1')
      await expect(left.getByTestId('row-count')).toHaveText('200')
      await expect(tabs.getByRole('tab')).toHaveText(['orders @ v1', 'orders'])
      // Each pane's grid reads its own version (the header row counts too) and shows its rows.
      await expect(right.getByRole('grid')).toHaveAttribute('aria-rowcount', '211')
      await expect(left.getByRole('grid')).toHaveAttribute('aria-rowcount', '201')
      for (const pane of [left, right]) await expect(pane.getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
      // The split is resized from the keyboard.
      const separator = page.getByRole('separator', { name: 'Resize split' })
      await expect(separator).toHaveAttribute('aria-valuenow', '50')
      await separator.focus()
      await page.keyboard.press('ArrowLeft')
      await expect(separator).toHaveAttribute('aria-valuenow', '45')
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-split.png`) })
      // The pane's toolbar keeps one line: Summary is in its More tools menu and opens that pane's dock, checked.
      await moreTools(right).click()
      await moreToolsItem(right, 'Summary').click()
      await expect(right.getByRole('region', { name: 'Summary' })).toBeVisible()
      await expect(left.getByRole('region', { name: 'Summary' })).toHaveCount(0)
      await expectToolOn(right, 'Summary', true)
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-split-summary.png`) })
      await page.getByRole('button', { name: 'Close split' }).click()
      await expect(page.getByRole('tabpanel')).toHaveCount(1)
    })

    test('in a 900×600 window Summary, Map and Versions lie in one drawer over the grid; Escape closes it', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      const app = await launch()
      const page = await openCatalog(app, root)
      await page.setViewportSize({ width: 900, height: 600 })
      await treeItem(page, 'rows').click()
      const grid = page.getByRole('grid', { name: 'rows' })
      await expect(grid.getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
      for (const name of ['Summary', 'Map', 'Versions']) await toolbarButton(page, name)
      const drawer = page.locator('[data-dock="drawer"]')
      await expect(drawer.getByRole('tab')).toHaveText(['Summary', 'Map', 'Versions'])
      await expect(page.getByRole('complementary', { name: 'Versions' })).toBeVisible()
      // A drawer has no splitter; the grid keeps its width under it and still shows rows.
      await expect(page.getByRole('separator', { name: 'Resize dock' })).toHaveCount(0)
      expect((await grid.boundingBox())!.width).toBeGreaterThanOrEqual(480)
      await expect(grid.getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
      await drawer.getByRole('tab', { name: 'Map' }).click()
      await expect(page.getByRole('region', { name: 'Embedding map' })).toBeVisible()
      await page.screenshot({ path: join('test-results', `desktop-${app.kind}-drawer.png`) })
      // One Escape closes the whole drawer; the panels' buttons are off again.
      await page.keyboard.press('Escape')
      await expect(drawer).toHaveCount(0)
      for (const name of ['Summary', 'Map', 'Versions']) await expectToolOn(page, name, false)
      await expect(grid.getByRole('gridcell', { name: 'row-0', exact: true })).toBeVisible()
    })

    test('a column profile survives a restart: the Summary of the same version is answered from userData/cache', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 500 }] })
      let app = await launch()
      let page = await openCatalog(app, root, 'rows')
      await page.getByRole('button', { name: 'Summary', exact: true }).click()
      await expect(page.getByRole('region', { name: 'Summary' }).getByTestId('summary-meta')).toHaveText('Version 1 · 500 rows')
      // Kept beside the settings, never in the catalog.
      expect(await readdir(join(app.userData, 'cache', 'profile'))).toHaveLength(1)
      await app.quit()
      await forgetTabs(app.userData)

      app = await launch({ userData: app.userData })
      page = await openCatalog(app, root, 'rows')
      await page.getByRole('button', { name: 'Summary', exact: true }).click()
      await expect(page.getByRole('region', { name: 'Summary' }).getByTestId('summary-meta')).toHaveText('Version 1 · 500 rows · kept')
      await expect(page.getByRole('region', { name: 'Summary' }).getByRole('row', { name: 'score' })).toContainText('0 – 249.5')
    })

    test('window.open and navigation to an outside URL are refused; only http(s) links go to the browser', async ({ launch }) => {
      const outside = await outsideServer()
      try {
        const app = await launch()
        const page = await ready(app)
        const appUrl = page.url()
        const opened = await page.evaluate((url) => [window.open(url), window.open('file:///etc/passwd')], `${outside.url}/popup`)
        expect(opened).toEqual([null, null])
        await expect.poll(() => app.openedExternally()).toEqual([`${outside.url}/popup`])

        await page.evaluate((url) => {
          window.location.href = url
        }, `${outside.url}/page`)
        // The window stays on the app, which still answers; the outside server never saw a request.
        await expect(page).toHaveURL(appUrl)
        expect(await bridgeCall(page, 'connections/list')).toMatchObject({ ok: true })
        await expect(treeItem(page, 'demo-catalog')).toBeVisible()
        expect(outside.requests).toEqual([])
        expect(app.output()).not.toMatch(/Uncaught|TypeError/)
      } finally {
        await outside.close()
      }
    })

    test('IPC is refused from a page that is not the app, and for unknown methods; uncloneable arguments never leave the page', async ({ launch }) => {
      const app = await launch()
      const page = await ready(app)
      expect(await bridgeCall(page, 'fs/readFile')).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
      const uncloneable = await page.evaluate(() =>
        (window as unknown as { catalog: { invoke(m: string, i: unknown): Promise<unknown> } }).catalog.invoke('app/info', { f: () => 1 }).then(
          () => 'sent',
          (error: Error) => error.message,
        ),
      )
      expect(uncloneable).toMatch(/could not be cloned/)
      // Over the window's port to the catalog host too (a page of rows goes that way).
      const uncloneablePage = await page.evaluate(() =>
        (window as unknown as { catalog: { invoke(m: string, i: unknown): Promise<unknown> } }).catalog.invoke('tables/page', { f: () => 1 }).then(
          () => 'sent',
          (error: Error) => error.message,
        ),
      )
      expect(uncloneablePage).toMatch(/could not be cloned/)

      // main itself puts a foreign page in the window (as a redirect would): the preload runs there too, but main's
      // sender check refuses its calls, and gives it no port to the catalog host (a page of rows would go over one).
      await app.loadFromMain('data:text/html,<title>foreign</title><p>foreign page</p>')
      await expect(page.getByText('foreign page')).toBeVisible()
      expect(await bridgeCall(page, 'app/info')).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
      expect(await bridgeCall(page, 'tables/page')).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
    })

    test('pages of rows reach the window over its own port to the catalog host, never copied through main; other calls go through main', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'long', rows: 5000 }] })
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'long').click()
      const grid = page.getByRole('grid', { name: 'long' })
      await expect(grid).toHaveAttribute('aria-rowcount', '5001')
      // Scroll to the end: later pages are read as the rows come into view.
      await grid.focus()
      await page.keyboard.press('Control+End')
      await expect(gridCell(grid, 4999, 0)).toHaveText('4999')
      const calls = await app.invokes()
      const pages = calls.filter((c) => c.method === 'tables/page')
      // Main saw none of them; on the rig, which sees both ways, they all went over the port.
      expect(pages.filter((c) => c.via === 'invoke')).toEqual([])
      if (app.kind === 'rig') expect(pages.length).toBeGreaterThanOrEqual(2)
      // What is not bytes goes through main, where every call passes the sender check.
      expect(calls.filter((c) => c.method === 'tables/describe').map((c) => c.via)).toContain('invoke')
      expect(calls.filter((c) => c.via === 'port').every((c) => ['tables/page', 'map/coords', 'import/sample'].includes(c.method))).toBe(true)
    })

    test('a renderer that throws or reloads never takes main down', async ({ launch }) => {
      const app = await launch()
      const page = await ready(app)
      const uncaught = page.waitForEvent('pageerror')
      await page.evaluate(() => {
        setTimeout(() => {
          throw new Error('renderer failure for the test')
        })
      })
      expect((await uncaught).message).toContain('renderer failure for the test')
      await page.reload()
      await expect(treeItem(page, 'demo-catalog')).toBeVisible()
      expect(await bridgeCall(page, 'connections/list')).toMatchObject({ ok: true })
    })

    test('Gallery: the demo pictures as thumbnails read through IPC; Enter opens the active one in the inspector', async ({ launch }) => {
      const app = await launch()
      const page = await ready(app)
      await treeItem(page, 'samples').click()
      await treeItem(page, 'pictures').click()
      await expect(page.getByRole('grid', { name: 'pictures', exact: true })).toBeVisible()
      const toggle = page.getByRole('button', { name: 'Gallery', exact: true })
      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-pressed', 'true')
      const gallery = page.getByRole('grid', { name: 'Gallery of image' })
      await expect(gallery).toBeFocused()
      await expect(gallery).toHaveAttribute('data-row-count', String(IMAGE_ROWS))
      // Drawn from the bytes the main process read: a PNG (row 1) and a JPEG (row 6), each its image's pixels.
      const thumbnail = (n: number) => gallery.getByRole('img', { name: `Row ${n}`, exact: true })
      for (const [n, type] of [
        [1, 'image/png'],
        [6, 'image/jpeg'],
      ] as const) {
        await expect(thumbnail(n)).toHaveAttribute('data-state', 'ready')
        await expect(thumbnail(n)).toHaveAttribute('data-type', type)
      }
      expect(await thumbnail(1).evaluate((canvas: HTMLCanvasElement) => [canvas.width, canvas.height])).toEqual([48, 48])
      await expect(gallery.getByRole('img', { name: 'Row 10: null', exact: true })).toHaveText('null')

      // The arrows move the active thumbnail (the first ArrowRight from none goes to the second row); Enter opens its
      // row in the cell inspector, with the image.
      await page.keyboard.press('ArrowRight')
      await page.keyboard.press('ArrowRight')
      await expect(gallery.locator('[role="gridcell"][aria-selected="true"]').getByRole('img')).toHaveAccessibleName('Row 3')
      await page.keyboard.press('Enter')
      const inspector = page.getByRole('complementary', { name: 'Cell inspector' })
      await expect(inspector).toContainText('Row 3')
      await expect(inspector.getByRole('img', { name: /^PNG image/ })).toBeVisible()
      await page.screenshot({ path: `test-results/desktop-${app.kind}-gallery.png` })

      // Escape closes the inspector, then the gallery: the table's grid is back.
      await page.keyboard.press('Escape')
      await expect(inspector).toBeHidden()
      await page.keyboard.press('Escape')
      await expect(gallery).toBeHidden()
      await expect(page.getByRole('grid', { name: 'pictures', exact: true })).toBeFocused()
    })

    test('each file of issue #43 dropped on a namespace: refused in words, the host answering within a second throughout and its processes under 2 GiB; the next import works', async ({ launch, work }) => {
      test.setTimeout(300_000)
      const root = await buildCatalog(join(work, 'catalog'), { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }] })
      const files = await hostileFiles(await mkdtemp(join(work, 'files-')))
      // The zoned Parquet file imports now; with polars' zone check back on it aborts its reader (hostile.ts). The
      // app's main, its catalog host and their readers inherit this process's environment.
      const restoreEnv = setEnv(ABORTING_READER_ENV)
      const app = await launch().finally(restoreEnv)
      const page = await openCatalog(app, root)
      const lab = treeItem(page, 'lab')
      const host = await app.hostPid()
      await startAnswerProbe(page)
      const watch = watchProcessTree(host)
      for (const file of files) {
        await app.dropPaths(lab, [file.path])
        await readAnswerProbe(page)
        const sheet = page.getByRole('dialog', { name: /^Import / })
        const alert = sheet.getByRole('alert').filter({ hasText: 'This file cannot be imported' })
        await expect(alert, file.name).toContainText(file.says, { timeout: 60_000 })
        await expect(sheet.getByRole('button', { name: 'Import' })).toBeDisabled()
        const answered = await readAnswerProbe(page)
        expect(answered.maxMs, `${file.name}: the longest answer while it was read`).toBeLessThan(1_000)
        await page.keyboard.press('Escape')
        await expect(sheet).toBeHidden()
      }
      const { peakMiB, processes } = watch.stop()
      test.info().annotations.push({ type: 'peak RSS', description: `${Math.round(peakMiB)} MiB (the largest of the host and its ${processes - 1} readers)` })
      expect(peakMiB).toBeLessThan(2048)
      // The same host all along (none of these files ended it), and the next file imports.
      expect(await app.hostPid()).toBe(host)
      const good = join(work, 'good.csv')
      await writeFile(good, 'id,city\n1,Oslo\n2,Lima\n')
      await app.dropPaths(lab, [good])
      const sheet = page.getByRole('dialog', { name: 'Import good.csv' })
      await sheet.getByRole('button', { name: 'Import' }).click()
      await expect(page.getByRole('grid', { name: 'good' })).toHaveAttribute('aria-rowcount', '3')
      expect((await tableNames(root, ['lab'])).sort()).toEqual(['existing', 'good'])
    })

    test('the catalog host killed (kill -9) mid-import: the window says so and stays usable; Restart reopens the open table; nothing is lost', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { namespaces: [['lab']], tables: [{ namespace: [], name: 'kept', rows: 250 }] })
      const rows = 400_000
      const file = join(work, 'big.csv')
      await writeFile(file, ['id,label', ...Array.from({ length: rows }, (_, i) => `${i},label-${i}-${'x'.repeat(40)}`)].join('\n'))
      const before = await entries(root)
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'kept').click()
      const grid = page.getByRole('grid', { name: 'kept' })
      await expect(grid).toHaveAttribute('aria-rowcount', '251')
      await app.dropPaths(treeItem(page, 'lab'), [file])
      const sheet = page.getByRole('dialog', { name: 'Import big.csv' })
      await expect(sheet.getByLabel('Table name')).toHaveValue('big')
      await sheet.getByRole('button', { name: 'Import' }).click()
      await expect(page.getByRole('button', { name: /^Imports: 1 running/ }).or(page.getByRole('region', { name: 'Import jobs' }))).toBeVisible()

      const first = await app.hostPid()
      process.kill(first, 'SIGKILL')
      const banner = page.getByRole('alert', { name: 'The catalog host stopped' })
      await expect(banner).toContainText('The catalog host stopped unexpectedly')
      await expect(banner).toContainText(/exit code \d+/)
      // The window and main still answer: the menu delivers its command, the renderer's own dialogs open.
      await app.clickMenu('File', 'Connect to Server…')
      const connect = page.getByRole('dialog', { name: 'Connect to server' })
      await expect(connect).toBeVisible()
      await page.keyboard.press('Escape')
      await expect(connect).toBeHidden()
      // A call while it is down is refused in words, not left hanging.
      expect(await bridgeCall(page, 'connections/list')).toMatchObject({ ok: false, error: { code: 'unavailable', message: 'The catalog host is not running' } })
      await page.screenshot({ path: `test-results/desktop-${app.kind}-host-stopped.png` })

      await banner.getByRole('button', { name: 'Restart the catalog host' }).click()
      await expect(banner).toBeHidden()
      expect(await app.hostPid()).not.toBe(first)
      // The same catalog under the same id, the open table read again, the import recorded as failed with why.
      await expect(page.getByRole('grid', { name: 'kept' })).toHaveAttribute('aria-rowcount', '251')
      await expect(treeItem(page, basename(root))).toBeVisible()
      await expect(page.getByRole('button', { name: /^Imports: .*1 failed/ })).toBeVisible()
      await expect(page.getByRole('listitem', { name: 'Import of big.csv' })).toContainText('FailedThe catalog host stopped while this job ran')
      // Nothing half-made: the reopened catalog was recovered (the killed writer's staging undone); the table is
      // whole or absent, and the catalog still takes the same import.
      const names = await tableNames(root, ['lab'])
      if (names.includes('big')) expect(await rowCount(root, ['lab'], 'big')).toBe(rows)
      else expect(names).toEqual([])
      const after = (await entries(root)).filter((name) => !before.includes(name))
      expect(after.filter((name) => !name.endsWith('big.lance'))).toEqual([])
      if (!names.includes('big')) {
        await app.dropPaths(treeItem(page, 'lab'), [file])
        const again = page.getByRole('dialog', { name: 'Import big.csv' })
        await again.getByRole('button', { name: 'Import' }).click()
        await expect(page.getByRole('grid', { name: 'big' })).toHaveAttribute('aria-rowcount', String(rows + 1), { timeout: 90_000 })
      }
    })

    test('a catalog host that stops answering (paused) is reported; Restart ends it and reopens the catalog', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'kept', rows: 40 }] })
      const app = await launch()
      const page = await openCatalog(app, root)
      await treeItem(page, 'kept').click()
      await expect(page.getByRole('grid', { name: 'kept' })).toHaveAttribute('aria-rowcount', '41')
      const first = await app.hostPid()
      process.kill(first, 'SIGSTOP')
      try {
        const banner = page.getByRole('alert', { name: 'The catalog host is not answering' })
        await expect(banner).toContainText('No answer for', { timeout: 30_000 })
        // Main is not blocked with it: the menu still works.
        await app.clickMenu('File', 'Connect to Server…')
        await expect(page.getByRole('dialog', { name: 'Connect to server' })).toBeVisible()
        await page.keyboard.press('Escape')
        await banner.getByRole('button', { name: 'Restart the catalog host' }).click()
        await expect(banner).toBeHidden()
      } finally {
        try {
          process.kill(first, 'SIGCONT')
        } catch {
          // ended by the restart
        }
      }
      expect(await app.hostPid()).not.toBe(first)
      await expect(page.getByRole('grid', { name: 'kept' })).toHaveAttribute('aria-rowcount', '41')
    })

    test('closing the window while an import runs leaves nothing half-made', async ({ launch, work }) => {
      const root = await buildCatalog(join(work, 'catalog'), { namespaces: [['lab']] })
      const rows = 400_000
      const file = join(work, 'big.csv')
      await writeFile(file, ['id,label', ...Array.from({ length: rows }, (_, i) => `${i},label-${i}-${'x'.repeat(40)}`)].join('\n'))
      const before = await entries(root)
      let app = await launch()
      const page = await openCatalog(app, root)
      await app.dropPaths(treeItem(page, 'lab'), [file])
      const sheet = page.getByRole('dialog', { name: 'Import big.csv' })
      await expect(sheet.getByLabel('Table name')).toHaveValue('big')
      await sheet.getByRole('button', { name: 'Import' }).click()
      await expect(page.getByRole('button', { name: /^Imports: 1 running/ }).or(page.getByRole('region', { name: 'Import jobs' }))).toBeVisible()
      await app.closeWindow()
      await app.exited()

      // Start again and open the catalog (its recovery runs): the table is whole or absent, and nothing else is left.
      app = await launch({ userData: app.userData })
      await openCatalog(app, root, 'lab')
      const names = await tableNames(root, ['lab'])
      test.info().annotations.push({ type: 'import', description: names.includes('big') ? 'had finished before the window closed' : 'was interrupted' })
      if (names.includes('big')) expect(await rowCount(root, ['lab'], 'big')).toBe(rows)
      else expect(names).toEqual([])
      const after = (await entries(root)).filter((name) => !before.includes(name))
      expect(after.filter((name) => name !== 'lab$big.lance' && !name.endsWith('big.lance'))).toEqual([])
    })
  })
}

// ---- helpers ----

/** The open view exported as CSV through Export… and the save dialog (answered with `target`). */
async function exportCsv(app: DesktopApp, page: Page, target: string): Promise<void> {
  await app.answerNextDialog('save', target)
  await page.getByRole('button', { name: 'Export…' }).click()
  const sheet = page.getByRole('dialog', { name: 'Export rows' })
  await sheet.getByRole('radio', { name: /^CSV/ }).check()
  await sheet.getByRole('button', { name: 'Export', exact: true }).click()
}

/**
 * Once the run is over the jobs panel folds away to the status bar's indicator: wait until the indicator says
 * `ended` (its whole name, or a pattern in its text), then open the panel to see the jobs.
 */
async function showEndedJobs(page: Page, ended: string | RegExp): Promise<void> {
  const indicator = page.getByRole('button', { name: /^Jobs: / })
  if (typeof ended === 'string') await expect(indicator).toHaveAccessibleName(ended)
  else await expect(indicator).toContainText(ended)
  if ((await indicator.getAttribute('aria-expanded')) !== 'true') await indicator.click()
}

function treeItem(page: Page, name: string): Locator {
  return page.getByRole('treeitem', { name, exact: true })
}

/** The window, once the app shows its tree. */
async function ready(app: DesktopApp): Promise<Page> {
  const page = await app.window()
  await expect(page.getByRole('tree')).toBeVisible({ timeout: 60_000 })
  return page
}

/**
 * Open a catalog directory through File › Open Directory… and the native dialog; with `item`, then click that table
 * (or namespace) in its tree — how a restart flow starts each run.
 */
async function openCatalog(app: DesktopApp, root: string, item?: string): Promise<Page> {
  const page = await ready(app)
  await app.answerNextDialog('open', [root])
  await app.clickMenu('File', 'Open Directory…')
  await expect(treeItem(page, basename(root))).toHaveAttribute('aria-expanded', 'true')
  if (item !== undefined) await treeItem(page, item).click()
  return page
}

async function connectDialog(app: DesktopApp, page: Page): Promise<Locator> {
  await app.clickMenu('File', 'Connect to Server…')
  const dialog = page.getByRole('dialog', { name: 'Connect to server' })
  await expect(dialog).toBeVisible()
  return dialog
}

function bridgeCall(page: Page, method: string): Promise<unknown> {
  return page.evaluate((m) => (window as unknown as { catalog: { invoke(m: string, i: object): Promise<unknown> } }).catalog.invoke(m, {}), method)
}

/** A catalog with one table whose int64 ids are the type's both ends (and one past 2^53). */
async function int64Catalog(work: string): Promise<string> {
  const ids = [INT64_MIN, 2n ** 53n + 1n, INT64_MAX]
  const data = new Table({ id: vectorFromArray(ids, new Int64()), label: vectorFromArray(['min', 'past 2^53', 'max'], new Utf8()) })
  return buildCatalog(join(work, 'ends-catalog'), { tables: [{ namespace: [], name: 'ends', data }] })
}

async function tableNames(root: string, namespace: string[]): Promise<string[]> {
  const client = await DirNamespaceClient.open(root)
  try {
    return (await client.listTables(namespace)).items
  } finally {
    await client.close()
  }
}

async function rowCount(root: string, namespace: string[], name: string): Promise<number> {
  const client = await DirNamespaceClient.open(root)
  try {
    return await client.countRows({ namespace, name })
  } finally {
    await client.close()
  }
}

async function entries(root: string): Promise<string[]> {
  const names = await readdir(root)
  const journal = names.includes('.lcb-journal') ? await readdir(join(root, '.lcb-journal')) : []
  return names.filter((name) => name !== '.lcb-journal' || journal.length > 0)
}

/** Files under `dir` whose bytes contain any of `needles`. */
async function filesContaining(dir: string, needles: string[]): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const bytes = await readFile(path).catch(() => Buffer.alloc(0))
    if (needles.some((needle) => bytes.includes(needle) || bytes.includes(Buffer.from(needle, 'utf16le')))) found.push(path)
  }
  return found
}

/** An http server on loopback standing for "the outside": it records every request it gets. */
async function outsideServer(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = []
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? '')
    response.end('<h1>outside</h1>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  // Chromium may keep an idle (preconnected) socket open: end it, or close() would wait for it.
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { url: `http://127.0.0.1:${port}`, requests, close }
}
