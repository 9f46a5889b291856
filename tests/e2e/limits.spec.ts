/**
 * Limits that hold at the first byte (issue #43), as a user meets them: each file that once froze or ballooned the
 * host is dropped on a namespace; the import sheet says in words what limit it met, the app keeps answering (the
 * tree opens a table while the next file is read), and a good file dropped after them all imports.
 */
import { createRequire } from 'node:module'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { test as base, type Locator, type Page } from '@playwright/test'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, startHarness, treeItem } from '../helpers/e2e'
import type { Harness } from '../../src/harness/server'
import { raw, repeated, run, textCell, xlsx, zstdFrame } from '../fixtures/import/bombs'
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
    const harness = await startHarness({ root })
    await use({ dir, root, harness })
    await harness.close()
    await removeDir(dir)
  },
})

const MiB = 1024 * 1024

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

/** The files, and the words their sheet must show. */
async function files(dir: string): Promise<{ name: string; bytes: Uint8Array; says: RegExp }[]> {
  const pl = createRequire(__filename)('nodejs-polars') as { DataFrame(columns: unknown[]): { writeIPC(path: string, o: object): void }; Series(name: string, values: unknown): unknown }
  const arrow = join(dir, 'zeros.arrow')
  pl.DataFrame([pl.Series('z', new Float64Array(10_000_000))]).writeIPC(arrow, { compression: 'zstd' })
  const head = `<row r="1">${textCell('A1', 'id')}${textCell('B1', 'name')}</row>`
  return [
    { name: 'newlines.csv.zst', bytes: zstdFrame([raw('a,b\n1,2\n'), ...run(0x0a, 1024 * MiB)]), says: /decompresses to more than 1,000 times its size/ },
    { name: 'window.csv.zst', bytes: zstdFrame([raw('a,b\n1,2\n'), ...run(0x0a, MiB)], { windowLog: 31 }), says: /needs a 2 GiB zstd window to decompress; import reads zstd windows up to 128 MiB/ },
    {
      name: 'wide.csv',
      bytes: Buffer.from(`${Array.from({ length: 1_000_000 }, (_, i) => `c${i}`).join(',')}\n`),
      says: /has more than 16,384 columns; import takes at most 16,384 columns/,
    },
    { name: 'far.xlsx', bytes: await xlsx(`<row r="1">${textCell('A1', 'id')}${textCell('ZZZZZZ1', 'far')}</row>`), says: /has cell ZZZZZZ1, past column XFD \(16,384\)/ },
    {
      name: 'cell.xlsx',
      bytes: await xlsx([Buffer.from(`${head}<row r="2"><c r="A2" t="inlineStr"><is><t>`), ...repeated('x', 400_000_000), Buffer.from('</t></is></c></row>')]),
      says: /holds more than 1 Mi characters of XML without a tag/,
    },
    { name: 'strings.xlsx', bytes: await xlsx(`${head}<row r="2"><c r="B2" t="s"><v>0</v></c></row>`, repeated('<si/>', 40_000_000)), says: /holds more than 8,388,608 shared strings/ },
    { name: 'deep.jsonl', bytes: Buffer.from(`{"v":${'['.repeat(100_000)}1${']'.repeat(100_000)}}\n`), says: /line 1: a record nested 100,001 levels deep; import reads JSON nested at most 1,000 levels/ },
    { name: 'zeros.arrow', bytes: await readFile(arrow), says: /has a record batch whose compressed .* declare 76\.3 MiB \(more than 1,000 times\)/ },
  ]
}

test('each file past a limit is refused in words, the app keeps answering, and a good file imports after them', async ({ page, catalog }) => {
  test.setTimeout(240_000)
  const bad = await files(catalog.dir)
  await openApp(page, catalog.harness)
  const lab = treeItem(page, 'lab')
  await expect(lab).toBeVisible()
  for (const file of bad) {
    await dropFiles(page, lab, [file], { expectDropTarget: true })
    const dialog = sheet(page)
    const alert = dialog.getByRole('alert').filter({ hasText: 'This file cannot be imported' })
    await expect(alert, file.name).toContainText(file.name)
    await expect(alert, file.name).toContainText(file.says)
    await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    // The host still answers: the tree opens a table and its grid shows rows.
    if ((await lab.getAttribute('aria-expanded')) !== 'true') await lab.click()
    await treeItem(page, 'existing').click()
    await expect(page.getByRole('grid', { name: 'existing' })).toHaveAttribute('aria-rowcount', '6')
  }
  await dropFiles(page, lab, [{ name: 'good.csv', bytes: 'id,city\n1,Oslo\n2,Lima\n' }], { expectDropTarget: true })
  const dialog = sheet(page)
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeEnabled()
  await dialog.getByRole('button', { name: 'Import' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('grid', { name: 'good' })).toHaveAttribute('aria-rowcount', '3')
  expect((await tablesIn(catalog.root, ['lab'])).sort()).toEqual(['existing', 'good'])
})
