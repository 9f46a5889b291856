import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { test, expect, _electron as electron } from '@playwright/test'

/**
 * Smoke test of the real Electron app. It needs the Electron binary, which `npm start` downloads
 * on a user's machine; where it is absent (e.g. a sandbox without internet) it skips with one line.
 */
function electronBinary(): string | null {
  const pkgDir = dirname(require.resolve('electron/package.json'))
  const pathFile = join(pkgDir, 'path.txt')
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron')
  if (!existsSync(pathFile)) return null
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

const binary = electronBinary()
if (!binary) console.log('electron: skipped — no Electron binary installed here (npm start downloads it on a normal machine)')

test.describe('Electron app', () => {
  test.skip(!binary, 'no Electron binary installed here')

  test('opens the demo catalog in a hardened window', async () => {
    const userData = mkdtempSync(join(tmpdir(), 'lcb-electron-'))
    const app = await electron.launch({
      executablePath: binary!,
      args: [join(__dirname, '../../out/main/index.js'), `--user-data-dir=${userData}`],
    })
    try {
      const page = await app.firstWindow()
      await expect(page.getByRole('tree')).toBeVisible({ timeout: 60_000 })
      await expect(page.getByRole('treeitem', { name: 'demo' })).toBeVisible()
      // The renderer has no Node: require and process are absent in the page.
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
      // Sandboxed and isolated: the page sees window.catalog but neither Node nor ipcRenderer.
      expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined')
      expect(await page.evaluate(() => Object.keys((window as unknown as { catalog: object }).catalog).sort())).toEqual(['getPathForFile', 'invoke', 'on'])
      await page.screenshot({ path: 'test-results/electron-app.png' })
    } finally {
      await app.close()
    }
  })
})
