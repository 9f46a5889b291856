import { expect, gridCell, openTable, screenshot, test } from '../helpers/e2e'

// samples/kinds (src/core/demo/tables.ts): one column per kind of cell.
// Columns: id, big, label, flag, ratio, payload, tags, point, day.
const COL = { big: 1, flag: 3, ratio: 4, payload: 5, tags: 6, point: 7, day: 8 }

test('cells are shown by type: exact int64, floats, null, binary, lists, structs, dates', async ({ app }) => {
  const grid = await openTable(app, ['samples'], 'kinds')
  await expect(gridCell(grid, 0, 0)).toHaveText('1')
  // int64 exact, never rounded through a JS number.
  await expect(gridCell(grid, 3, COL.big)).toHaveText('9007199254740993')
  await expect(gridCell(grid, 4, COL.big)).toHaveText('9223372036854775807')
  await expect(gridCell(grid, 5, COL.big)).toHaveText('-9223372036854775808')
  // Booleans and null.
  await expect(gridCell(grid, 0, COL.flag)).toHaveText('true')
  await expect(gridCell(grid, 3, COL.flag)).toHaveText('NULL')
  await expect(gridCell(grid, 3, COL.flag).locator('.cell-null')).toHaveCount(1)
  // Floats, including the special values.
  await expect(gridCell(grid, 2, COL.ratio)).toHaveText('-1.25')
  await expect(gridCell(grid, 3, COL.ratio)).toHaveText('NaN')
  await expect(gridCell(grid, 4, COL.ratio)).toHaveText('Infinity')
  // Binary: size and a hex preview.
  await expect(gridCell(grid, 1, COL.payload)).toHaveText(/^4 B\s+de ad be ef$/)
  await expect(gridCell(grid, 2, COL.payload)).toHaveText(/^64 B\s+00 01 02 03 04 05 06 07 …$/)
  // Lists and structs readable.
  await expect(gridCell(grid, 2, COL.tags)).toHaveText('["red", "green", "blue"]')
  await expect(gridCell(grid, 4, COL.tags)).toHaveText('["ünïcödé", "漢字"]')
  await expect(gridCell(grid, 2, COL.point)).toHaveText('{a: -3, b: null}')
  await expect(gridCell(grid, 3, COL.point)).toHaveText('NULL')
  // Dates as the calendar day they are (ISO), not as an instant.
  await expect(gridCell(grid, 2, COL.day)).toHaveText('2024-01-01')
  await screenshot(app, 'cells-kinds')
})
