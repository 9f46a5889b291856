import { isLiveJob, type JobInfo } from '../../../contract'
import { ChevronIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { onlyImports } from './JobsPanel'

export interface JobsIndicatorProps {
  /** The jobs the panel shows. */
  jobs: readonly JobInfo[]
  open: boolean
  panelId: string
  onToggle(): void
}

const plural = (n: number) => (n === 1 ? 'job' : 'jobs')

/** The status-bar line for the jobs: what runs, or what happened; a click shows or hides the jobs panel. */
export function JobsIndicator({ jobs, open, panelId, onToggle }: JobsIndicatorProps) {
  const imports = jobs.filter((j) => j.kind === 'import' || j.kind === 'recovery')
  const others = jobs.filter((j) => j.kind !== 'import' && j.kind !== 'recovery')
  const count = (state: JobInfo['state']) => imports.filter((j) => j.state === state).length
  const importing = imports.filter(isLiveJob).length
  const otherLive = others.filter(isLiveJob).length
  const otherQueued = others.filter((j) => j.state === 'queued').length
  const otherRunning = otherLive - otherQueued
  const otherEnded = others.length - otherLive
  const active = importing + otherLive
  const parts = (
    active > 0
      ? [importing > 0 && `${importing} importing`, otherRunning > 0 && `${otherRunning} other ${plural(otherRunning)} running`, otherQueued > 0 && `${otherQueued} queued`]
      : [count('done') > 0 && `${count('done')} done`, count('failed') > 0 && `${count('failed')} failed`, count('cancelled') > 0 && `${count('cancelled')} cancelled`, otherEnded > 0 && `${otherEnded} other ${plural(otherEnded)} ended`]
  ).filter((part): part is string => typeof part === 'string')
  const failed = active === 0 && count('failed') > 0
  const title = onlyImports(jobs) ? 'Imports' : 'Jobs'
  return (
    <button
      type="button"
      className={`imports-indicator${failed ? ' failed' : ''}`}
      aria-expanded={open}
      aria-controls={open ? panelId : undefined}
      aria-label={`${title}: ${parts.join(', ')}`}
      title={open ? `Hide the ${title.toLowerCase()}` : `Show the ${title.toLowerCase()}`}
      onClick={onToggle}
    >
      {active > 0 ? <Spinner label={importing > 0 ? 'Importing' : 'Working'} /> : <span className={failed ? 'imports-dot failed' : 'imports-dot'} aria-hidden="true" />}
      <span className="imports-label">{title}</span>
      <span className="imports-summary">{parts.join(' · ')}</span>
      <ChevronIcon expanded={false} className={open ? 'imports-chevron down' : 'imports-chevron up'} />
    </button>
  )
}
