import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { untilEndedUnseen } from '../helpers/processes'
import { desktopFlows } from './flows'
import { launchRig } from './rig/rig'

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
