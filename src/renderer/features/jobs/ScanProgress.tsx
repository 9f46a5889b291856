import type { JobState } from '../../../contract'
import { Spinner } from '../../components/Spinner'
import { formatCount } from '../../lib/format'

interface Props {
  /** The scan job as it is now; null while it is being started. */
  job: { state: JobState; progress: { rows: number; totalRows: number | null }; queueReason?: string } | null
  /** The status line's name ("Summary progress"). */
  label: string
  /** What the scan does with rows, as a verb ("Reading", "Placing"). */
  verb: string
  /** Words for the running job's step instead of "{verb} n of m rows" (a UMAP map's "Fitting UMAP: epoch 3 of 200"). */
  text?: string | null
  className: string
  onCancel: () => void
  onRetry: () => void
}

/** A panel's scan while it waits (queued, and why), runs (rows so far, of how many, with Cancel) and after a cancel (with Run again). */
export function ScanProgress({ job, label, verb, text, className, onCancel, onRetry }: Props) {
  if (job?.state === 'queued') {
    return (
      <div className={className} role="status" aria-label={label}>
        <Spinner label="Queued" />
        <span>Queued: {job.queueReason ?? 'waiting for a free slot'}…</span>
        <button type="button" className="button small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    )
  }
  if (!job || job.state === 'running') {
    const { rows, totalRows } = job?.progress ?? { rows: 0, totalRows: null }
    return (
      <div className={className} role="status" aria-label={label}>
        <Spinner label={`${verb} rows`} />
        <span>{text ? `${text}…` : `${verb} ${job ? `${formatCount(rows)}${totalRows !== null ? ` of ${formatCount(totalRows)}` : ''} rows` : 'rows'}…`}</span>
        <button type="button" className="button small" onClick={onCancel} disabled={!job}>
          Cancel
        </button>
      </div>
    )
  }
  if (job.state === 'cancelled') {
    return (
      <div className={className} role="status" aria-label={label}>
        <span>Cancelled — nothing was kept.</span>
        <button type="button" className="button small" onClick={onRetry}>
          Run again
        </button>
      </div>
    )
  }
  return null
}
