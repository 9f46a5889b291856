import { useCallback, useState } from 'react'
import { isLiveJob as isActive, type JobInfo } from '../../../contract'

type Followed = Pick<JobInfo, 'id' | 'state'>

export interface PanelState {
  open: boolean
  /** Jobs of the current run (active since the panel last opened by itself). */
  run: ReadonlySet<string>
  /** The user showed or hid the panel during this run: the end of the run keeps that choice. */
  chosen: boolean
  /** The jobs this state was computed for. */
  jobs: readonly Followed[]
}

export const initialPanelState: PanelState = { open: false, run: new Set(), chosen: false, jobs: [] }

/** The panel's state after the jobs changed: opens when a job starts, collapses when the run ends. */
export function followJobs(previous: PanelState, jobs: readonly Followed[]): PanelState {
  const active = jobs.filter(isActive)
  if (active.some((job) => !previous.run.has(job.id))) return { open: true, run: new Set([...previous.run, ...active.map((job) => job.id)]), chosen: false, jobs }
  if (active.length > 0 || previous.run.size === 0) return { ...previous, jobs }
  // The run just ended: collapse to the indicator, unless the user chose during the run or one of its jobs failed
  // (its reason must be seen).
  const failed = jobs.some((job) => previous.run.has(job.id) && job.state === 'failed')
  return { open: previous.chosen || failed ? previous.open : false, run: new Set(), chosen: false, jobs }
}

/** The user showed or hid the panel: that holds until the next job starts. */
export function choosePanel(previous: PanelState, open: boolean): PanelState {
  return { ...previous, open, chosen: previous.run.size > 0 }
}

/**
 * Whether the jobs panel is shown: it opens when a job starts (an import, an export, an index build, a comparison)
 * and collapses to the status-bar indicator once nothing runs or waits — unless a job of that run failed, or the
 * user showed or hid it meanwhile. The user can show or hide it at any time; that choice holds until the next job
 * starts. Computed while rendering (not in an effect), so no frame ever shows a finished run with the panel still
 * open.
 */
export function useJobsPanelOpen(jobs: readonly Followed[]): [boolean, (open: boolean) => void] {
  const [state, setState] = useState<PanelState>(() => followJobs(initialPanelState, jobs))
  let current = state
  if (state.jobs !== jobs) {
    current = followJobs(state, jobs)
    setState(current)
  }
  const setOpen = useCallback((open: boolean) => setState((previous) => choosePanel(previous, open)), [])
  return [current.open, setOpen]
}
