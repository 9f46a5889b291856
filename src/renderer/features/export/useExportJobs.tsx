import { useCallback, useEffect, useState, type ReactNode } from 'react'
import type { ExportJobInfo } from '../../../contract'
import { EXPORT_FORMATS } from '../../../contract'
import { call, onHostEvent } from '../../api'
import { formatBytes, formatCount, formatDuration } from '../../lib/format'
import { downloadExport } from './download'
import { upsertJob, JobError, JobProgress } from '../import'

export interface ExportJobsView {
  active: number
  finished: number
  /** `<li>` rows for the jobs panel's list (newest first). */
  items: ReactNode
  clear(): void
}

const STATE_LABEL: Record<ExportJobInfo['state'], string> = { queued: 'Queued', running: 'Exporting', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }

function progressText(job: ExportJobInfo): string {
  const p = job.progress
  const parts = [`${formatCount(p.rows)}${p.totalRows != null ? ` of ${formatCount(p.totalRows)}` : ''} rows`, formatBytes(p.bytesWritten)]
  if (p.rowsPerSecond > 0) parts.push(`${formatCount(p.rowsPerSecond)} rows/s`)
  if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`)
  return parts.join(' · ')
}

function percent(job: ExportJobInfo): number {
  const p = job.progress
  if (job.state === 'done') return 100
  return p.totalRows ? Math.min(100, Math.floor((p.rows / p.totalRows) * 100)) : 0
}

/**
 * Export jobs as the window sees them: `export/list` kept current by `export/progress` events, shown
 * in the jobs panel (rows with progress, rate and Cancel). A finished download export is handed to
 * the browser once (harness).
 */
export function useExportJobs(): ExportJobsView {
  const [jobs, setJobs] = useState<ExportJobInfo[]>([])
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set())

  useEffect(() => {
    const downloaded = new Set<string>()
    const upsert = (job: ExportJobInfo, fromEvent: boolean) => setJobs((previous) => upsertJob(previous, job, fromEvent))
    const off = onHostEvent('export/progress', (job) => {
      upsert(job, true)
      if (job.state === 'done' && job.download && !downloaded.has(job.id)) {
        downloaded.add(job.id)
        downloadExport(job.id, job.fileName)
      }
    })
    call('export/list', {})
      .then((list) => {
        for (const job of list) {
          if (job.state === 'done') downloaded.add(job.id)
          upsert(job, false)
        }
      })
      .catch(() => undefined)
    return off
  }, [])

  const clear = useCallback(() => setHidden(new Set(jobs.filter((j) => j.state !== 'running' && j.state !== 'queued').map((j) => j.id))), [jobs])
  const visible = jobs.filter((j) => !hidden.has(j.id))
  const active = visible.filter((j) => j.state === 'running' || j.state === 'queued').length

  const items = [...visible].reverse().map((job) => {
    const live = job.state === 'running' || job.state === 'queued'
    const format = EXPORT_FORMATS[job.format].label
    return (
      <li key={job.id} className={`job job-${job.state}`} aria-label={`Export of ${job.source.name}`}>
        <div className="job-line">
          <span className="job-name" title={`${job.source.name} → ${job.fileName} (${format})`}>
            {job.source.name} <span className="muted">→ {job.fileName}</span>
          </span>
          <span className={`job-state job-state-${job.state}`}>{STATE_LABEL[job.state]}</span>
          {live && (
            <button type="button" className="button small" onClick={() => void call('export/cancel', { jobId: job.id }).catch(() => undefined)} aria-label={`Cancel export of ${job.source.name}`}>
              Cancel
            </button>
          )}
        </div>
        {live && <JobProgress label={`Progress of the export of ${job.source.name}`} percent={percent(job)} valueText={progressText(job)} detail={progressText(job)} />}
        {job.state === 'done' && job.result && (
          <div className="job-detail muted small">
            {formatCount(job.result.rows)} rows, {formatBytes(job.result.bytes)} as {format}
            {job.finishedAt && job.startedAt ? ` · ${formatDuration((job.finishedAt - job.startedAt) / 1000)}` : ''}
            {job.download ? ' · downloaded' : ''}
          </div>
        )}
        {job.state === 'failed' && job.error && <JobError error={job.error} />}
        {job.state === 'cancelled' && <div className="job-detail muted small">Cancelled; no file was written</div>}
      </li>
    )
  })

  return { active, finished: visible.length - active, items, clear }
}
