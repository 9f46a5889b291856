import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { ColumnProfile, HistogramBin, NumberStats, TableProfile, TableRef } from '../../../contract'
import { ButtonWithNote } from '../../components/ButtonNote'
import { formatCount } from '../../lib/format'
import { quoteIdentifier, quoteString } from '../../lib/sql'
import { barLabel, barShare, binPredicate } from './binFilter'
import { useProfile } from './useProfile'
import './profile.css'

/** Pixels the grid header grows by to hold the bars. */
const STRIP_HEIGHT = 22
/** Remembered for this session (a reload keeps it; a new window starts without). */
const SESSION_KEY = 'lcb.headerHistograms'

function rowsWord(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`
}

function readRemembered(): boolean {
  try {
    return sessionStorage.getItem(SESSION_KEY) === 'on'
  } catch {
    return false
  }
}

/**
 * One bar: its height is its share of the tallest (proportional to its count; a bar with rows is at least a
 * hairline); a click filters to the rows it counts (when it can).
 */
function Bar({ label, share, onClick }: { label: string; share: number; onClick?: () => void }) {
  const fill = <span className={share > 0 ? 'header-bar-fill' : undefined} style={{ height: `${(share * 100).toFixed(2)}%` }} />
  return onClick ? (
    <button type="button" className="header-bar" aria-label={label} title={`${label} — click to filter`} onClick={onClick}>
      {fill}
    </button>
  ) : (
    <span className="header-bar" role="img" aria-label={label} title={label}>
      {fill}
    </span>
  )
}

function bins(column: ColumnProfile, values: HistogramBin[], stats: NumberStats | undefined, onFilter?: (predicate: string) => void, name = column.name): ReactNode {
  const max = Math.max(0, ...values.map((b) => b.count))
  return values.map((bin, i) => (
    <Bar
      key={i}
      label={barLabel(name, column.kind, values, i, stats)}
      share={barShare(bin.count, max, false)}
      onClick={onFilter ? () => onFilter(binPredicate(column.name, column.kind, bin)) : undefined}
    />
  ))
}

/** A column's strip: its histogram, its top values (text, booleans: one bar each) or its vectors' norms. */
function ColumnStrip({ column, onFilter }: { column: ColumnProfile; onFilter: (predicate: string) => void }) {
  let content: ReactNode = null
  if (column.histogram && column.histogram.length > 0) content = bins(column, column.histogram, column.stats, onFilter)
  else if (column.top && column.top.values.length > 0) {
    const max = Math.max(0, ...column.top.values.map((t) => t.count))
    const literal = (value: string) => (column.kind === 'boolean' ? value.toUpperCase() : quoteString(value))
    content = column.top.values.map((t) => (
      <Bar
        key={t.value}
        label={`${column.name} = ${t.value}: ${t.exact ? '' : 'at least '}${rowsWord(t.count)}`}
        share={barShare(t.count, max, false)}
        onClick={() => onFilter(`${quoteIdentifier(column.name)} = ${literal(t.value)}`)}
      />
    ))
  } else if (column.vector?.normHistogram && column.vector.normHistogram.length > 0) {
    content = bins({ ...column, kind: 'number' }, column.vector.normHistogram, column.vector.norms, undefined, `${column.name} norm`)
  }
  if (!content) return null
  return (
    <div className="header-histogram" role="group" aria-label={`Histogram of ${column.name}`}>
      {content}
    </div>
  )
}

/**
 * The Histograms toggle of a table view: when on, every grid column header shows a small histogram (or bars of
 * its top values) of the current view's profile — the Summary's job, started here when no profile is kept — and
 * a click on a bar filters like the Summary's bars. The strip is drawn in the header only (the grid passes the
 * column name; rows never read it). The toggle is remembered for the session.
 */
export function useHeaderHistograms(tableRef: TableRef, version: number | undefined, filter: string | undefined, rowSet: string | undefined, onFilter: (predicate: string) => void) {
  const [on, setOn] = useState(readRemembered)
  const toggle = useCallback(() => {
    setOn((was) => {
      try {
        sessionStorage.setItem(SESSION_KEY, was ? 'off' : 'on')
      } catch {
        // Storage refused (private mode): the toggle still works for this view.
      }
      return !was
    })
  }, [])
  // Not before the table is described: its version is the one the grid reads.
  const { state, retry } = useProfile(tableRef, version, filter, rowSet, on && version !== undefined)
  const job = state.state === 'job' ? state.job : null
  // The same scan may be the Summary's: closing the Summary cancels it, so the headers ask again.
  const cancelled = on && job?.state === 'cancelled'
  useEffect(() => {
    if (cancelled) retry()
  }, [cancelled, retry])
  const profile: TableProfile | null = on ? (job?.result ?? null) : null
  // The strips stay the same objects while the profile does (the grid is memoized): the latest filter action is read at click time.
  const onFilterRef = useRef(onFilter)
  useLayoutEffect(() => {
    onFilterRef.current = onFilter
  })
  const filterBy = useCallback((predicate: string) => onFilterRef.current(predicate), [])

  const columns = useMemo(() => (on ? new Map((profile?.columns ?? []).map((c) => [c.name, c])) : undefined), [on, profile])

  let status: string | null = null
  if (on) {
    if (state.state === 'error') status = `Histograms: ${state.error.message}`
    else if (job?.state === 'failed') status = `Histograms: ${job.error?.message ?? 'the scan failed'}`
    else if (job?.state === 'queued') status = `Histograms: queued (${job.queueReason ?? 'waiting for a free slot'})…`
    else if (!job || job.state === 'running' || job.state === 'cancelled')
      status = `Histograms: reading ${job ? `${formatCount(job.progress.rows)}${job.progress.totalRows !== null ? ` of ${formatCount(job.progress.totalRows)}` : ''} rows` : 'rows'}…`
    else if (job.cached) status = `Histograms of version ${job.version} (kept)`
  }
  // The same object while nothing changes: the grid's header is memoized on it.
  return useMemo<HistogramsState>(() => ({ on, toggle, status, columns, filterBy }), [on, toggle, status, columns, filterBy])
}

/** What the header histograms hold for one table view (useHeaderHistograms); HistogramsToggle and HistogramCell draw it. */
export interface HistogramsState {
  on: boolean
  toggle(): void
  /** While the strips are read, or why they are not: the toggle's progress. */
  status: string | null
  /** Each column's profile by name, while on. */
  columns: Map<string, ColumnProfile> | undefined
  filterBy(predicate: string): void
}

/** The header histograms as the table view's header strip (components/dock/registry.ts). */
export const headerHistogramsStrip = {
  use: useHeaderHistograms,
  height: (state: HistogramsState) => (state.on ? STRIP_HEIGHT : undefined),
  Toggle: HistogramsToggle,
  tool: (state: HistogramsState) => ({ label: 'Histograms', on: state.on, toggle: state.toggle }),
  Cell: HistogramCell,
}

/** One column header's strip. */
export function HistogramCell({ state, column }: { state: HistogramsState; column: string }) {
  const profile = state.columns?.get(column)
  return profile ? <ColumnStrip column={profile} onFilter={state.filterBy} /> : null
}

/** The **Histograms** toggle and, while the strips are read, their progress (role `status`). */
export function HistogramsToggle({ state, disabled }: { state: HistogramsState; disabled: boolean }) {
  const { on, toggle, status } = state
  return (
    // The status floats under the button: the toolbar keeps its place while it comes and goes.
    <ButtonWithNote
      align="right"
      label="Histograms progress"
      note={status}
      button={
        <button type="button" className="button" aria-pressed={on} disabled={disabled} onClick={toggle}>
          Histograms
        </button>
      }
    />
  )
}
