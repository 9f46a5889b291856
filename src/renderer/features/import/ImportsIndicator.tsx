import type { ImportJobInfo } from '../../../contract'
import { ChevronIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'

export interface ImportsIndicatorProps {
  jobs: readonly ImportJobInfo[]
  /** Other jobs (exports, index builds) running in the same panel. */
  exporting?: number
  /** Other jobs of the same panel that have ended. */
  otherFinished?: number
  open: boolean
  panelId: string
  onToggle(): void
}

/** The status-bar line for imports: what runs, or what happened; a click shows or hides the jobs panel. */
export function ImportsIndicator({ jobs, exporting = 0, otherFinished = 0, open, panelId, onToggle }: ImportsIndicatorProps) {
  const count = (state: ImportJobInfo['state']) => jobs.filter((j) => j.state === state).length
  const importing = count('running') + count('queued')
  const active = importing + exporting
  const parts =
    active > 0
      ? [importing > 0 && `${importing} importing`, exporting > 0 && `${exporting} other ${exporting === 1 ? 'job' : 'jobs'} running`].filter((part): part is string => typeof part === 'string')
      : [count('done') > 0 && `${count('done')} done`, count('failed') > 0 && `${count('failed')} failed`, count('cancelled') > 0 && `${count('cancelled')} cancelled`, otherFinished > 0 && `${otherFinished} other ${otherFinished === 1 ? 'job' : 'jobs'} ended`].filter(
          (part): part is string => typeof part === 'string',
        )
  const failed = active === 0 && count('failed') > 0
  // With other jobs (exports, index builds) in the panel it is more than imports.
  const title = exporting + otherFinished > 0 ? 'Jobs' : 'Imports'
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
