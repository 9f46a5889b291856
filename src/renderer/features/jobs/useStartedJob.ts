import { useMutation } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import type { AppErrorData, JobInfo } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { cancelJob } from './mutations'
import { useJobList } from './useJobList'

type Started = { key: string } & ({ jobId: string } | { error: AppErrorData })

export interface StartedJob<J extends JobInfo> {
  /** The job as the session's job list has it now (null until started, or when starting failed). */
  job: J | null
  /** Why it could not be started. */
  error: AppErrorData | null
  cancel: () => void
  /** Start it again (after an error or a cancel). */
  retry: () => void
}

/**
 * A job a panel starts for what it shows (a Summary scan, an embedding map): started when `key` changes (and
 * `start` is given), followed through the session's one job list, and cancelled when the panel leaves it — its
 * answer is not wanted any more, and a cancelled scan keeps nothing. `key` must name everything `start` reads.
 * `start` is the mutation of a start method (its rule puts the job in the session's job list).
 */
export function useStartedJob<J extends JobInfo>(key: string, start: (() => Promise<J>) | null): StartedJob<J> {
  const { mutate: cancelWrite } = useMutation(cancelJob)
  // A cancel's failure (the job ended meanwhile) changes nothing to show.
  const cancelById = useCallback((id: string) => cancelWrite({ jobId: id }, { onError: () => undefined }), [cancelWrite])
  const jobs = useJobList()
  const [started, setStarted] = useState<Started | null>(null)
  const [attempt, setAttempt] = useState(0)
  const runKey = JSON.stringify([key, attempt, !!start])

  useEffect(() => {
    if (!start) return
    let live = true
    let jobId: string | null = null
    start()
      .then((job) => {
        jobId = job.id
        // Left before the answer came: its scan is not wanted any more.
        if (!live) return cancelById(job.id)
        setStarted({ key: runKey, jobId: job.id })
      })
      .catch((error: unknown) => {
        if (live) setStarted({ key: runKey, error: errorData(error) })
      })
    return () => {
      live = false
      if (jobId) cancelById(jobId)
    }
    // `runKey` names everything the effect reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runKey])

  const current = started?.key === runKey ? started : null
  const jobId = current && 'jobId' in current ? current.jobId : null
  const job = jobId ? ((jobs?.find((j) => j.id === jobId) as J | undefined) ?? null) : null
  const cancel = useCallback(() => {
    if (jobId) cancelById(jobId)
  }, [jobId, cancelById])
  const retry = useCallback(() => setAttempt((a) => a + 1), [])
  return { job, error: current && 'error' in current ? current.error : null, cancel, retry }
}
