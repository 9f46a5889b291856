import { useCallback, useMemo, useState } from 'react'
import type { DiffResult, TableRef, TableViewSpec } from '../../../contract'
import type { VersionControl } from '../../components/dock/registry'
import type { DiffSide } from './DiffBanner'
import type { VersionedRef } from './queries'

/**
 * The version a table view reads: the latest, one opened read-only (Versions → Open read-only), or one side of the
 * changes between two (Compare… → Show changes). `viewRef` is what the grid, count and pages read through (the
 * same object while nothing changes, so nothing reloads needlessly). Panels change it through `control`.
 */
export function useViewVersion(tableRef: TableRef, start: ViewStart = {}) {
  // Remembered with the table it belongs to: opening another table shows that table's latest version.
  const [openedFor, setOpenedFor] = useState<{ ref: TableRef; version: number; latest: number } | null>(() =>
    start.version !== undefined ? { ref: tableRef, version: start.version, latest: start.latest ?? start.version } : null,
  )
  const opened = useMemo(() => (openedFor && openedFor.ref === tableRef ? { version: openedFor.version, latest: openedFor.latest } : null), [openedFor, tableRef])
  const setOpened = useCallback((next: { version: number; latest: number } | null) => setOpenedFor(next ? { ref: tableRef, ...next } : null), [tableRef])
  const [diffFor, setDiffFor] = useState<{ ref: TableRef; result: DiffResult; side: DiffSide } | null>(() => (start.diff ? { ref: tableRef, result: start.diff, side: firstSide(start.diff) } : null))
  const diff = diffFor && diffFor.ref === tableRef ? diffFor : null
  // Deleted rows are read from the older version, added and changed ones from the newer.
  const diffVersion = diff ? (diff.side === 'deleted' ? diff.result.from : diff.result.to) : undefined
  const openVersion = diffVersion ?? opened?.version
  const viewRef = useMemo<VersionedRef>(() => (openVersion !== undefined ? { ...tableRef, version: openVersion } : tableRef), [tableRef, openVersion])
  const diffKeys = useMemo<TableViewSpec['keys']>(() => (diff ? { column: diff.result.key, values: diff.result.keys[diff.side], integers: diff.result.keyType === 'integer' } : undefined), [diff])
  const setDiffSide = useCallback((side: DiffSide) => setDiffFor((d) => (d ? { ...d, side } : d)), [])
  const { onShowDiff, onCloseDiff } = start
  // A view that started as What changed (its own tab) ends with it: closing the changes closes the tab.
  const closeDiff = useCallback(() => {
    if (onCloseDiff && diffFor) onCloseDiff()
    else setDiffFor(null)
  }, [onCloseDiff, diffFor])
  const control = useMemo<VersionControl>(
    () => ({
      opened,
      open: (version, latest) => {
        setDiffFor(null)
        setOpened({ version, latest })
      },
      backToLatest: () => {
        setDiffFor(null)
        setOpened(null)
      },
      // The workbench opens What changed as a tab of its own; alone, the view shows it in place.
      showChanges: (result) => (onShowDiff ? onShowDiff(result) : setDiffFor({ ref: tableRef, result, side: firstSide(result) })),
    }),
    [opened, setOpened, tableRef, onShowDiff],
  )
  return { opened, setOpened, viewRef, diff, diffKeys, setDiffSide, closeDiff, control }
}

export type ViewVersion = ReturnType<typeof useViewVersion>

/** Where a table view starts (a tab opened again, a split, What changed in its own tab) and who shows a diff. */
export interface ViewStart {
  /** A pinned version, with the latest there was when it was pinned. */
  version?: number
  latest?: number
  diff?: DiffResult
  /** Show a diff elsewhere (a tab of its own) instead of in this view. */
  onShowDiff?: (result: DiffResult) => void
  /** Closing the diff this view started with ends the view (its tab closes). */
  onCloseDiff?: () => void
}

function firstSide(result: DiffResult): DiffSide {
  return result.changed > 0 ? 'changed' : result.added > 0 ? 'added' : result.deleted > 0 ? 'deleted' : 'changed'
}
