import { copyFile, mkdir, readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { DEFAULT_LIST_LIMIT } from '../../src/core/namespace/dir'
import { expect, makeTempDir, openApp, removeDir, screenshot, startHarness, test, treeItem } from '../helpers/e2e'

/**
 * More than two listing pages (the dir client lists 1,000 per page: DEFAULT_LIST_LIMIT), so the next-page token is
 * followed more than once; one over two pages is enough (2,500 copied a fifth more tables for nothing).
 * E2E_TREE_CHILDREN to change.
 */
const CHILDREN = Number(process.env.E2E_TREE_CHILDREN ?? 2 * DEFAULT_LIST_LIMIT + 1)

/**
 * Copies of one table folder under many names: its folders and files listed once, then mkdir and copyFile. fs.cp
 * walks and stats the source again for every copy in JavaScript: 8.4 s of CPU for these 2,001 copies, against 1.8.
 */
async function copies(source: string, targets: string[]): Promise<void> {
  const entries = await readdir(source, { recursive: true, withFileTypes: true })
  const inside = (entry: (typeof entries)[number]) => relative(source, join(entry.parentPath, entry.name))
  const dirs = entries.filter((entry) => entry.isDirectory()).map(inside)
  const files = entries.filter((entry) => entry.isFile()).map(inside)
  for (let i = 0; i < targets.length; i += 100) {
    await Promise.all(
      targets.slice(i, i + 100).map(async (target) => {
        await mkdir(target)
        for (const dir of dirs) await mkdir(join(target, dir)) // readdir lists a folder before what it holds
        await Promise.all(files.map((file) => copyFile(join(source, file), join(target, file))))
      }),
    )
  }
}

test('a namespace with thousands of children: every listing page is followed, the list is virtualized', async ({ page, demoRoot }) => {
  test.setTimeout(180_000)
  const dir = await makeTempDir('lcb-e2e-wide-')
  const root = join(dir, 'wide')
  await mkdir(root)
  // A directory catalog without __manifest: every `<name>.lance` folder is a table of the root namespace.
  const names = Array.from({ length: CHILDREN }, (_, i) => `t${String(i).padStart(5, '0')}`)
  await copies(join(demoRoot, 'welcome.lance'), names.map((name) => join(root, `${name}.lance`)))
  const harness = await startHarness({ root })
  try {
    await openApp(page, harness)
    const tree = page.getByRole('tree')
    await expect(treeItem(page, names[0]!)).toBeVisible()
    await expect(tree.locator('.tree-status-loading')).toHaveCount(0, { timeout: 120_000 })
    await expect(treeItem(page, names[0]!)).toHaveAttribute('aria-setsize', String(CHILDREN))
    // Virtualized: only a screenful of items is in the DOM.
    expect(await page.getByRole('treeitem').count()).toBeLessThan(80)

    await treeItem(page, names[0]!).focus()
    await page.keyboard.press('End')
    const last = treeItem(page, names[CHILDREN - 1]!)
    await expect(last).toBeFocused()
    await expect(last).toHaveAttribute('aria-posinset', String(CHILDREN))
    await screenshot(page, 'tree-wide-end')
    // Scrolled far away with the mouse, the focused item keeps focus: the keys still work.
    await page.locator('.tree-scroll').evaluate((element) => {
      element.scrollTop = 0
    })
    await expect(treeItem(page, names[0]!)).toBeVisible()
    await expect(last).toBeFocused()
    await page.keyboard.press('ArrowUp')
    await expect(treeItem(page, names[CHILDREN - 2]!)).toBeFocused()
    await page.keyboard.press('ArrowDown')
    await expect(last).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(page.getByRole('grid', { name: names[CHILDREN - 1]! })).toBeVisible()

    await page.getByLabel('Filter loaded namespaces and tables').fill(names[1234]!)
    await expect(page.getByRole('treeitem')).toHaveText(['wide', names[1234]!])
  } finally {
    await harness.close()
    await removeDir(dir)
  }
})
