import type { ReactNode } from 'react'
import type { ImportJobInfo } from '../../../contract'
import { CloseIcon } from '../../components/Icons'
import { formatBytes, formatCount, formatDuration } from '../../lib/format'
import { namespaceLabel } from './dropped'
import { JobError, JobProgress } from './JobParts'
// The panel's styles ship with it: the import sheet (which also imports them) loads only on first use, so an
// index or export job opened the panel unstyled.
import './import.css'

export interface JobsPanelProps {
  id?: string
  jobs: readonly ImportJobInfo[]
  /** Collapse to the status-bar indicator. */
  onHide(): void
  onCancel(job: ImportJobInfo): void
  onOpen(job: ImportJobInfo): void
  onClear(): void
  /** Other jobs shown in the same panel (exports: src/renderer/features/export/useExportJobs.tsx). */
  extra?: { active: number; finished: number; items: ReactNode; clear(): void }
}

const STATE_LABEL: Record<ImportJobInfo['state'], string> = {
  queued: 'Queued',
  running: 'Importing',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
}

function percent(job: ImportJobInfo): number {
  const p = job.progress
  if (job.state === 'done') return 100
  if (p.totalRows) return Math.min(100, Math.floor((p.rows / p.totalRows) * 100))
  if (p.totalBytes > 0) return Math.min(100, Math.floor((p.bytesRead / p.totalBytes) * 100))
  return 0
}

function progressText(job: ImportJobInfo): string {
  const p = job.progress
  const parts = [`${formatBytes(p.bytesRead)} of ${formatBytes(p.totalBytes)}`, `${formatCount(p.rows)}${p.totalRows != null ? ` of ${formatCount(p.totalRows)}` : ''} rows`]
  if (job.state === 'running') {
    if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`)
    if (p.etaSeconds != null) parts.push(`${formatDuration(p.etaSeconds)} left`)
    if (p.phase !== 'reading' && p.phase !== 'writing') parts.push(p.phase)
  }
  return parts.join(' · ')
}

/**
 * Import jobs: what runs and waits (progress, Cancel) and what happened (done, failed with the
 * reason, cancelled). Docked under the content (it takes room, never covers it); the status-bar
 * indicator shows and hides it.
 */
export function JobsPanel({ id, jobs, onHide, onCancel, onOpen, onClear, extra }: JobsPanelProps) {
  const active = jobs.filter((j) => j.state === 'running' || j.state === 'queued').length + (extra?.active ?? 0)
  const finished = jobs.length + (extra ? extra.active + extra.finished : 0) - active
  const withExports = extra !== undefined && extra.active + extra.finished > 0
  const summary = active > 0 ? `${active} in progress` : `${finished} finished`
  return (
    <section id={id} className="jobs-panel open" role="region" aria-label={withExports ? 'Jobs' : 'Import jobs'}>
      <header className="jobs-header">
        <span className="jobs-title">{withExports ? 'Jobs' : 'Imports'}</span>
        <span className="muted small jobs-summary">{summary}</span>
        {finished > 0 && (
          <button
            type="button"
            className="link-button small"
            onClick={() => {
              onClear()
              extra?.clear()
            }}
          >
            Clear finished
          </button>
        )}
        <button type="button" className="icon-button" aria-label="Hide the imports" title="Hide (the status bar keeps the count)" onClick={onHide}>
          <CloseIcon />
        </button>
      </header>
      {(
        <ul className="jobs-list">
          {extra?.items}
          {[...jobs].reverse().map((job) => {
            const where = `${namespaceLabel(job.target.namespace)} / ${job.target.name}`
            const live = job.state === 'running' || job.state === 'queued'
            return (
              <li key={job.id} className={`job job-${job.state}`} aria-label={`Import of ${job.fileName}`}>
                <div className="job-line">
                  <span className="job-name" title={`${job.fileName} → ${where}`}>
                    {job.fileName} <span className="muted">→ {job.target.name}</span>
                  </span>
                  <span className={`job-state job-state-${job.state}`}>{STATE_LABEL[job.state]}</span>
                  {live && (
                    <button type="button" className="button small" onClick={() => onCancel(job)} aria-label={`Cancel import of ${job.fileName}`}>
                      Cancel
                    </button>
                  )}
                  {job.state === 'done' && job.kind !== 'recovery' && (
                    <button type="button" className="button small" onClick={() => onOpen(job)} aria-label={`Open ${job.target.name}`}>
                      Open
                    </button>
                  )}
                </div>
                {live && (
                  <JobProgress
                    label={`Progress of ${job.fileName}`}
                    percent={percent(job)}
                    valueText={job.state === 'queued' ? 'Waiting' : progressText(job)}
                    detail={job.state === 'queued' ? 'Waiting for the import before it' : progressText(job)}
                  />
                )}
                {job.note && <div className="job-detail muted small">{job.note}</div>}
                {job.state === 'done' && job.result && (
                  <div className="job-detail muted small">
                    {formatCount(job.result.rowCount)} rows in {where}, version {job.result.version}
                    {job.finishedAt && job.startedAt ? ` · ${formatDuration((job.finishedAt - job.startedAt) / 1000)}` : ''}
                  </div>
                )}
                {job.state === 'failed' && job.error && <JobError error={job.error} />}
                {job.state === 'cancelled' && <div className="job-detail muted small">{job.mode === 'create' ? 'Cancelled; no table was made' : `Cancelled; ${where} is as it was`}</div>}
              </li>
            )
          })}
        </ul>
      )}
    </section>
  )
}
