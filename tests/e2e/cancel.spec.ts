import type { Route } from '@playwright/test'
import { PHOTO_ROWS } from '../helpers/catalog'
import { expect, gridCell, openTable, test } from '../helpers/e2e'

test('pages scrolled past are cancelled with requests/cancel and their late answers ignored', async ({ app }) => {
  const grid = await openTable(app, ['demo', 'images', '2024'], 'photos')
  await expect(gridCell(grid, 0, 0)).toHaveText('0')

  // Hold every page request for the middle of the table, as a slow disk would.
  const held: { route: Route; requestId: string; offset: number }[] = []
  await app.route('**/api/tables/page', async (route) => {
    const body = route.request().postDataJSON() as { offset: number; requestId: string }
    if (body.offset > 10_000 && body.offset < PHOTO_ROWS - 1_000) held.push({ route, requestId: body.requestId, offset: body.offset })
    else await route.continue()
  })
  const cancelled: string[] = []
  app.on('request', (request) => {
    if (request.url().endsWith('/api/requests/cancel')) cancelled.push((request.postDataJSON() as { requestId: string }).requestId)
  })

  await grid.evaluate((g) => {
    g.scrollTop = (g.scrollHeight - g.clientHeight) / 2
  })
  await expect.poll(() => held.length).toBeGreaterThan(0)
  await grid.evaluate((g) => {
    g.scrollTop = g.scrollHeight
  })
  await expect(gridCell(grid, PHOTO_ROWS - 1, 0)).toHaveText(String(PHOTO_ROWS - 1))
  // Every held (scrolled past) request was cancelled.
  await expect.poll(() => held.every((h) => cancelled.includes(h.requestId))).toBe(true)

  // Their answers arrive late and change nothing.
  for (const h of held) await h.route.continue().catch(() => undefined)
  await expect(gridCell(grid, PHOTO_ROWS - 1, 0)).toHaveText(String(PHOTO_ROWS - 1))
  await expect(gridCell(grid, PHOTO_ROWS - 2, 0)).toHaveText(String(PHOTO_ROWS - 2))
})
