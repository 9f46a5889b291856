import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { AppErrorData, ProfileJobInfo, TableRef } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { addJob, useJobList } from '../jobs'

export type ProfileState = { state: 'starting' } | { state: 'job'; job: ProfileJobInfo } | { state: 'error'; error: AppErrorData }

type Started = { key: string } & ({ jobId: string } | { error: AppErrorData })

/**
 * The profile of one view (version + filter) while the Summary is open: started (or answered from the kept
 * profile) when it opens or the view changes, then read from the session's one list of jobs, which the jobs
 * feature keeps current (`jobs/progress`); the job's record carries the profile when it is done.
 */
export function useProfile(tableRef: TableRef, version: number | undefined, filter: string | undefined, enabled = true) {
  const client = useQueryClient()
  const jobs = useJobList()
  const [started, setStarted] = useState<Started | null>(null)
  const [attempt, setAttempt] = useState(0)
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version ?? null, filter ?? null, attempt, enabled])

  useEffect(() => {
    if (!enabled) return
    let live = true
    let jobId: string | null = null
    const view = { ...(version !== undefined ? { version } : {}), ...(filter ? { filter } : {}) }
    call('profile/start', { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, view })
      .then((job) => {
        jobId = job.id
        // Left before the answer came: its scan is not wanted any more.
        if (!live) return void call('jobs/cancel', { jobId: job.id }).catch(() => undefined)
        addJob(client, job)
        setStarted({ key, jobId: job.id })
      })
      .catch((error: unknown) => {
        if (live) setStarted({ key, error: errorData(error) })
      })
    return () => {
      live = false
      // Leaving the view (or closing the Summary) stops its scan: nothing half-done is kept.
      if (jobId) void call('jobs/cancel', { jobId }).catch(() => undefined)
    }
    // `key` names everything the effect reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const current = started?.key === key ? started : null
  const jobId = current && 'jobId' in current ? current.jobId : null
  const job = jobId ? (jobs?.find((j) => j.id === jobId) as ProfileJobInfo | undefined) : undefined
  const cancel = useCallback(() => {
    if (jobId) void call('jobs/cancel', { jobId }).catch(() => undefined)
  }, [jobId])
  const retry = useCallback(() => setAttempt((a) => a + 1), [])
  const state: ProfileState = current && 'error' in current ? { state: 'error', error: current.error } : job ? { state: 'job', job } : { state: 'starting' }
  return { state, cancel, retry }
}
