import { readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { Float64, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { batchOf, tableOf } from '../../src/core/arrow'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, openTable, removeDir, startHarness, test } from '../helpers/e2e'

/**
 * Kept side files (the harness's `--cache-dir`, the app's `<userData>/cache`) are checked before they are shown: a
 * profile moved onto another table's entry, or edited by hand, is profiled afresh and the Summary shows the table's
 * real numbers. `weather` has 3,000 rows, `small` 1,200.
 */
let dir: string
let root: string

function rows(count: number) {
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: count }, (_, i) => BigInt(i))), nullable: false },
      level: vectorFromArray(Array.from({ length: count }, (_, i) => (i % 200) / 2), new Float64()),
      site: vectorFromArray(Array.from({ length: count }, (_, i) => ['Aveiro', 'Bergen', 'Cusco', 'Delft'][i % 4]!), new Utf8()),
    }),
  ])
}

test.beforeAll(async () => {
  dir = await makeTempDir('lcb-e2e-side-files-')
  root = await buildCatalog(join(dir, 'catalog'), {
    tables: [
      { namespace: [], name: 'weather', data: rows(3000) },
      { namespace: [], name: 'small', data: rows(1200) },
    ],
  })
})

test.afterAll(async () => {
  await removeDir(dir)
})

const numberText = (n: number) => n.toLocaleString('en-US')

/** Start a harness on the cache folder, open `table`'s Summary, expect its meta line, and close the harness. */
async function summaryOf(page: Page, cacheDir: string, table: string, meta: string): Promise<void> {
  const harness = await startHarness({ root, cacheDir })
  try {
    await openApp(page, harness)
    await openTable(page, [], table)
    await page.getByRole('button', { name: 'Summary', exact: true }).click()
    await expect(page.getByRole('region', { name: 'Summary' }).getByTestId('summary-meta')).toHaveText(meta)
  } finally {
    await harness.close()
  }
}

test('a kept profile moved onto another table, or edited by hand, is profiled afresh: the Summary shows the real rows', async ({ page }) => {
  const cacheDir = join(dir, 'cache')
  const profiles = join(cacheDir, 'profile')
  await summaryOf(page, cacheDir, 'small', `Version 1 · ${numberText(1200)} rows`)
  const [smallFile] = await readdir(profiles)
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows`)
  const weatherFile = (await readdir(profiles)).find((name) => name !== smallFile)!
  // Both kept: a restart answers from the cache.
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows · kept`)

  // The case: small's entry moved onto weather's name was shown as weather's ("rows 1200").
  await rename(join(profiles, smallFile!), join(profiles, weatherFile))
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows`)
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows · kept`)

  // A number edited by hand (the row count in the kept JSON).
  const path = join(profiles, weatherFile)
  const text = await readFile(path, 'latin1')
  expect(text).toContain('"rows":3000')
  await writeFile(path, text.replace('"rows":3000', '"rows":1234'), 'latin1')
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows`)
  await summaryOf(page, cacheDir, 'weather', `Version 1 · ${numberText(3000)} rows · kept`)
})
