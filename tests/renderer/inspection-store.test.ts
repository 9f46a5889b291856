import { makeVector } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { createInspectionStore, type InspectedCell } from '../../src/renderer/components/dock/inspection'

// The grid reports its inspected cell on every render (components/dock/inspection.ts); the right dock's inspector
// re-renders only when the cell — its place, type or loaded value — changes, and always closes the grid's latest way.
describe('the inspection store', () => {
  const cell = (over: Partial<InspectedCell> = {}): InspectedCell => ({ row: 3, column: 'label', typeLabel: 'Utf8', pageRow: 3, ...over })

  it('tells its listeners when a cell opens, moves, loads or closes, and not when the same cell is reported again', () => {
    const store = createInspectionStore()
    let told = 0
    store.subscribe(() => (told += 1))
    store.report(null)
    expect(told).toBe(0)
    store.report({ cell: cell(), close: () => {} })
    expect(told).toBe(1)
    const first = store.get()
    store.report({ cell: cell(), close: () => {} })
    expect(told).toBe(1)
    expect(store.get()).toBe(first)
    // Its page arrived: the same place, now with its value.
    store.report({ cell: cell({ vector: makeVector(Int32Array.from([1, 2, 3, 4])) }), close: () => {} })
    expect(told).toBe(2)
    store.report({ cell: cell({ row: 4, pageRow: 4 }), close: () => {} })
    expect(told).toBe(3)
    store.report(null)
    expect(told).toBe(4)
    expect(store.get()).toBeNull()
  })

  it('closes through the close function reported last, even for the same cell', () => {
    const store = createInspectionStore()
    const closed: string[] = []
    store.report({ cell: cell(), close: () => closed.push('first') })
    store.report({ cell: cell(), close: () => closed.push('latest') })
    store.get()?.close()
    expect(closed).toEqual(['latest'])
  })

  it('stops telling a listener that unsubscribed', () => {
    const store = createInspectionStore()
    let told = 0
    const stop = store.subscribe(() => (told += 1))
    stop()
    store.report({ cell: cell(), close: () => {} })
    expect(told).toBe(0)
  })
})
