import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { ensureDemoCatalog } from '../helpers/catalog'
import { DIALOG, problems } from '../e2e/axe'
import { launchRig } from './rig/rig'

const repo = resolve(__dirname, '../..')

// Connect an assistant… on the desktop rig: the built main bundle's Help menu and the catalog host's app/info (run from
// this checkout, it names `npm run mcp` in it), the connection pane's button, and with no catalog open the notice that
// says to open one (axe in both themes).
test.describe('desktop app (rig) — Connect an assistant…', () => {
  test.describe.configure({ timeout: 180_000 })

  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('Help › Connect an Assistant… shows the open catalog\'s snippets, starting this checkout\'s server read-only; with no catalog, a notice', async ({}, testInfo) => {
    const userData = testInfo.outputPath('userData')
    await mkdir(userData, { recursive: true })
    await ensureDemoCatalog(join(userData, 'demo-catalog'))
    const app = await launchRig({ userData })
    try {
      const page = await app.window()
      await expect(page.getByRole('tree')).toBeVisible({ timeout: 60_000 })
      await app.clickMenu('Help', 'Connect an Assistant…')
      const dialog = page.getByRole('dialog', { name: 'Connect an assistant to demo-catalog' })
      await expect(dialog).toBeVisible()
      const claude = JSON.parse((await dialog.getByTestId('snippet-claude').textContent())!) as { mcpServers: Record<string, { command: string; args: string[] }> }
      expect(claude.mcpServers['lance-demo-catalog']).toEqual({
        command: 'npm',
        args: ['--prefix', repo, 'run', '--silent', 'mcp', '--', '--root', join(userData, 'demo-catalog')],
      })
      await expect(dialog.getByRole('note')).toHaveCount(0)
      await page.screenshot({ path: join('test-results', 'desktop-rig-assistant.png') })
      await dialog.getByRole('button', { name: 'Close' }).click()
      await expect(dialog).toHaveCount(0)

      // The same dialog from the catalog's own pane.
      await page.getByRole('treeitem', { name: 'demo-catalog', exact: true }).click()
      await expect(page.getByRole('button', { name: 'Connect an assistant…' })).toBeVisible()
      await page.screenshot({ path: join('test-results', 'desktop-rig-assistant-pane.png') })
      await page.getByRole('button', { name: 'Connect an assistant…' }).click()
      await expect(dialog.getByRole('region', { name: 'VS Code' })).toBeVisible()
      await dialog.getByRole('button', { name: 'Close' }).click()

      // No catalog open: Help › Connect an Assistant… says to open one first, readable in both themes (#38 item 4).
      await page.getByRole('button', { name: 'Close connection' }).click()
      await expect(page.getByRole('region', { name: 'Open a catalog' })).toBeVisible()
      await app.clickMenu('Help', 'Connect an Assistant…')
      const notice = page.getByRole('alertdialog', { name: 'Connect an assistant' })
      await expect(notice).toContainText('Open a catalog first')
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme })
        expect.soft(await problems(page, DIALOG), `the no-catalog notice, ${colorScheme}`).toEqual([])
      }
      await notice.getByRole('button', { name: 'Close' }).click()
      await expect(notice).toHaveCount(0)
    } finally {
      await app.dispose()
    }
  })
})
