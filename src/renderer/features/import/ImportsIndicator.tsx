import type { ImportJobInfo } from '../../../contract'
import { ChevronIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'

export interface ImportsIndicatorProps {
  jobs: readonly ImportJobInfo[]
  /** Export jobs running in the same panel. */
  exporting?: number
  /** Export jobs that ended (done, failed or cancelled) and are still listed in the panel. */
  exported?: number
  open: boolean
  panelId: string
  onToggle(): void
}

/** The status-bar line for imports: what runs, or what happened; a click shows or hides the jobs panel. */
export function ImportsIndicator({ jobs, exporting = 0, exported = 0, open, panelId, onToggle }: ImportsIndicatorProps) {
  const count = (state: ImportJobInfo['state']) => jobs.filter((j) => j.state === state).length
  const importing = count('running') + count('queued')
  const active = importing + exporting
  const parts =
    active > 0
      ? [importing > 0 && `${importing} importing`, exporting > 0 && `${exporting} exporting`].filter((part): part is string => typeof part === 'string')
      : [count('done') > 0 && `${count('done')} done`, count('failed') > 0 && `${count('failed')} failed`, count('cancelled') > 0 && `${count('cancelled')} cancelled`, exported > 0 && `${exported} export${exported === 1 ? '' : 's'}`].filter(
          (part): part is string => typeof part === 'string',
        )
  const failed = active === 0 && count('failed') > 0
  return (
    <button
      type="button"
      className={`imports-indicator${failed ? ' failed' : ''}`}
      aria-expanded={open}
      aria-controls={open ? panelId : undefined}
      aria-label={`Imports: ${parts.join(', ')}`}
      title={open ? 'Hide the imports' : 'Show the imports'}
      onClick={onToggle}
    >
      {active > 0 ? <Spinner label={importing > 0 ? 'Importing' : 'Exporting'} /> : <span className={failed ? 'imports-dot failed' : 'imports-dot'} aria-hidden="true" />}
      <span className="imports-label">Imports</span>
      <span className="imports-summary">{parts.join(' · ')}</span>
      <ChevronIcon expanded={false} className={open ? 'imports-chevron down' : 'imports-chevron up'} />
    </button>
  )
}
