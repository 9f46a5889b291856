import type { Vector } from 'apache-arrow'
import { useState } from 'react'

/** A cell as the inspector shows it: where it is, its column's type, and its value's vector once its page is read. */
export interface InspectedCell {
  row: number
  column: string
  /** The column's readable type (from the schema). */
  typeLabel: string
  /** The column vector of the loaded page holding the row, and the row's index in it; absent while loading. */
  vector?: Vector
  pageRow: number
}

/** The cell a grid (or gallery) inspects, and how to stop: the grid owns the state (Enter, a double-click, Escape). */
export interface Inspection {
  cell: InspectedCell
  close(): void
}

/**
 * What a grid inspects, as a tiny store: the grid reports its inspected cell on every render (it follows the
 * active cell), and only the inspector panel re-renders — the table view reads only whether there is one.
 */
export interface InspectionStore {
  report(next: Inspection | null): void
  subscribe(listener: () => void): () => void
  get(): Inspection | null
}

const sameCell = (a: InspectedCell, b: InspectedCell) => a.row === b.row && a.column === b.column && a.typeLabel === b.typeLabel && a.vector === b.vector && a.pageRow === b.pageRow

export function createInspectionStore(): InspectionStore {
  let current: Inspection | null = null
  const listeners = new Set<() => void>()
  return {
    report(next) {
      // The same cell again keeps its object (no listener runs) but takes the latest way to close it.
      if (current && next && sameCell(current.cell, next.cell)) {
        current.close = next.close
        return
      }
      if (current === next) return
      current = next && { ...next }
      listeners.forEach((listener) => listener())
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    get: () => current,
  }
}

/** One store per grid of a table view: its grid and its gallery each report to their own. */
export function useInspectionStore(): InspectionStore {
  const [store] = useState(createInspectionStore)
  return store
}
