import { useEffect, useState } from 'react'
import { EXPORT_FORMATS, type DiffJobInfo, type ExportJobInfo, type ImportJobInfo, type IndexJobInfo, type TableRef } from '../../../contract'
import { formatBytes, formatCount, formatDuration, namespaceLabel } from '../../lib/format'
import { JobError, JobProgress } from './JobParts'

/** One row of the jobs panel per kind: what runs (progress, Cancel) and what happened (done, failed with the reason, cancelled). */

const IMPORT_STATE: Record<ImportJobInfo['state'], string> = { queued: 'Queued', running: 'Importing', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }
const EXPORT_STATE: Record<ExportJobInfo['state'], string> = { queued: 'Queued', running: 'Exporting', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }
const DIFF_STATE: Record<DiffJobInfo['state'], string> = { queued: 'Queued', running: 'Comparing', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }
const INDEX_STATE: Record<IndexJobInfo['state'], string> = { queued: 'Queued', running: 'Building index', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }

const live = (job: { state: string }) => job.state === 'running' || job.state === 'queued'

/**
 * A queued job's line: why it waits (the host says: a free slot, or memory) and how many were queued before it
 * (`place`, from the session's list: see `queuePlaces`).
 */
export function queuedText(job: { queueReason?: string }, place: number | undefined): string {
  const reason = job.queueReason ?? 'Waiting for a free slot'
  if (place === undefined) return reason
  return `${reason} · ${place === 0 ? 'next in line' : `${place} queued before it`}`
}
const took = (job: { startedAt: number | null; finishedAt: number | null }) => (job.finishedAt && job.startedAt ? ` · ${formatDuration((job.finishedAt - job.startedAt) / 1000)}` : '')

function importPercent(job: ImportJobInfo): number {
  const p = job.progress
  if (job.state === 'done') return 100
  if (p.totalRows) return Math.min(100, Math.floor((p.rows / p.totalRows) * 100))
  if (p.totalBytes > 0) return Math.min(100, Math.floor((p.bytesRead / p.totalBytes) * 100))
  return 0
}

function importProgress(job: ImportJobInfo): string {
  const p = job.progress
  const parts = [`${formatBytes(p.bytesRead)} of ${formatBytes(p.totalBytes)}`, `${formatCount(p.rows)}${p.totalRows != null ? ` of ${formatCount(p.totalRows)}` : ''} rows`]
  if (job.state === 'running') {
    if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`)
    if (p.etaSeconds != null) parts.push(`${formatDuration(p.etaSeconds)} left`)
    if (p.phase !== 'reading' && p.phase !== 'writing') parts.push(p.phase)
  }
  return parts.join(' · ')
}

export function ImportJobRow({ job, place, onCancel, onOpen }: { job: ImportJobInfo; place?: number; onCancel(): void; onOpen(ref: TableRef): void }) {
  const where = `${namespaceLabel(job.target.namespace)} / ${job.target.name}`
  return (
    <li className={`job job-${job.state}`} aria-label={`Import of ${job.fileName}`}>
      <div className="job-line">
        <span className="job-name" title={`${job.fileName} → ${where}`}>
          {job.fileName} <span className="muted">→ {job.target.name}</span>
        </span>
        <span className={`job-state job-state-${job.state}`}>{IMPORT_STATE[job.state]}</span>
        {live(job) && (
          <button type="button" className="button small" onClick={onCancel} aria-label={`Cancel import of ${job.fileName}`}>
            Cancel
          </button>
        )}
        {job.state === 'done' && job.kind !== 'recovery' && (
          <button type="button" className="button small" onClick={() => onOpen(job.target)} aria-label={`Open ${job.target.name}`}>
            Open
          </button>
        )}
      </div>
      {live(job) && (
        <JobProgress
          label={`Progress of ${job.fileName}`}
          percent={importPercent(job)}
          valueText={job.state === 'queued' ? 'Waiting' : importProgress(job)}
          detail={job.state === 'queued' ? queuedText(job, place) : importProgress(job)}
        />
      )}
      {job.note && <div className="job-detail muted small">{job.note}</div>}
      {job.state === 'done' && job.result && (
        <div className="job-detail muted small">
          {formatCount(job.result.rowCount)} rows in {where}, version {job.result.version}
          {took(job)}
        </div>
      )}
      {job.state === 'failed' && job.error && <JobError error={job.error} />}
      {job.state === 'cancelled' && <div className="job-detail muted small">{job.mode === 'create' ? 'Cancelled; no table was made' : `Cancelled; ${where} is as it was`}</div>}
    </li>
  )
}

function exportProgress(job: ExportJobInfo): string {
  const p = job.progress
  const parts = [`${formatCount(p.rows)}${p.totalRows != null ? ` of ${formatCount(p.totalRows)}` : ''} rows`, formatBytes(p.bytesWritten)]
  if (p.rowsPerSecond > 0) parts.push(`${formatCount(p.rowsPerSecond)} rows/s`)
  if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`)
  return parts.join(' · ')
}

function exportPercent(job: ExportJobInfo): number {
  const p = job.progress
  if (job.state === 'done') return 100
  return p.totalRows ? Math.min(100, Math.floor((p.rows / p.totalRows) * 100)) : 0
}

export function ExportJobRow({ job, place, onCancel }: { job: ExportJobInfo; place?: number; onCancel(): void }) {
  const format = EXPORT_FORMATS[job.format].label
  return (
    <li className={`job job-${job.state}`} aria-label={`Export of ${job.source.name}`}>
      <div className="job-line">
        <span className="job-name" title={`${job.source.name} → ${job.fileName} (${format})`}>
          {job.source.name} <span className="muted">→ {job.fileName}</span>
        </span>
        <span className={`job-state job-state-${job.state}`}>{EXPORT_STATE[job.state]}</span>
        {live(job) && (
          <button type="button" className="button small" onClick={onCancel} aria-label={`Cancel export of ${job.source.name}`}>
            Cancel
          </button>
        )}
      </div>
      {live(job) && (
        <JobProgress
          label={`Progress of the export of ${job.source.name}`}
          percent={exportPercent(job)}
          valueText={job.state === 'queued' ? 'Waiting' : exportProgress(job)}
          detail={job.state === 'queued' ? queuedText(job, place) : exportProgress(job)}
        />
      )}
      {job.state === 'done' && job.result && (
        <div className="job-detail muted small">
          {formatCount(job.result.rows)} rows, {formatBytes(job.result.bytes)} as {format}
          {took(job)}
          {job.download ? ' · downloaded' : ''}
        </div>
      )}
      {job.state === 'failed' && job.error && <JobError error={job.error} />}
      {job.state === 'cancelled' && <div className="job-detail muted small">Cancelled; no file was written</div>}
    </li>
  )
}

/** The time now, ticking each second while `running` (Lance reports no build progress: elapsed time is all there is). */
export function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [running])
  return now
}

/** An index build: an indeterminate bar, elapsed time, and Cancel (which takes effect when Lance's build step ends). */
export function IndexJobRow({ job, now, place, onCancel }: { job: IndexJobInfo; now: number; place?: number; onCancel(): void }) {
  const running = job.state === 'running'
  const queued = job.state === 'queued'
  const label = `Index ${job.index.name} on ${job.table.name}`
  const elapsed = formatDuration(Math.max(0, ((job.finishedAt ?? now) - job.startedAt) / 1000))
  const retry = job.attempts && job.attempts > 1 ? ` · attempt ${job.attempts}: another writer committed first` : ''
  const detail = queued
    ? queuedText(job, place)
    : job.cancelling
      ? `Cancelling: stops after the current build step, then the index is removed · ${elapsed}`
      : job.waiting
        ? `${job.waiting} (writes to one table run one at a time)`
        : `${job.index.type} on ${job.index.column} · ${elapsed} (Lance reports no progress for a build)${retry}`
  return (
    <li className={`job job-${job.state}`} aria-label={label}>
      <div className="job-line">
        <span className="job-name" title={`${job.index.type} index ${job.index.name} on ${job.table.name}.${job.index.column}`}>
          {job.index.name} <span className="muted">→ {job.table.name}</span>
        </span>
        <span className={`job-state job-state-${job.state}`}>{job.cancelling && running ? 'Cancelling' : running && job.waiting ? 'Waiting' : INDEX_STATE[job.state]}</span>
        {(running || queued) && (
          <button type="button" className="button small" disabled={job.cancelling} onClick={onCancel} aria-label={`Cancel ${label}`}>
            Cancel
          </button>
        )}
      </div>
      {(running || queued) && <JobProgress label={`Progress of ${label}`} valueText={queued ? 'Waiting' : detail} detail={detail} />}
      {job.state === 'done' && (
        <div className="job-detail muted small">
          {job.index.type} index on {job.index.column} built · {elapsed}
        </div>
      )}
      {job.state === 'failed' && job.error && <JobError error={job.error} />}
      {job.state === 'cancelled' && <div className="job-detail muted small">Cancelled; the table keeps the indexes it had</div>}
    </li>
  )
}

/** A version comparison (Compare… in the Versions panel): rows read of both versions, then the three counts. */
export function DiffJobRow({ job, place, onCancel }: { job: DiffJobInfo; place?: number; onCancel(): void }) {
  const name = `${job.table.name} v${job.from} → v${job.to}`
  const p = job.progress
  const read = `${formatCount(p.rows)}${p.totalRows != null ? ` of ${formatCount(p.totalRows)}` : ''} rows read`
  return (
    <li className={`job job-${job.state}`} aria-label={`Comparison of ${name}`}>
      <div className="job-line">
        <span className="job-name" title={`${name} by ${job.key}`}>
          {job.table.name} <span className="muted">v{job.from} → v{job.to} by {job.key}</span>
        </span>
        <span className={`job-state job-state-${job.state}`}>{DIFF_STATE[job.state]}</span>
        {live(job) && (
          <button type="button" className="button small" onClick={onCancel} aria-label={`Cancel comparison of ${name}`}>
            Cancel
          </button>
        )}
      </div>
      {live(job) && (
        <JobProgress
          label={`Progress of the comparison of ${name}`}
          percent={p.totalRows ? Math.min(100, Math.floor((p.rows / p.totalRows) * 100)) : 0}
          valueText={job.state === 'queued' ? 'Waiting' : read}
          detail={job.state === 'queued' ? queuedText(job, place) : read}
        />
      )}
      {job.state === 'done' && job.result && (
        <div className="job-detail muted small">
          {formatCount(job.result.added)} added, {formatCount(job.result.deleted)} deleted, {formatCount(job.result.changed)} changed
        </div>
      )}
      {job.state === 'failed' && job.error && <JobError error={job.error} />}
      {job.state === 'cancelled' && <div className="job-detail muted small">Cancelled; nothing was kept</div>}
    </li>
  )
}
