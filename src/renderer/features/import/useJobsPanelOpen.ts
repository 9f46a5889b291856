import { useEffect, useRef, useState } from 'react'
import type { ImportJobInfo } from '../../../contract'

const isActive = (job: ImportJobInfo) => job.state === 'running' || job.state === 'queued'

/**
 * Whether the jobs panel is shown: it opens when an import starts and collapses to the status-bar
 * indicator once nothing runs or waits — unless a job of that run failed, whose reason must be seen.
 * The user can show or hide it at any time; that choice holds until the next import starts.
 */
export function useJobsPanelOpen(jobs: readonly ImportJobInfo[]): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(false)
  const watching = useRef(new Set<string>())
  useEffect(() => {
    const active = jobs.filter(isActive)
    const started = active.some((job) => !watching.current.has(job.id))
    for (const job of active) watching.current.add(job.id)
    if (started) {
      setOpen(true)
      return
    }
    if (active.length > 0 || watching.current.size === 0) return
    // The run just ended: collapse, or stay open on a failure.
    const failed = jobs.some((job) => watching.current.has(job.id) && job.state === 'failed')
    watching.current.clear()
    if (!failed) setOpen(false)
  }, [jobs])
  return [open, setOpen]
}
