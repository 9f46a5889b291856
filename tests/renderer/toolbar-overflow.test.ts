import { describe, expect, it } from 'vitest'
import { overflowing } from '../../src/renderer/components/toolbar/overflow'

// components/toolbar/overflow.ts: which items move into More tools for a toolbar width.
describe('the toolbar overflow', () => {
  const items = [
    { id: 'query', width: 100 },
    { id: 'columns', width: 80 },
    { id: 'export', width: 60 },
    { id: 'reload', width: 40 },
  ]
  const order = ['reload', 'export', 'columns', 'query']
  // All four with three 4 px gaps: 292 px.

  it('moves more items when moving the last ones leaves no room for the button', () => {
    expect(overflowing([{ id: 'a', width: 100 }, { id: 'b', width: 20 }], ['b', 'a'], 120, 4, 28)).toEqual(new Set(['b', 'a']))
  })

  it('moves nothing while every item fits, to the pixel', () => {
    expect(overflowing(items, order, 292, 4, 28)).toEqual(new Set())
    expect(overflowing(items, order, 291.9, 4, 28)).toEqual(new Set(['reload']))
    expect(overflowing(items, order, 291.99, 4, 28)).toEqual(new Set())
  })

  it('moves items in the order given until what stays and the More tools button fit', () => {
    // Without Reload: 248 px, and the button with its gap 32 more: 280.
    expect(overflowing(items, order, 280, 4, 28)).toEqual(new Set(['reload']))
    expect(overflowing(items, order, 279, 4, 28)).toEqual(new Set(['reload', 'export']))
    // 100 + 4 + 80 + 4 + 28 = 216: Reload and Export… go.
    expect(overflowing(items, order, 216, 4, 28)).toEqual(new Set(['reload', 'export']))
    expect(overflowing(items, order, 215, 4, 28)).toEqual(new Set(['reload', 'export', 'columns']))
  })

  it('moves everything when not even the first item fits beside the button', () => {
    expect(overflowing(items, order, 100, 4, 28)).toEqual(new Set(['reload', 'export', 'columns', 'query']))
  })

  it('moves items the order does not name last, trailing ones first', () => {
    expect(overflowing(items, ['export'], 200, 4, 28)).toEqual(new Set(['export', 'reload', 'columns']))
  })
})
