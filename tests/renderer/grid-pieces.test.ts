import { tableFromArrays } from 'apache-arrow'
import type { KeyboardEvent } from 'react'
import { describe, expect, it } from 'vitest'
import type { FieldInfo } from '../../src/contract'
import { fitColumns, initialWidth } from '../../src/renderer/features/table/grid/columnFit'
import { geometry } from '../../src/renderer/features/table/grid/geometry'
import { onGridKeyDown, type GridKeys } from '../../src/renderer/features/table/grid/keyboard'
import { keepInView } from '../../src/renderer/features/table/grid/viewport'

describe('the grid column fit', () => {
  const field = (name: string, type: string, extra: Partial<FieldInfo> = {}): FieldInfo => ({ name, type, nullable: true, ...extra })

  it('starts from a width by type, 64-bit integers wide enough for every digit', () => {
    expect(initialWidth(field('id', 'Int64'))).toBe(170)
    expect(initialWidth(field('n', 'Int32'))).toBe(100)
    expect(initialWidth(field('v', 'FixedSizeList[4]<Float32>', { vectorDimension: 4 }))).toBe(250)
    expect(initialWidth(field('s', 'Utf8'))).toBe(200)
  })

  it('fits the first rows and the header, never narrower than the header name, capped for long text', () => {
    const page = tableFromArrays({ a: Int32Array.from([1, 2]), a_rather_long_column_name: Int32Array.from([3, 4]), text: ['x'.repeat(500), 'y'] })
    const fields = [field('a', 'Int32'), field('a_rather_long_column_name', 'Int32'), field('text', 'Utf8')]
    const sizes = fitColumns(fields, page)
    expect(sizes.a).toBeGreaterThanOrEqual(64)
    expect(sizes.a_rather_long_column_name!).toBeGreaterThan(sizes.a!)
    expect(sizes.text).toBe(380)
  })
})

describe('the grid keyboard', () => {
  const press = (key: string, keys: Partial<GridKeys>, mods: { shiftKey?: boolean; ctrlKey?: boolean } = {}) => {
    const moves: [number, number, boolean][] = []
    let prevented = false
    const event = { key, shiftKey: false, ctrlKey: false, metaKey: false, ...mods, preventDefault: () => (prevented = true) } as unknown as KeyboardEvent<HTMLDivElement>
    onGridKeyDown(event, {
      active: { row: 10, col: 1 },
      firstRow: 0,
      pageRows: 20,
      rowCount: 1000,
      columnCount: 4,
      moveTo: (row, col, extend) => moves.push([row, col, extend]),
      selectionKey: () => false,
      openMenu: () => undefined,
      ...keys,
    })
    return { moves, prevented }
  }

  it('moves by a cell, a page, to the row ends and (Ctrl) the table corners; Shift extends', () => {
    expect(press('ArrowDown', {}).moves).toEqual([[11, 1, false]])
    expect(press('ArrowLeft', {}, { shiftKey: true }).moves).toEqual([[10, 0, true]])
    expect(press('PageDown', {}).moves).toEqual([[30, 1, false]])
    expect(press('End', {}).moves).toEqual([[10, 3, false]])
    expect(press('End', {}, { ctrlKey: true }).moves).toEqual([[999, 3, false]])
    expect(press('Home', {}, { ctrlKey: true }).moves).toEqual([[0, 0, false]])
  })

  it('starts from the first row in view when no cell is active; leaves other keys alone', () => {
    expect(press('ArrowDown', { active: null, firstRow: 500 }).moves).toEqual([[501, 0, false]])
    expect(press('a', {})).toEqual({ moves: [], prevented: false })
  })

  it('gives the selection its keys first, and opens the menu on the active cell with the Menu key', () => {
    expect(press('ArrowDown', { selectionKey: () => true })).toEqual({ moves: [], prevented: true })
    const opened: unknown[] = []
    expect(press('ContextMenu', { openMenu: (cell) => opened.push(cell) }).prevented).toBe(true)
    expect(opened).toEqual([{ row: 10, col: 1 }])
  })
})

describe('the viewport at another number of items a row (the gallery resized)', () => {
  // 1,000,000 thumbnails 156 px high in a 620 px viewport, 4 a row after the change (was 7).
  const H = 156
  const g = geometry(Math.ceil(1_000_000 / 4), H, 620)
  const rowOf = (offset: number) => Math.floor(offset / H)

  it('keeps the first visible item at the top when nothing is active', () => {
    const offset = 50_000 * H + 40 // row 50,000 partly scrolled out: item 350,000 first visible
    const next = keepInView(g, offset, 7, 4, null)
    expect(rowOf(next) * 4).toBeLessThanOrEqual(350_000)
    expect(rowOf(next) * 4 + 4).toBeGreaterThan(350_000)
    expect(next % H).toBe(0)
  })

  it('keeps the active item at the height it was shown', () => {
    const offset = 50_000 * H
    const active = 350_000 + 2 * 7 + 3 // two rows down, fourth in its row
    const next = keepInView(g, offset, 7, 4, active)
    expect(Math.floor(active / 4) * H - next).toBe(2 * H)
  })

  it('brings an active item that was out of view into it, and stays within the content', () => {
    const offset = 50_000 * H
    const above = keepInView(g, offset, 7, 4, 10)
    expect(above).toBe(Math.floor(10 / 4) * H)
    const below = keepInView(g, offset, 7, 4, 999_999)
    expect(below).toBe(g.maxOffset)
    expect(Math.floor(999_999 / 4) * H - below).toBeLessThanOrEqual(g.viewportHeight - H)
    expect(keepInView(g, 0, 4, 7, null)).toBe(0)
  })
})
