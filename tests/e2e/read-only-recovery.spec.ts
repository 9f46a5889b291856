/**
 * Read-only means no writes, recovery after a crash included: a catalog a crashed writer left unfinished, opened
 * with Read-only on, says what it found and offers Recover; not one file changes (bytes and mtimes) until the user
 * clicks it; then recovery runs and lancedb itself lists complete tables only.
 */
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Table, tableToIPC } from 'apache-arrow'
import { buildCatalog, diffSnapshots, snapshotTree } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, test, treeItem } from '../helpers/e2e'
import { numbersTable } from '../core/namespace/dir/fixtures/data'
import { lanceView, stagedIn } from '../core/namespace/dir/fixtures/lanceView'

const REPO = join(__dirname, '..', '..')

/** Import `file` into `landing/crashtest` with the crash tests' writer, and kill -9 it once it has written `steps` steps. */
function crashedImport(root: string, file: string, steps: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'tests/core/namespace/dir/fixtures/writer.ts'), 'import', root, file, 'create', 'landing/crashtest'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (text: string) => {
      output += text
      if ((output.match(/^step /gm) ?? []).length >= steps) child.kill('SIGKILL')
    })
    child.stderr.on('data', (text: Buffer) => (output += text.toString()))
    child.on('error', reject)
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`the writer was not killed mid-import: ${output}`))))
  })
}

test('a read-only catalog left unfinished by a crash: reported, nothing written, recovered on request', async ({ page }) => {
  test.setTimeout(120_000)
  const dir = await makeTempDir('lcb-e2e-recovery-')
  const root = join(dir, 'catalog')
  const file = join(dir, 'rows.arrow')
  await buildCatalog(root, { namespaces: [['landing']], tables: [{ namespace: ['landing'], name: 'other', rows: 5 }] })
  // 200,000 rows in 10k-row batches: ~45 steps, so a kill after 10 lands mid-import.
  const whole = numbersTable(200_000).batches[0]!
  await writeFile(file, tableToIPC(new Table(Array.from({ length: 20 }, (_, i) => whole.slice(i * 10_000, (i + 1) * 10_000))), 'file'))
  const harness = await startHarness({ root })
  try {
    await openApp(page, harness)
    const readOnly = page.getByRole('switch', { name: 'Read-only' })
    await readOnly.click()
    await expect(readOnly).toHaveAttribute('aria-checked', 'true')
    await page.getByRole('button', { name: 'Close connection' }).click()
    await expect(page.getByRole('region', { name: 'Open a catalog' })).toBeVisible()

    await crashedImport(root, file, 10)
    const left = stagedIn(await lanceView(root))
    expect(left).toEqual([expect.stringMatching(/^landing\/\.lcb-staging-\d+-\w+-crashtest$/)])
    const before = await snapshotTree(root)

    // Opened again, read-only (remembered for this directory): what the crash left is reported, not touched.
    await page.getByLabel('Directory path').fill(root)
    await page.getByRole('button', { name: 'Open', exact: true }).click()
    const prompt = page.getByRole('region', { name: 'Unfinished writes in catalog' })
    await expect(prompt).toContainText('An interrupted import of landing/crashtest')
    await expect(prompt).toContainText('nothing has been changed')
    await expect(readOnly).toHaveAttribute('aria-checked', 'true')
    await treeItem(page, 'landing').click()
    await expect(treeItem(page, 'landing')).toHaveAttribute('aria-expanded', 'true')
    await expect(treeItem(page, 'other')).toBeVisible()
    await expect(page.getByRole('treeitem', { name: /crashtest/ })).toHaveCount(0)
    await treeItem(page, 'other').click()
    await expect(page.getByRole('grid', { name: 'other' })).toHaveAttribute('aria-rowcount', '6')
    await screenshot(page, 'read-only-recovery-prompt')
    expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
    expect(stagedIn(await lanceView(root))).toEqual(left)

    // The user says so: recovery runs, the connection stays read-only.
    await prompt.getByRole('button', { name: 'Recover' }).click()
    await expect(prompt).toHaveCount(0)
    expect(stagedIn(await lanceView(root))).toEqual([])
    expect((await lanceView(root)).tables).toEqual(['landing/other'])
    await treeItem(page, 'catalog').click()
    await expect(readOnly).toHaveAttribute('aria-checked', 'true')
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})
