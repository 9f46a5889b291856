import { createContext, useCallback, useContext, useId, useMemo, useState, type ReactNode } from 'react'
import { isLiveJob, type JobInfo, type TableRef } from '../../../contract'
import { useMutation } from '@tanstack/react-query'
import { cancelJob } from './mutations'
import { downloadExport } from './download'
import { JobsIndicator } from './JobsIndicator'
import { JobsPanel } from './JobsPanel'
import { useJobsDone } from './useJobsDone'
import { queuePlaces } from './jobList'
import { useJobList, useJobsFeed } from './useJobList'
import { useJobsPanelOpen } from './useJobsPanelOpen'
import './jobs.css'

interface JobsView {
  /** The jobs the panel shows, oldest first (profiles have their own Summary panel; cleared ones are hidden). */
  shown: readonly JobInfo[]
  /** Each queued job's place in line, counted over every job (the Summary's and the map's too). */
  places: ReadonlyMap<string, number>
  open: boolean
  setOpen(open: boolean): void
  panelId: string
  clear(): void
}

const JobsContext = createContext<JobsView | null>(null)

function useJobsView(): JobsView {
  const view = useContext(JobsContext)
  if (!view) throw new Error('Mount <JobsProvider> above the jobs panel and its indicator')
  return view
}

/**
 * The jobs as the window sees them: the one `jobs/progress` subscription, the list, and the state the panel and
 * its status-bar indicator share (shown or hidden, what was cleared). Finished download exports are handed to the
 * browser here (harness), whatever started them.
 */
export function JobsProvider({ children }: { children: ReactNode }) {
  const list = useJobList()
  useJobsFeed()
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set())
  const shown = useMemo(() => (list ?? []).filter((j) => j.kind !== 'profile' && j.kind !== 'map' && !hidden.has(j.id)), [list, hidden])
  const places = useMemo(() => queuePlaces(list ?? []), [list])
  // The panel opens when a job starts and folds away when the run ends (unless the user chose meanwhile).
  const [open, setOpen] = useJobsPanelOpen(shown)
  const panelId = useId()
  useJobsDone('export', (job) => {
    if (job.download) downloadExport(job.id, job.fileName)
  })
  const clear = useCallback(() => setHidden(new Set((list ?? []).filter((j) => !isLiveJob(j)).map((j) => j.id))), [list])
  const view = useMemo(() => ({ shown, places, open, setOpen, panelId, clear }), [shown, places, open, setOpen, panelId, clear])
  return <JobsContext.Provider value={view}>{children}</JobsContext.Provider>
}

/** The jobs panel, docked under the content while shown. */
export function JobsDock({ onOpenTable }: { onOpenTable(ref: TableRef): void }) {
  const { shown, places, open, setOpen, panelId, clear } = useJobsView()
  const { mutate: cancel } = useMutation(cancelJob)
  if (shown.length === 0 || !open) return null
  // A cancel's failure (the job ended meanwhile) changes nothing to show: its events say how it ended.
  return <JobsPanel id={panelId} jobs={shown} places={places} onHide={() => setOpen(false)} onCancel={(job) => cancel({ jobId: job.id }, { onError: () => undefined })} onOpen={onOpenTable} onClear={clear} />
}

/** The status bar with the jobs' indicator (none until there is a job): a click shows or hides the panel. */
export function JobsStatus() {
  const { shown, open, setOpen, panelId } = useJobsView()
  if (shown.length === 0) return null
  return (
    <footer className="app-status">
      <JobsIndicator jobs={shown} open={open} panelId={panelId} onToggle={() => setOpen(!open)} />
    </footer>
  )
}
