import * as lancedb from '@lancedb/lancedb'
import type { Page } from '@playwright/test'
import { expect, gridCell, openTable, screenshot, test } from '../helpers/e2e'

/**
 * Errors that point (issue #40 item 9): a filter Lance cannot parse underlines its token in the Filter rows box
 * and says what was expected, in words (not the engine's "SELECT 1 FROM t … ShiftRight"); a quoted date
 * compared with a timestamp column works as DuckDB reads it. On the demo catalog's photos (100,000 rows,
 * `taken_at` every 5 minutes through 2024, UTC).
 */
const filterBox = (page: Page) => page.getByRole('textbox', { name: 'Filter rows' })
const rowCount = (page: Page) => page.getByTestId('row-count')

async function applyFilter(page: Page, predicate: string) {
  await filterBox(page).fill(predicate)
  await filterBox(page).press('Enter')
}

test('a bad filter underlines its token in the box and says what was expected', async ({ app }) => {
  await openTable(app, ['demo', 'images', '2024'], 'photos')
  await expect(rowCount(app)).toHaveText('100,000')
  const box = filterBox(app)
  const alert = app.getByRole('alert')
  const token = app.getByTestId('filter-error-token')

  await applyFilter(app, 'score >>> 1')
  await expect(alert).toContainText('`>>` is not an operator of filters: expected a comparison (=, <>, <, <=, >, >=), AND, OR, LIKE, IN, IS or BETWEEN')
  await expect(alert).toContainText('(character 7)')
  await expect(alert).not.toContainText(/SELECT 1 FROM|ShiftRight|sql parser error/)
  // The box says it is invalid and is described by the message.
  await expect(box).toHaveAttribute('aria-invalid', 'true')
  const describedBy = (await box.getAttribute('aria-describedby')) ?? ''
  expect(describedBy.split(' ')).toContain(await alert.getAttribute('id'))
  await expect(token).toHaveText('>>')
  await expect(token).toBeVisible()
  // Under the token itself: past "score " in the box, as wide as two characters.
  const boxArea = (await box.boundingBox())!
  const mark = (await token.boundingBox())!
  const charWidth = mark.width / 2
  expect(mark.x - boxArea.x).toBeGreaterThan(5.5 * charWidth)
  expect(mark.x - boxArea.x).toBeLessThan(7.5 * charWidth)
  await screenshot(app, 'filter-error-token')

  // The second of two equal signs is the one in the wrong place.
  await applyFilter(app, 'id = 1 OR id = = 3')
  await expect(alert).toContainText('Expected a value or a column where `=` stands')
  await expect(token).toHaveText('=')
  const second = (await token.boundingBox())!
  expect(second.x - boxArea.x).toBeGreaterThan(15 * charWidth)

  // A filter longer than the box, scrolled to its end: the underline scrolls with the text, under the token.
  await applyFilter(app, `${'score > 1 AND '.repeat(14)}id >>> 2`)
  await expect(token).toHaveText('>>')
  await expect
    .poll(async () => {
      const at = (await token.boundingBox())!
      return at.x > boxArea.x && at.x + at.width < boxArea.x + boxArea.width
    })
    .toBe(true)
  await box.press('Home')
  await expect.poll(async () => (await token.boundingBox())!.x > boxArea.x + boxArea.width).toBe(true)

  // A missing end: the last token, and what should follow it.
  await applyFilter(app, "title = 'Zürich")
  await expect(alert).toContainText('This text has no closing quote')
  await expect(token).toHaveText("'Zürich")

  // Editing the box drops the message and the underline.
  await box.press('End')
  await box.press("'")
  await expect(alert).toHaveCount(0)
  await expect(token).toHaveCount(0)
  await expect(box).not.toHaveAttribute('aria-invalid', 'true')
})

test('a quoted date compared with a timestamp column counts as the typed literal does in lancedb', async ({ app, demoRoot }) => {
  const db = await lancedb.connectNamespace('dir', { root: demoRoot })
  const photos = await db.openTable('photos', ['demo', 'images', '2024'])
  const expected = await photos.countRows("taken_at > TIMESTAMP '2024-06-01 00:00:00'")
  const between = await photos.countRows("taken_at BETWEEN TIMESTAMP '2024-03-01 00:00:00' AND TIMESTAMP '2024-03-02 12:00:00'")
  photos.close()
  expect(expected).toBe(56_223)

  const grid = await openTable(app, ['demo', 'images', '2024'], 'photos')
  await applyFilter(app, "taken_at > '2024-06-01'")
  await expect(rowCount(app)).toHaveText(expected.toLocaleString('en-US'))
  await expect(app.getByRole('alert')).toHaveCount(0)
  // The first matching row is five minutes past midnight, 1 June (row 43,777).
  await expect(gridCell(grid, 0, 0)).toHaveText('43777')
  await screenshot(app, 'filter-date-string')

  await applyFilter(app, "taken_at BETWEEN '2024-03-01' AND '2024-03-02 12:00'")
  await expect(rowCount(app)).toHaveText(between.toLocaleString('en-US'))

  // A string that is no date: the message shows the fix and underlines the string.
  await applyFilter(app, "taken_at > 'June 2024'")
  await expect(app.getByRole('alert')).toContainText("`'June 2024'` is text that is no date or time, compared with a timestamp column: write a date as 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (in UTC, or with an offset: Z, +05:30).")
  await expect(app.getByTestId('filter-error-token')).toHaveText("'June 2024'")
})
