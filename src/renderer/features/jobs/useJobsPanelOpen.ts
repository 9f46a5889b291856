import { useCallback, useState } from 'react'
import { isLiveJob as isActive, type JobInfo } from '../../../contract'

type Followed = Pick<JobInfo, 'id' | 'state'>

interface PanelState {
  open: boolean
  /** Jobs of the current run (active since the panel last opened by itself). */
  run: ReadonlySet<string>
  /** The jobs this state was computed for. */
  jobs: readonly Followed[]
}

/** The panel's state after the jobs changed: opens when an import starts, collapses when the run ends. */
function follow(previous: PanelState, jobs: readonly Followed[]): PanelState {
  const active = jobs.filter(isActive)
  if (active.some((job) => !previous.run.has(job.id))) return { open: true, run: new Set([...previous.run, ...active.map((job) => job.id)]), jobs }
  if (active.length > 0 || previous.run.size === 0) return { ...previous, jobs }
  // The run just ended: collapse to the indicator, unless one of its jobs failed (its reason must be seen).
  const failed = jobs.some((job) => previous.run.has(job.id) && job.state === 'failed')
  return { open: failed ? previous.open : false, run: new Set(), jobs }
}

/**
 * Whether the jobs panel is shown: it opens when an import starts and collapses to the status-bar
 * indicator once nothing runs or waits — unless a job of that run failed. The user can show or hide it
 * at any time; that choice holds until the next import starts. Computed while rendering (not in an
 * effect), so no frame ever shows a finished run with the panel still open.
 */
export function useJobsPanelOpen(jobs: readonly Followed[]): [boolean, (open: boolean) => void] {
  const [state, setState] = useState<PanelState>(() => follow({ open: false, run: new Set(), jobs: [] }, jobs))
  let current = state
  if (state.jobs !== jobs) {
    current = follow(state, jobs)
    setState(current)
  }
  const setOpen = useCallback((open: boolean) => setState((previous) => ({ ...previous, open })), [])
  return [current.open, setOpen]
}
