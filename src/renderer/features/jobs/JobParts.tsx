import type { AppErrorData } from '../../../contract'

/**
 * The pieces every job row of the jobs panel shows the same way (imports, exports, index builds): the progress bar
 * with its line of detail, and a failure in words.
 */
export function JobProgress({ label, percent, valueText, detail }: { label: string; percent?: number; valueText: string; detail: string }) {
  const known = percent !== undefined
  return (
    <>
      <div
        className={known ? 'job-bar' : 'job-bar job-bar-indeterminate'}
        role="progressbar"
        aria-label={label}
        {...(known ? { 'aria-valuemin': 0, 'aria-valuemax': 100, 'aria-valuenow': percent } : {})}
        aria-valuetext={valueText}
      >
        <div className="job-bar-fill" style={known ? { width: `${percent}%` } : undefined} />
      </div>
      <div className="job-detail muted small">{detail}</div>
    </>
  )
}

export function JobError({ error }: { error: Pick<AppErrorData, 'message' | 'hint'> }) {
  return (
    <div className="job-detail job-error small">
      {error.message}
      {error.hint && <span className="muted"> {error.hint}</span>}
    </div>
  )
}
