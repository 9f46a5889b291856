import { useCallback, useEffect, useState, type ReactNode } from 'react'
import type { IndexJobInfo } from '../../../contract'
import { call, onHostEvent } from '../../api'
import { formatDuration } from '../../lib/format'
import type { ExportJobsView } from '../export'
import { upsertJob, JobError, JobProgress } from '../import'

const STATE_LABEL: Record<IndexJobInfo['state'], string> = { running: 'Building index', done: 'Done', failed: 'Failed', cancelled: 'Cancelled' }

/** Seconds since the job started, ticking while any job runs (Lance reports no build progress: elapsed time is all there is). */
function useNow(running: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!running) return
    const t = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(t)
  }, [running])
  return now
}

/**
 * Index builds as the window sees them: `indexes/jobs` kept current by `indexes/progress` events, shown in the
 * jobs panel with an indeterminate bar, elapsed time and Cancel (which takes effect when Lance's build step ends).
 */
export function useIndexJobs(): ExportJobsView {
  const [jobs, setJobs] = useState<IndexJobInfo[]>([])
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set())

  useEffect(() => {
    const upsert = (job: IndexJobInfo, fromEvent: boolean) => setJobs((previous) => upsertJob(previous, job, fromEvent))
    const off = onHostEvent('indexes/progress', (job) => upsert(job, true))
    call('indexes/jobs', {})
      .then((list) => list.forEach((job) => upsert(job, false)))
      .catch(() => undefined)
    return off
  }, [])

  const clear = useCallback(() => setHidden(new Set(jobs.filter((j) => j.state !== 'running').map((j) => j.id))), [jobs])
  const visible = jobs.filter((j) => !hidden.has(j.id))
  const active = visible.filter((j) => j.state === 'running').length
  const now = useNow(active > 0)

  const items = [...visible].reverse().map((job) => {
    const live = job.state === 'running'
    const label = `Index ${job.index.name} on ${job.table.name}`
    const elapsed = formatDuration(Math.max(0, ((job.finishedAt ?? now) - job.startedAt) / 1000))
    const retry = job.attempts && job.attempts > 1 ? ` · attempt ${job.attempts}: another writer committed first` : ''
    const detail = job.cancelling
      ? `Cancelling: stops after the current build step, then the index is removed · ${elapsed}`
      : job.waiting
        ? `${job.waiting} (writes to one table run one at a time)`
        : `${job.index.type} on ${job.index.column} · ${elapsed} (Lance reports no progress for a build)${retry}`
    return (
      <li key={job.id} className={`job job-${job.state}`} aria-label={label}>
        <div className="job-line">
          <span className="job-name" title={`${job.index.type} index ${job.index.name} on ${job.table.name}.${job.index.column}`}>
            {job.index.name} <span className="muted">→ {job.table.name}</span>
          </span>
          <span className={`job-state job-state-${job.state}`}>{job.cancelling && live ? 'Cancelling' : live && job.waiting ? 'Waiting' : STATE_LABEL[job.state]}</span>
          {live && (
            <button type="button" className="button small" disabled={job.cancelling} onClick={() => void call('indexes/cancel', { jobId: job.id }).catch(() => undefined)} aria-label={`Cancel ${label}`}>
              Cancel
            </button>
          )}
        </div>
        {live && <JobProgress label={`Progress of ${label}`} valueText={detail} detail={detail} />}
        {job.state === 'done' && (
          <div className="job-detail muted small">
            {job.index.type} index on {job.index.column} built · {elapsed}
          </div>
        )}
        {job.state === 'failed' && job.error && <JobError error={job.error} />}
        {job.state === 'cancelled' && <div className="job-detail muted small">Cancelled; the table keeps the indexes it had</div>}
      </li>
    )
  })

  return { active, finished: visible.length - active, items, clear }
}

/** Two job lists shown as one `extra` of the jobs panel (exports and index builds). */
export function combineJobViews(a: ExportJobsView, b: ExportJobsView): ExportJobsView {
  return {
    active: a.active + b.active,
    finished: a.finished + b.finished,
    items: (
      <>
        {b.items}
        {a.items}
      </>
    ) as ReactNode,
    clear: () => {
      a.clear()
      b.clear()
    },
  }
}
