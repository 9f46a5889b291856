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
export function useViewVersion(tableRef: TableRef) {
  // Remembered with the table it belongs to: opening another table shows that table's latest version.
  const [openedFor, setOpenedFor] = useState<{ ref: TableRef; version: number; latest: number } | null>(null)
  const opened = useMemo(() => (openedFor && openedFor.ref === tableRef ? { version: openedFor.version, latest: openedFor.latest } : null), [openedFor, tableRef])
  const setOpened = useCallback((next: { version: number; latest: number } | null) => setOpenedFor(next ? { ref: tableRef, ...next } : null), [tableRef])
  const [diffFor, setDiffFor] = useState<{ ref: TableRef; result: DiffResult; side: DiffSide } | null>(null)
  const diff = diffFor && diffFor.ref === tableRef ? diffFor : null
  // Deleted rows are read from the older version, added and changed ones from the newer.
  const diffVersion = diff ? (diff.side === 'deleted' ? diff.result.from : diff.result.to) : undefined
  const openVersion = diffVersion ?? opened?.version
  const viewRef = useMemo<VersionedRef>(() => (openVersion !== undefined ? { ...tableRef, version: openVersion } : tableRef), [tableRef, openVersion])
  const diffKeys = useMemo<TableViewSpec['keys']>(() => (diff ? { column: diff.result.key, values: diff.result.keys[diff.side], integers: diff.result.keyType === 'integer' } : undefined), [diff])
  const setDiffSide = useCallback((side: DiffSide) => setDiffFor((d) => (d ? { ...d, side } : d)), [])
  const closeDiff = useCallback(() => setDiffFor(null), [])
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
      showChanges: (result) => setDiffFor({ ref: tableRef, result, side: result.changed > 0 ? 'changed' : result.added > 0 ? 'added' : result.deleted > 0 ? 'deleted' : 'changed' }),
    }),
    [opened, setOpened, tableRef],
  )
  return { opened, setOpened, viewRef, diff, diffKeys, setDiffSide, closeDiff, control }
}

export type ViewVersion = ReturnType<typeof useViewVersion>
