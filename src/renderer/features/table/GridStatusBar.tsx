import { memo, useState, useSyncExternalStore } from 'react'
import { Spinner } from '../../components/Spinner'
import { formatCount } from '../../lib/format'

export interface GridStatus {
  first: number
  end: number
  loading: boolean
  active: { row: number; column: string } | null
}

/**
 * The grid's status (visible rows, active cell, loading) as a tiny store: the grid reports it on every
 * scroll, and only the status bar re-renders — not the whole table view.
 */
export interface GridStatusStore {
  report(next: GridStatus): void
  subscribe(listener: () => void): () => void
  get(): GridStatus | null
}

function createGridStatusStore(): GridStatusStore {
  let status: GridStatus | null = null
  const listeners = new Set<() => void>()
  const same = (a: GridStatus | null, b: GridStatus) =>
    a !== null && a.first === b.first && a.end === b.end && a.loading === b.loading && a.active?.row === b.active?.row && a.active?.column === b.active?.column
  return {
    report(next) {
      if (same(status, next)) return
      status = next
      listeners.forEach((listener) => listener())
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    get: () => status,
  }
}

/** One store per table view; `report` is stable, so passing it keeps the memoized grid from re-rendering. */
export function useGridStatusStore(): GridStatusStore {
  const [store] = useState(createGridStatusStore)
  return store
}

/** The table view's footer: "Rows a–b of n" (marked "previous result" while a newer view runs or was refused), the active cell, and a spinner while rows load. */
export const GridStatusBar = memo(function GridStatusBar({ store, count, ready, stale = false }: { store: GridStatusStore; count: number; ready: boolean; stale?: boolean }) {
  const status = useSyncExternalStore(store.subscribe, store.get)
  return (
    <footer className="status-bar" role="status" aria-label="Table status">
      {ready && status && count > 0 && (
        <span>
          Rows {formatCount(status.first + 1)}–{formatCount(status.end)} of {formatCount(count)}
          {stale && ' (previous result)'}
        </span>
      )}
      {ready && status?.active && (
        <span>
          Row {formatCount(status.active.row + 1)}, {status.active.column}
        </span>
      )}
      {status?.loading && (
        <span className="status-loading">
          <Spinner label="Loading rows" /> loading rows…
        </span>
      )}
    </footer>
  )
})
