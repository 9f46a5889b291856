/**
 * Playwright fixtures for E2E tests of the real renderer in Chromium, against the real core
 * served by the harness (src/harness) over loopback HTTP. No mocks.
 */
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, expect, type Locator, type Page } from '@playwright/test'
import { startHarness, type Harness } from '../../src/harness/server'
import { ensureDemoCatalog, makeTempDir, removeDir } from './catalog'
import type { ConnectionInfo, RememberedTabs } from '../../src/contract'

export { expect }

export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-results', 'screenshots')

interface WorkerFixtures {
  /** The demo catalog (3-level namespaces, a 100k-row table, …), built once per worker. */
  demoRoot: string
}

interface TestFixtures {
  /** A harness serving the demo catalog; one per test, so connections never leak between tests. */
  harness: Harness
  /** A page with the app loaded from the harness, ready (the tree is shown). */
  app: Page
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  demoRoot: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const dir = await makeTempDir('lcb-e2e-')
      const root = join(dir, 'demo-catalog')
      await ensureDemoCatalog(root)
      await use(root)
      await removeDir(dir)
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  harness: async ({ demoRoot }, use) => {
    const harness = await startHarness({ root: demoRoot })
    await use(harness)
    await harness.close()
  },
  app: async ({ page, harness }, use) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    // The strict CSP must not block anything the app itself does.
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(message.text())
    })
    await page.goto(harness.url)
    await expect(page.getByRole('tree')).toBeVisible()
    await use(page)
    expect(errors, 'uncaught errors in the page').toEqual([])
  },
})

/** Open the app of another harness (e.g. one started on a different catalog). */
export async function openApp(page: Page, harness: Harness): Promise<void> {
  await page.goto(harness.url)
  await expect(page.getByRole('main')).toBeVisible()
}

export function treeItem(page: Page, name: string): Locator {
  return page.getByRole('treeitem', { name, exact: true })
}

/** Expand each namespace of `path` (clicking collapsed ones), waiting for its children. */
export async function expandPath(page: Page, path: readonly string[]): Promise<void> {
  for (const name of path) {
    const item = treeItem(page, name)
    if ((await item.getAttribute('aria-expanded')) !== 'true') await item.click()
    await expect(item).toHaveAttribute('aria-expanded', 'true')
  }
}

/** Open a table from the tree and wait for its first rows. */
export async function openTable(page: Page, namespace: readonly string[], name: string): Promise<Locator> {
  await expandPath(page, namespace)
  await treeItem(page, name).click()
  const grid = page.getByRole('grid', { name })
  await expect(grid).toBeVisible()
  return grid
}

/** The rendered row with ARIA row index `ariaRowIndex` (data row i has index i + 2: the header row is 1). */
export function gridRow(grid: Locator, dataRowIndex: number): Locator {
  return grid.locator(`[role="row"][aria-rowindex="${dataRowIndex + 2}"]`)
}

/** Text of the cell of `column` (0-based among visible data columns) in a rendered data row. */
export function gridCell(grid: Locator, dataRowIndex: number, column: number): Locator {
  return gridRow(grid, dataRowIndex).getByRole('gridcell').nth(column)
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true })
  const path = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path })
  return path
}

/** The tabs the harness remembers for its (first) open catalog: what a reload restores (written once the tabs rest). */
export async function rememberedTabs(harness: Harness): Promise<RememberedTabs> {
  const list = await harness.service.dispatch('connections/list', {})
  if (!list.ok) throw new Error(list.error.message)
  const [connection] = list.value as ConnectionInfo[]
  if (!connection) return { tabs: [], skipped: 0 }
  const tabs = await harness.service.dispatch('workbench/tabs', { connectionId: connection.id })
  if (!tabs.ok) throw new Error(tabs.error.message)
  return tabs.value as RememberedTabs
}

export { startHarness, makeTempDir, removeDir }
