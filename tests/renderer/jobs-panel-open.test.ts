import { describe, expect, it } from 'vitest'
import type { JobInfo } from '../../src/contract'
import { choosePanel, followJobs, initialPanelState, type PanelState } from '../../src/renderer/features/jobs/useJobsPanelOpen'

const jobs = (...states: [string, JobInfo['state']][]) => states.map(([id, state]) => ({ id, state }))
/** Each step's jobs in turn, from the panel's first state. */
const through = (start: PanelState, ...steps: ReturnType<typeof jobs>[]) => steps.reduce(followJobs, start)

describe('when the jobs panel is shown', () => {
  it('opens when a job starts and folds away when the run ends', () => {
    const running = through(initialPanelState, jobs(['x1', 'running']))
    expect(running.open).toBe(true)
    expect(followJobs(running, jobs(['x1', 'done'])).open).toBe(false)
  })

  it('stays open after a failed run, so its reason can be read', () => {
    expect(through(initialPanelState, jobs(['x1', 'running']), jobs(['x1', 'failed'])).open).toBe(true)
  })

  it('keeps what the user chose during the run: shown stays shown, hidden stays hidden', () => {
    const hidden = choosePanel(through(initialPanelState, jobs(['x1', 'running'])), false)
    const shown = choosePanel(hidden, true)
    expect(followJobs(shown, jobs(['x1', 'done'])).open).toBe(true)
    expect(followJobs(hidden, jobs(['x1', 'failed'])).open).toBe(false)
  })

  it('a new job opens it again, and the choice of the previous run no longer holds once it ends', () => {
    const hidden = choosePanel(through(initialPanelState, jobs(['x1', 'running'])), false)
    const next = followJobs(hidden, jobs(['x1', 'running'], ['j2', 'queued']))
    expect(next.open).toBe(true)
    expect(followJobs(next, jobs(['x1', 'done'], ['j2', 'done'])).open).toBe(false)
  })

  it('opened by the user after a run stays as the user left it', () => {
    const ended = through(initialPanelState, jobs(['x1', 'running']), jobs(['x1', 'done']))
    const opened = choosePanel(ended, true)
    expect(followJobs(opened, jobs(['x1', 'done'])).open).toBe(true)
  })
})
