import { expect, gridCell, openTable, test, treeItem } from '../helpers/e2e'

test('columns can be hidden, shown again and resized', async ({ app }) => {
  const grid = await openTable(app, ['demo', 'images', '2024'], 'photos')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')
  const caption = grid.getByRole('columnheader', { name: 'caption', exact: true })
  await expect(caption).toBeVisible()

  await app.getByRole('button', { name: /^Columns/ }).click()
  const menu = app.getByRole('group', { name: 'Visible columns' })
  await menu.getByRole('checkbox', { name: /^caption/ }).uncheck()
  await expect(caption).toHaveCount(0)
  await expect(grid).toHaveAttribute('aria-colcount', '6')
  await expect(app.getByRole('button', { name: 'Columns (1 hidden)' })).toBeVisible()
  await menu.getByRole('button', { name: 'Show all' }).click()
  await expect(caption).toBeVisible()
  await app.keyboard.press('Escape')
  await expect(menu).toBeHidden()

  const title = grid.getByRole('columnheader', { name: 'title', exact: true })
  const before = (await title.boundingBox())!.width
  const handle = grid.getByRole('separator', { name: 'Resize title' })
  const box = (await handle.boundingBox())!
  await app.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await app.mouse.down()
  await app.mouse.move(box.x + 120, box.y + box.height / 2, { steps: 5 })
  await app.mouse.up()
  const after = (await title.boundingBox())!.width
  expect(after).toBeGreaterThan(before + 80)
  // The cells follow their header.
  expect((await gridCell(grid, 0, 1).boundingBox())!.width).toBeCloseTo(after, 0)
})

test('the filter box narrows the loaded tree to matches and their ancestors', async ({ app }) => {
  await treeItem(app, 'demo').click()
  await treeItem(app, 'images').click()
  await expect(treeItem(app, '2024')).toBeVisible()
  await treeItem(app, '2024').click()
  await expect(treeItem(app, 'photos')).toBeVisible()
  await treeItem(app, '2024').click() // collapse again: the filter still finds loaded children
  await expect(treeItem(app, 'photos')).toHaveCount(0)

  await app.getByLabel('Filter loaded namespaces and tables').fill('PHO')
  const names = app.getByRole('treeitem')
  await expect(names).toHaveText(['demo-catalog', 'demo', 'images', '2024', 'photos'])
  await app.getByLabel('Filter loaded namespaces and tables').fill('zzz')
  await expect(app.getByText('Nothing loaded matches “zzz”')).toBeVisible()
  await app.getByLabel('Filter loaded namespaces and tables').press('Escape')
  await expect(treeItem(app, 'analytics')).toBeVisible()
})
