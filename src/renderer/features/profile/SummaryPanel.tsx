import { useState } from 'react'
import type { ColumnProfile, HistogramBin, NumberStats, TableProfile, TableRef } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { PanelHeader } from '../../components/PanelHeader'
import { ScanProgress } from '../jobs'
import { barLabel, barShare, binPredicate, formatEdge } from './binFilter'
import { useProfile } from './useProfile'
import './profile.css'
import { formatCount, formatPercent } from '../../lib/format'

function rowsWord(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`
}

function statsText(column: ColumnProfile, stats: NumberStats): string {
  const kind = column.kind
  if (kind === 'date' || kind === 'timestamp') return `${formatEdge(kind, stats.min)} – ${formatEdge(kind, stats.max)}`
  return `${formatEdge(kind, stats.min)} – ${formatEdge(kind, stats.max)} · mean ${formatEdge('number', stats.mean)}`
}

/**
 * Bars as buttons: each filters the grid to its range (`lo <= value < hi`). Heights are proportional to the
 * counts (or to their logarithm with the log scale on); a bar with rows is at least a hairline, one without none.
 */
function Histogram({ column, bins, stats, log, onFilter }: { column: ColumnProfile; bins: HistogramBin[]; stats: NumberStats | undefined; log: boolean; onFilter?: (predicate: string) => void }) {
  const max = Math.max(0, ...bins.map((b) => b.count))
  return (
    <div className="summary-histogram" role="group" aria-label={`Histogram of ${column.name}${log ? ' (log scale)' : ''}`}>
      {bins.map((bin, i) => {
        const label = barLabel(column.name, column.kind, bins, i, stats)
        const share = barShare(bin.count, max, log)
        const bar = <span className={bin.count > 0 ? 'summary-bar-fill' : undefined} style={{ height: `${(share * 100).toFixed(2)}%` }} data-share={share.toFixed(4)} />
        return onFilter ? (
          <button key={i} type="button" className="summary-bar" aria-label={label} title={`${label} — click to filter`} onClick={() => onFilter(binPredicate(column.name, column.kind, bin))}>
            {bar}
          </button>
        ) : (
          <span key={i} className="summary-bar" role="img" aria-label={label} title={label}>
            {bar}
          </span>
        )
      })}
    </div>
  )
}

function Distribution({ column, log, onFilter }: { column: ColumnProfile; log: boolean; onFilter: (predicate: string) => void }) {
  if (column.histogram && column.histogram.length > 0) return <Histogram column={column} bins={column.histogram} stats={column.stats} log={log} onFilter={onFilter} />
  if (column.top && column.top.values.length > 0) {
    return (
      <ol className="summary-top" aria-label={`Top values of ${column.name}`}>
        {column.top.values.map((t) => (
          <li key={t.value}>
            <span className="summary-top-value" title={t.value}>
              {t.value}
            </span>
            <span className="summary-top-count">
              {t.exact ? '' : '≥ '}
              {formatCount(t.count)}
            </span>
          </li>
        ))}
      </ol>
    )
  }
  if (column.vector?.normHistogram && column.vector.normHistogram.length > 0) {
    return (
      <div>
        <div className="summary-caption">L2 norms</div>
        <Histogram column={{ ...column, kind: 'number', name: `${column.name} norm` }} bins={column.vector.normHistogram} stats={column.vector.norms} log={log} />
      </div>
    )
  }
  return null
}

function Details({ column }: { column: ColumnProfile }) {
  const lines: string[] = []
  if (column.stats) lines.push(statsText(column, column.stats))
  if (column.nans) lines.push(`${formatCount(column.nans)} NaN`)
  if (column.lengths) lines.push(`${column.kind === 'list' ? 'items' : 'length'} ${formatEdge('number', column.lengths.min)} – ${formatEdge('number', column.lengths.max)} · mean ${formatEdge('number', column.lengths.mean)}`)
  if (column.vector) {
    const v = column.vector
    lines.push(`dimension ${formatCount(v.dimension)}`)
    if (v.norms) lines.push(`norm ${formatEdge('number', v.norms.min)} – ${formatEdge('number', v.norms.max)} · mean ${formatEdge('number', v.norms.mean)}`)
    lines.push(`${formatCount(v.nanVectors)} with NaN · ${formatCount(v.zeroVectors)} all zero`)
    lines.push(v.duplicateVectors === null ? 'duplicates not counted (too many vectors)' : `${formatCount(v.duplicateVectors)} exact duplicates`)
  }
  if (column.kind === 'other') lines.push('Not read (binary or nested values)')
  return (
    <div className="summary-details">
      {lines.map((line, i) => (
        <div key={i} className={line.includes('NaN') && !line.startsWith('0 ') ? 'summary-warn' : undefined}>
          {line}
        </div>
      ))}
    </div>
  )
}

/**
 * The Distinct cell: an exact count says so; an estimate shows the range the true count lies in (about 95 %
 * confidence, never past the rows read nor below the values counted exactly), and both name the exact limit.
 */
function DistinctCell({ distinct }: { distinct: ColumnProfile['distinct'] }) {
  if (!distinct) return <td className="summary-num">—</td>
  const limit = `counted exactly up to ${formatCount(distinct.limit)} distinct values a column`
  if (distinct.exact) {
    return (
      <td className="summary-num" title={`Counted exactly (${limit})`}>
        {formatCount(distinct.count)}
        <div className="summary-type">exact</div>
      </td>
    )
  }
  const low = distinct.low ?? distinct.count
  const high = distinct.high ?? distinct.count
  const range = `${formatCount(low)} – ${formatCount(high)}`
  return (
    <td className="summary-num" title={`Estimated: between ${range} (95 % confidence); ${limit}, more are estimated`}>
      <span data-testid="distinct-count">≈ {formatCount(distinct.count)}</span>
      <div className="summary-type" data-testid="distinct-range">
        {range}
      </div>
      <div className="summary-type">estimate</div>
    </td>
  )
}

function ProfileTable({ profile, log, onFilter }: { profile: TableProfile; log: boolean; onFilter: (predicate: string) => void }) {
  return (
    <table className="summary-table">
      <thead>
        <tr>
          <th scope="col">Column</th>
          <th scope="col">Nulls</th>
          <th scope="col">Distinct</th>
          <th scope="col">Values</th>
        </tr>
      </thead>
      <tbody>
        {profile.columns.map((column) => (
          <tr key={column.name} aria-label={column.name}>
            <th scope="row">
              <div className="summary-name">{column.name}</div>
              <div className="summary-type">{column.type}</div>
            </th>
            <td className="summary-num">
              {column.nulls === null ? '—' : formatCount(column.nulls)}
              {column.nulls !== null && column.nulls > 0 && profile.rows > 0 && <div className="summary-type">{formatPercent(column.nulls / profile.rows)}</div>}
            </td>
            <DistinctCell distinct={column.distinct} />
            <td>
              <Details column={column} />
              <Distribution column={column} log={log} onFilter={onFilter} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/**
 * The Summary of the open view: one row per column (nulls, distinct, range, a histogram or the top
 * values, vector norms). It describes the version, filter and lasso it was computed for, and says so.
 */
export function SummaryPanel({
  tableRef,
  version,
  filter,
  rowSet,
  searching = false,
  onFilter,
  onClose,
}: {
  tableRef: TableRef
  version: number | undefined
  filter: string | undefined
  /** The map's lasso (a row set id): the Summary is of its rows. */
  rowSet?: string
  searching?: boolean
  onFilter: (predicate: string) => void
  onClose(): void
}) {
  const { state, cancel, retry } = useProfile(tableRef, version, filter, rowSet)
  const job = state.state === 'job' ? state.job : null
  const profile = job?.result ?? null
  // Log scale: for skewed columns, where proportional bars leave the small counts a hairline.
  const [log, setLog] = useState(false)
  return (
    <section className="summary-panel side-panel" aria-label="Summary">
      <PanelHeader
        title="Summary"
        metaTestId="summary-meta"
        meta={job && `Version ${job.version}${job.filter ? ' · filtered' : ''}${job.rowSet ? ' · lasso' : ''}${profile ? ` · ${rowsWord(profile.rows)}` : ''}${job.cached ? ' · kept' : ''}`}
        onClose={onClose}
      >
        <button type="button" className="button summary-scale" aria-pressed={log} title="Bar heights by the logarithm of the counts (for skewed columns); off: proportional to the counts" onClick={() => setLog((was) => !was)}>
          Log scale
        </button>
      </PanelHeader>
      <div className="summary-scroll">
        {(job?.filter || job?.rowSet) && (
          <div className="summary-note">
            {job.rowSet ? 'Rows in the map’s lasso' : 'Rows'}
            {job.filter && (
              <>
                {job.rowSet ? ' that match ' : ' matching '}
                <code>{job.filter}</code>
              </>
            )}
          </div>
        )}
        {searching && <div className="summary-note">A search narrows the grid; the Summary describes the rows before it (the filter only).</div>}
        {state.state !== 'error' && <ScanProgress job={job ?? null} label="Summary progress" verb="Reading" className="summary-progress" onCancel={cancel} onRetry={retry} />}
        {state.state === 'error' && <ErrorPanel error={state.error} title="Could not summarise this table" actions={[{ label: 'Try again', run: retry }]} />}
        {job?.state === 'failed' && job.error && <ErrorPanel error={job.error} title="Could not summarise this table" actions={[{ label: 'Try again', run: retry }]} />}
        {profile && <ProfileTable profile={profile} log={log} onFilter={onFilter} />}
      </div>
    </section>
  )
}
