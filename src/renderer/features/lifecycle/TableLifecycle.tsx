import { useQueryClient } from '@tanstack/react-query'
import { invalidate } from '../../queries/invalidate'
import { useCallback, useMemo, useState } from 'react'
import { useLifecycleBlocks } from './useLifecycleBlocks'
import type { DiffResult, FieldInfo, TableRef, TableViewSpec } from '../../../contract'
import { DiffBanner, type DiffSide } from './DiffBanner'
import { IndexesPanel } from './IndexesPanel'
import { StatsPanel } from './StatsPanel'
import { VersionsPanel } from './VersionsPanel'

export type LifecyclePanel = 'versions' | 'indexes' | 'stats'

/** A TableRef that reads one version (read-only); the grid, count and pages all go through it. */
export type VersionedRef = TableRef & { version?: number }

/**
 * The table view's lifecycle state: which panel is open and which version is shown. `viewRef` is what the
 * table view reads through (the same ref object while nothing changes, so nothing reloads needlessly).
 */
export function useTableLifecycle(tableRef: TableRef, start: LifecycleStart = {}) {
  const [panel, setPanel] = useState<LifecyclePanel | null>(null)
  // Remembered with the table it belongs to: opening another table shows that table's latest version.
  const [openedFor, setOpenedFor] = useState<{ ref: TableRef; version: number; latest: number } | null>(() =>
    start.version !== undefined ? { ref: tableRef, version: start.version, latest: start.latest ?? start.version } : null,
  )
  const opened = openedFor && openedFor.ref === tableRef ? { version: openedFor.version, latest: openedFor.latest } : null
  const setOpened = useCallback((next: { version: number; latest: number } | null) => setOpenedFor(next ? { ref: tableRef, ...next } : null), [tableRef])
  // The changes between two versions shown in the grid (Compare… → Show changes), with the kind of rows picked.
  const [diffFor, setDiffFor] = useState<{ ref: TableRef; result: DiffResult; side: DiffSide } | null>(() => (start.diff ? { ref: tableRef, result: start.diff, side: firstSide(start.diff) } : null))
  const diff = diffFor && diffFor.ref === tableRef ? diffFor : null
  // Deleted rows are read from the older version, added and changed ones from the newer.
  const diffVersion = diff ? (diff.side === 'deleted' ? diff.result.from : diff.result.to) : undefined
  const openVersion = diffVersion ?? opened?.version
  const viewRef = useMemo<VersionedRef>(() => (openVersion !== undefined ? { ...tableRef, version: openVersion } : tableRef), [tableRef, openVersion])
  const diffKeys = useMemo<TableViewSpec['keys']>(() => (diff ? { column: diff.result.key, values: diff.result.keys[diff.side], integers: diff.result.keyType === 'integer' } : undefined), [diff])
  const { onShowDiff, onCloseDiff } = start
  const showDiff = useCallback(
    (result: DiffResult) => {
      // The workbench opens What changed as a tab of its own; alone, the view shows it in place.
      if (onShowDiff) onShowDiff(result)
      else setDiffFor({ ref: tableRef, result, side: firstSide(result) })
      setPanel(null)
    },
    [tableRef, onShowDiff],
  )
  const setDiffSide = useCallback((side: DiffSide) => setDiffFor((d) => (d ? { ...d, side } : d)), [])
  const clearDiff = useCallback(() => setDiffFor(null), [])
  const closeDiff = useCallback(() => {
    if (onCloseDiff && diffFor) onCloseDiff()
    else setDiffFor(null)
  }, [onCloseDiff, diffFor])
  const toggle = useCallback((p: LifecyclePanel) => setPanel((current) => (current === p ? null : p)), [])
  return { panel, setPanel, toggle, opened, setOpened, viewRef, diff, diffKeys, showDiff, setDiffSide, closeDiff, clearDiff }
}

export type TableLifecycle = ReturnType<typeof useTableLifecycle>

/** Where a table view starts (a tab opened again, a split, What changed in its own tab) and who shows a diff. */
export interface LifecycleStart {
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

/** The header's **Versions**, **Indexes** and **Stats** buttons. */
export function LifecycleButtons({ lifecycle, disabled }: { lifecycle: TableLifecycle; disabled: boolean }) {
  const names: [LifecyclePanel, string][] = [
    ['versions', 'Versions'],
    ['indexes', 'Indexes'],
    ['stats', 'Stats'],
  ]
  return (
    <div className="lifecycle-buttons" role="group" aria-label="Table lifecycle">
      {names.map(([id, label]) => (
        <button key={id} type="button" className="button" aria-pressed={lifecycle.panel === id} disabled={disabled} onClick={() => lifecycle.toggle(id)}>
          {label}
        </button>
      ))}
    </div>
  )
}

/** "version n of m — read-only" in the table header, with the way back; or, while changes are shown, their header. */
export function ReadOnlyBadge({ lifecycle }: { lifecycle: TableLifecycle }) {
  if (lifecycle.diff) return <DiffBanner result={lifecycle.diff.result} side={lifecycle.diff.side} onSide={lifecycle.setDiffSide} onClose={lifecycle.closeDiff} />
  if (!lifecycle.opened) return null
  return (
    <div className="readonly-badge" role="note" aria-label={`version ${lifecycle.opened.version} of ${lifecycle.opened.latest} — read-only`}>
      <span>
        version {lifecycle.opened.version} of {lifecycle.opened.latest} — read-only
      </span>
      <button type="button" className="link-button" onClick={() => lifecycle.setOpened(null)}>
        Back to latest
      </button>
    </div>
  )
}

/** The open lifecycle panel, if any. What a panel's write makes stale (the open view among it) is its rule's: queries/invalidate.ts. */
export function LifecyclePanelView({ lifecycle, tableRef, fields, writeBlock }: { lifecycle: TableLifecycle; tableRef: TableRef; fields: readonly FieldInfo[]; writeBlock?: string }) {
  const close = () => lifecycle.setPanel(null)
  // What the connection's server lacks (REST): re-read each time a panel has loaded its list.
  const client = useQueryClient()
  const { connectionId } = tableRef
  const settled = useCallback(() => void invalidate.capabilities(client, connectionId), [client, connectionId])
  const refused = useLifecycleBlocks(connectionId, lifecycle.panel)
  // Writes are for the latest version; an old one open read-only says so on every write button.
  const block = writeBlock
  if (lifecycle.panel === 'versions')
    return (
      <VersionsPanel
        tableRef={tableRef}
        openVersion={lifecycle.opened?.version ?? null}
        writeBlock={block ?? refused('table.tagWrite', 'table.tags')}
        restoreBlock={block ?? refused('table.restore', 'table.versions')}
        onSettled={settled}
        fields={fields}
        onOpen={(version, latest) => {
          lifecycle.clearDiff()
          lifecycle.setOpened({ version, latest })
        }}
        onLatest={() => {
          lifecycle.clearDiff()
          lifecycle.setOpened(null)
        }}
        onShowChanges={lifecycle.showDiff}
        onClose={close}
      />
    )
  if (lifecycle.panel === 'indexes') return (
      <IndexesPanel tableRef={tableRef} fields={fields} writeBlock={block ?? refused('table.createIndex', 'table.indexes')} dropBlock={block ?? refused('table.dropIndex', 'table.indexes')} onSettled={settled} onClose={close} />
    )
  if (lifecycle.panel === 'stats') return (
      <StatsPanel tableRef={tableRef} fields={fields} writeBlock={block ?? refused('table.alterSchema')} optimizeBlock={block ?? refused('table.optimize', 'table.stats')} onSettled={settled} onClose={close} />
    )
  return null
}
