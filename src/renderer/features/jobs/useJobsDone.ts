import { useEffect, useLayoutEffect, useRef } from 'react'
import type { JobInfo, JobKind } from '../../../contract'
import { useJobList } from './useJobList'

type OfKind<K extends JobKind> = JobInfo extends infer T ? (T extends { kind: infer Of } ? (K extends Of ? T : never) : never) : never

/**
 * Call `onDone` once for each job of `kind` that finishes with `done` from now on (jobs already done when the list
 * was first read are not news): e.g. open the table an import wrote, or hand a download to the browser.
 */
export function useJobsDone<K extends JobKind>(kind: K, onDone: (job: OfKind<K>) => void): void {
  const jobs = useJobList()
  const seen = useRef<Set<string> | null>(null)
  const callback = useRef(onDone)
  useLayoutEffect(() => {
    callback.current = onDone
  })
  useEffect(() => {
    if (!jobs) return
    const done = jobs.filter((j): j is OfKind<K> => j.kind === kind && j.state === 'done')
    if (seen.current === null) {
      seen.current = new Set(done.map((j) => j.id))
      return
    }
    for (const job of done) {
      if (seen.current.has(job.id)) continue
      seen.current.add(job.id)
      callback.current(job)
    }
  }, [jobs, kind])
}
