/**
 * Limits that hold at the first byte, and readers in processes of their own (issue #43), as a user meets them: each
 * file that once aborted, froze or ballooned the host is dropped on a namespace; the import sheet says in words what
 * stopped it, the host answers within a second all the while (a call every 100 ms from the page), no process of the
 * harness's tree passes 2 GiB, and a good file dropped after them all imports. The desktop flows drop the same files
 * on the rig (tests/desktop/flows.ts).
 */
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { ABORTING_READER_ENV, bytesOf, hostileFiles, setEnv } from '../fixtures/import/hostile'
import { readAnswerProbe, startAnswerProbe, watchProcessTree } from '../helpers/hostWatch'
import { dropFiles } from './drop'

interface Fixture {
  dir: string
  root: string
  harness: Harness
}

const test = base.extend<{ catalog: Fixture }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  catalog: async ({}, use) => {
    const dir = await makeTempDir('lcb-e2e-limits-')
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'existing', rows: 5 }] })
    // The zoned Parquet file imports now; with polars' zone check back on it aborts its reader (hostile.ts).
    const restoreEnv = setEnv(ABORTING_READER_ENV)
    const harness = await startHarness({ root })
    await use({ dir, root, harness })
    await harness.close()
    restoreEnv()
    await removeDir(dir)
  },
})

function sheet(page: Page): Locator {
  return page.getByRole('dialog', { name: /^Import / })
}

async function tablesIn(root: string, namespace: string[]): Promise<string[]> {
  const client = await DirNamespaceClient.open(root)
  try {
    return (await client.listTables(namespace)).items
  } finally {
    await client.close()
  }
}

test('each file of issue #43 is refused in words while the host keeps answering within a second, every process under 2 GiB; a good file imports after them', async ({ page, catalog }) => {
  test.setTimeout(300_000)
  const bad = await hostileFiles(catalog.dir)
  await openApp(page, catalog.harness)
  const lab = treeItem(page, 'lab')
  await expect(lab).toBeVisible()
  await startAnswerProbe(page)
  // The harness is this test process: it, its readers (and the browser it drives) are the tree watched.
  const watch = watchProcessTree(process.pid)
  for (const file of bad) {
    await dropFiles(page, lab, [{ name: file.name, bytes: await bytesOf(file) }], { expectDropTarget: true })
    // From the drop on: the page's own work of building the file's bytes is not the host's.
    await readAnswerProbe(page)
    const dialog = sheet(page)
    const alert = dialog.getByRole('alert').filter({ hasText: 'This file cannot be imported' })
    await expect(alert, file.name).toContainText(file.name, { timeout: 60_000 })
    await expect(alert, file.name).toContainText(file.says)
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
    // Throughout the file's reading the host answered within a second.
    const answered = await readAnswerProbe(page)
    expect(answered.maxMs, `${file.name}: the longest answer while it was read`).toBeLessThan(1_000)
    expect(answered.calls).toBeGreaterThan(0)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    // The host still answers: the tree opens a table and its grid shows rows.
    if ((await lab.getAttribute('aria-expanded')) !== 'true') await lab.click()
    await treeItem(page, 'existing').click()
    await expect(page.getByRole('grid', { name: 'existing' })).toHaveAttribute('aria-rowcount', '6')
  }
  const { peakMiB, processes } = watch.stop()
  test.info().annotations.push({ type: 'peak RSS', description: `${Math.round(peakMiB)} MiB (the largest of ${processes} processes)` })
  expect(peakMiB).toBeLessThan(2048)
  await dropFiles(page, lab, [{ name: 'good.csv', bytes: 'id,city\n1,Oslo\n2,Lima\n' }], { expectDropTarget: true })
  const dialog = sheet(page)
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('grid', { name: 'good' })).toHaveAttribute('aria-rowcount', '3')
  expect((await tablesIn(catalog.root, ['lab'])).sort()).toEqual(['existing', 'good'])
})
