import { useCallback, useEffect, useRef, useState } from 'react'
import type { AppErrorData, ProfileJobInfo, TableRef } from '../../../contract'
import { call, onHostEvent } from '../../api'
import { errorData } from '../../components/ErrorPanel'

export type ProfileState = { state: 'starting' } | { state: 'job'; job: ProfileJobInfo } | { state: 'error'; error: AppErrorData }

type Answer = { key: string } & ({ state: 'job'; job: ProfileJobInfo } | { state: 'error'; error: AppErrorData })

/** Whichever says more: an ended job over a running one, more rows read over fewer. */
function newer(a: ProfileJobInfo, b: ProfileJobInfo | undefined): ProfileJobInfo {
  if (!b || a.finishedAt !== null) return a
  return b.finishedAt !== null || b.progress.rows > a.progress.rows ? b : a
}

/**
 * The profile of one view (version + filter) while the Summary is open: started (or answered from the
 * kept profile) when it opens or the view changes, followed through `jobs/progress` events.
 */
export function useProfile(tableRef: TableRef, version: number | undefined, filter: string | undefined) {
  const [answer, setAnswer] = useState<Answer | null>(null)
  const [attempt, setAttempt] = useState(0)
  const jobId = useRef<string | null>(null)
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version ?? null, filter ?? null, attempt])

  useEffect(() => {
    let live = true
    // Events can arrive before `profile/start` answers: keep the newest per job and apply it once the id is known.
    const latest = new Map<string, ProfileJobInfo>()
    const show = (job: ProfileJobInfo) => setAnswer((previous) => (previous?.key === key && previous.state === 'job' && previous.job.id === job.id ? { key, state: 'job', job: newer(job, previous.job) } : { key, state: 'job', job }))
    const off = onHostEvent('jobs/progress', (job) => {
      if (job.kind !== 'profile') return
      latest.set(job.id, job)
      if (live && job.id === jobId.current) show(job)
    })
    call('profile/start', { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, view: { ...(version !== undefined ? { version } : {}), ...(filter ? { filter } : {}) } })
      .then(async (job) => {
        if (!live) return
        jobId.current = job.id
        show(newer(job, latest.get(job.id)))
        // A job that ended between the answer and the subscription would otherwise look running forever.
        if (job.state === 'running') {
          const now = await call('profile/get', { jobId: job.id })
          if (live) show(now)
        }
      })
      .catch((error: unknown) => {
        if (live) setAnswer({ key, state: 'error', error: errorData(error) })
      })
    return () => {
      live = false
      off()
      // Leaving the view (or closing the Summary) stops its scan: nothing half-done is kept.
      const id = jobId.current
      jobId.current = null
      if (id) void call('jobs/cancel', { jobId: id }).catch(() => undefined)
    }
    // `key` names everything the effect reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const cancel = useCallback(() => {
    const id = jobId.current
    if (id) void call('jobs/cancel', { jobId: id }).catch(() => undefined)
  }, [])
  const retry = useCallback(() => setAttempt((a) => a + 1), [])
  const state: ProfileState = answer && answer.key === key ? (answer.state === 'job' ? { state: 'job', job: answer.job } : { state: 'error', error: answer.error }) : { state: 'starting' }
  return { state, cancel, retry }
}
