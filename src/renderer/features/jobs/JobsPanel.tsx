import { isLiveJob, type JobInfo, type TableRef } from '../../../contract'
import { CloseIcon } from '../../components/Icons'
import { ExportJobRow, ImportJobRow, IndexJobRow, DiffJobRow, useNow } from './rows'

export interface JobsPanelProps {
  id?: string
  /** The jobs shown, oldest first (listed newest first). */
  jobs: readonly JobInfo[]
  /** Each queued job's place in line (jobs queued before it, of every kind: `queuePlaces` of the whole list). */
  places?: ReadonlyMap<string, number>
  /** Collapse to the status-bar indicator. */
  onHide(): void
  onCancel(job: JobInfo): void
  /** Open the table an import wrote. */
  onOpen(ref: TableRef): void
  onClear(): void
}

/** Imports alone are "Imports"; with exports or index builds it is "Jobs". */
export const onlyImports = (jobs: readonly JobInfo[]) => jobs.every((j) => j.kind === 'import' || j.kind === 'recovery')

/**
 * The session's jobs: what runs and waits (progress, Cancel) and what happened (done, failed with the
 * reason, cancelled). Docked under the content (it takes room, never covers it); the status-bar
 * indicator shows and hides it.
 */
export function JobsPanel({ id, jobs, places, onHide, onCancel, onOpen, onClear }: JobsPanelProps) {
  const active = jobs.filter(isLiveJob).length
  const queued = jobs.filter((j) => j.state === 'queued').length
  const finished = jobs.length - active
  const imports = onlyImports(jobs)
  const now = useNow(jobs.some((j) => j.kind === 'index' && j.state === 'running'))
  return (
    <section id={id} className="jobs-panel open" role="region" aria-label={imports ? 'Import jobs' : 'Jobs'}>
      <header className="jobs-header">
        <span className="jobs-title">{imports ? 'Imports' : 'Jobs'}</span>
        <span className="muted small jobs-summary">{active > 0 ? [active > queued && `${active - queued} in progress`, queued > 0 && `${queued} queued`].filter(Boolean).join(', ') : `${finished} finished`}</span>
        {finished > 0 && (
          <button type="button" className="link-button small" onClick={onClear}>
            Clear finished
          </button>
        )}
        <button type="button" className="icon-button" aria-label={imports ? 'Hide the imports' : 'Hide the jobs'} title="Hide (the status bar keeps the count)" onClick={onHide}>
          <CloseIcon />
        </button>
      </header>
      <ul className="jobs-list">
        {[...jobs].reverse().map((job) => {
          const cancel = () => onCancel(job)
          const place = places?.get(job.id)
          switch (job.kind) {
            case 'import':
            case 'recovery':
              return <ImportJobRow key={job.id} job={job} place={place} onCancel={cancel} onOpen={onOpen} />
            case 'export':
              return <ExportJobRow key={job.id} job={job} place={place} onCancel={cancel} />
            case 'index':
              return <IndexJobRow key={job.id} job={job} now={now} place={place} onCancel={cancel} />
            case 'diff':
              return <DiffJobRow key={job.id} job={job} place={place} onCancel={cancel} />
            default:
              return null
          }
        })}
      </ul>
    </section>
  )
}
