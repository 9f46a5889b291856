import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { untilEndedUnseen } from '../helpers/processes'
import { desktopFlows } from './flows'
import { launchRig, type RigApp } from './rig/rig'
import { encodeViewLink } from '../../src/contract/viewLink'
import { buildCatalog, ensureDemoCatalog } from '../helpers/catalog'
import { gridCell } from '../helpers/e2e'

// Every desktop flow on the rig: the built main bundle and preload, Chromium as the window (see docs/desktop.md,
// "The desktop test rig").
desktopFlows('desktop app (rig)', launchRig, null)

test.describe('desktop app (rig) — a preload that fails', () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('the window says the bridge could not start, with the error, instead of falling back to the harness', async ({}, testInfo) => {
    const userData = testInfo.outputPath('userData')
    const broken = testInfo.outputPath('broken-preload.js')
    // What the preload was before it was made sandbox-safe: an npm package required at run time.
    await writeFile(broken, '"use strict";\nconst zod = require("zod");\nrequire("electron").contextBridge.exposeInMainWorld("catalog", { zod });\n')
    const app = await launchRig({ userData, replacePreload: broken })
    try {
      const page = await app.window()
      const alert = page.getByRole('alert')
      await expect(alert).toContainText('The app could not start', { timeout: 60_000 })
      await expect(alert).toContainText('The app could not start its bridge to the catalog: module not found: zod')
      expect(await page.evaluate(() => typeof (window as unknown as { catalog?: unknown }).catalog)).toBe('undefined')
      expect(new URL(page.url()).searchParams.get('bridge-error')).toBe('module not found: zod')
      expect(app.output()).toContain('failed: Error: module not found: zod')
      await page.screenshot({ path: join('test-results', 'desktop-rig-bridge-error.png') })
    } finally {
      await app.dispose()
    }
  })
})

test.describe('desktop app (rig) — main ending under a message', () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('a message to main in the moment it ends is dropped, as Electron drops it, not thrown into the test', async ({}, testInfo) => {
    const app = await launchRig({ userData: testInfo.outputPath('userData') })
    try {
      await app.window()
      // main ends, and this process does not see it yet: its event loop is held while the kernel closes main's pipe.
      // (A fresh-clone run once failed this way: the page called main as it quit, and the write's EPIPE was thrown.)
      process.kill(app.mainPid, 'SIGKILL')
      untilEndedUnseen(app.mainPid)
      await expect(app.clickMenu('File', 'Quit')).rejects.toThrow('no enabled menu item File › Quit')
      await app.exited()
      expect(app.output()).toMatch(/\[rig\] a message to main was lost \(.*EPIPE.*\): menu-click/)
    } finally {
      await app.dispose()
    }
  })
})

test.describe('desktop app (rig) — links to a view', () => {
  test.describe.configure({ timeout: 180_000 })
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('a second launch with a lance-catalog:// link hands it to the first window: asked first for a catalog not open, then the view opens in a new tab', async ({}, testInfo) => {
    const userData = testInfo.outputPath('userData')
    const shop = testInfo.outputPath('shop-catalog')
    await ensureDemoCatalog(join(userData, 'demo-catalog'))
    await buildCatalog(shop, { namespaces: [['sales']], tables: [{ namespace: ['sales'], name: 'orders', rows: 120 }] })
    const app = await launchRig({ userData })
    const seconds: RigApp[] = []
    try {
      const page = await app.window()
      await expect(page.getByRole('main')).toBeVisible({ timeout: 60_000 })
      expect(app.protocolClients()).toEqual(['lance-catalog'])

      // The OS starts the app again with the link: the second launch hands its argv to the first and quits.
      const link = encodeViewLink({ catalog: { kind: 'dir', path: shop }, namespace: ['sales'], table: 'orders', filter: 'id < 30', sort: [{ column: 'id', direction: 'desc' }], row: 4 })
      const second = await launchRig({ userData, args: [link] })
      seconds.push(second)
      await second.exited()
      expect(second.output()).not.toContain('start-up failed')
      expect(await second.hostPid().catch(() => null)).toBeNull()

      // The catalog is not open: the first window asks first.
      const ask = page.getByRole('alertdialog', { name: 'Open link' })
      await expect(ask).toContainText(`Connect to ${shop}?`, { timeout: 30_000 })
      await page.screenshot({ path: join('test-results', 'desktop-rig-link-ask.png') })
      await ask.getByRole('button', { name: 'Connect' }).click()
      const shown = page.locator('[role="tabpanel"]:not([hidden])')
      const grid = shown.getByRole('grid', { name: 'orders' })
      await expect(grid).toBeVisible({ timeout: 60_000 })
      await expect(shown.getByTestId('row-count')).toHaveText('30')
      await expect(gridCell(grid, 0, 0)).toHaveText('29')
      await expect(grid.locator('[role="gridcell"][aria-selected="true"]').first().locator('xpath=..')).toHaveAttribute('aria-rowindex', String(4 + 2))

      // Now open: a second link (macOS hands it as open-url) opens at once, in another new tab.
      const tabsBefore = await page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab').count()
      app.openUrl(encodeViewLink({ catalog: { kind: 'dir', path: shop }, namespace: ['sales'], table: 'orders', filter: 'id >= 100' }))
      await expect(page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')).toHaveCount(tabsBefore + 1)
      await expect(shown.getByTestId('row-count')).toHaveText('20')
      await page.screenshot({ path: join('test-results', 'desktop-rig-link-opened.png') })
    } finally {
      for (const second of seconds) await second.dispose()
      await app.dispose()
    }
  })
})

test.describe('desktop app (rig) — started with a link', () => {
  test.describe.configure({ timeout: 180_000 })
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('the first launch with a link in argv opens its view once the window is up (the link waits for the page)', async ({}, testInfo) => {
    const userData = testInfo.outputPath('userData')
    await ensureDemoCatalog(join(userData, 'demo-catalog'))
    const link = encodeViewLink({ catalog: { kind: 'dir', path: join(userData, 'demo-catalog') }, namespace: [], table: 'welcome', row: 1 })
    const app = await launchRig({ userData, args: [link] })
    try {
      const page = await app.window()
      const shown = page.locator('[role="tabpanel"]:not([hidden])')
      const grid = shown.getByRole('grid', { name: 'welcome' })
      await expect(grid).toBeVisible({ timeout: 60_000 })
      await expect(grid.locator('[role="gridcell"][aria-selected="true"]').first().locator('xpath=..')).toHaveAttribute('aria-rowindex', String(1 + 2))
      await expect(page.getByRole('alertdialog', { name: 'Open link' })).toHaveCount(0)
    } finally {
      await app.dispose()
    }
  })
})
