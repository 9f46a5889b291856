import { useQueryClient } from '@tanstack/react-query'
import { tableFromIPC } from 'apache-arrow'
import { useCallback, useEffect, useState } from 'react'
import type { AppErrorData, MapJobInfo, TableRef } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { addJob, useJobList } from '../jobs'
import { Points } from './points'

type Started = { key: string } & ({ jobId: string } | { error: AppErrorData })

/**
 * The map of one vector column at one version while the panel is open: started (or answered from the side cache)
 * when it opens, followed through the session's job list, and its coordinates fetched once the job is done.
 * Closing the panel cancels a running job (a cancelled job keeps nothing).
 */
export function useMap(tableRef: TableRef, version: number, column: string) {
  const client = useQueryClient()
  const jobs = useJobList()
  const [started, setStarted] = useState<Started | null>(null)
  const [attempt, setAttempt] = useState(0)
  const [points, setPoints] = useState<{ jobId: string; points: Points } | { jobId: string; error: AppErrorData } | null>(null)
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version, column, attempt])

  useEffect(() => {
    let live = true
    let jobId: string | null = null
    call('map/start', { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, version, column })
      .then((job) => {
        jobId = job.id
        if (!live) return void call('jobs/cancel', { jobId: job.id }).catch(() => undefined)
        addJob(client, job)
        setStarted({ key, jobId: job.id })
      })
      .catch((error: unknown) => {
        if (live) setStarted({ key, error: errorData(error) })
      })
    return () => {
      live = false
      if (jobId) void call('jobs/cancel', { jobId }).catch(() => undefined)
    }
    // `key` names everything the effect reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  const current = started?.key === key ? started : null
  const jobId = current && 'jobId' in current ? current.jobId : null
  const job = jobId ? (jobs?.find((j) => j.id === jobId) as MapJobInfo | undefined) : undefined
  const done = job?.state === 'done' ? job.id : null

  useEffect(() => {
    if (!done) return
    let live = true
    call('map/coords', { jobId: done })
      .then((bytes) => {
        const table = tableFromIPC(bytes.byteOffset % 8 === 0 ? bytes : bytes.slice())
        const x = table.getChild('x')!.toArray() as Float32Array
        const y = table.getChild('y')!.toArray() as Float32Array
        const xy = new Float32Array(x.length * 2)
        for (let i = 0; i < x.length; i++) {
          xy[i * 2] = x[i]!
          xy[i * 2 + 1] = y[i]!
        }
        if (live) setPoints({ jobId: done, points: new Points(xy, Uint32Array.from(table.getChild('row')!.toArray() as Uint32Array)) })
      })
      .catch((error: unknown) => {
        if (live) setPoints({ jobId: done, error: errorData(error) })
      })
    return () => {
      live = false
    }
  }, [done])

  const cancel = useCallback(() => {
    if (jobId) void call('jobs/cancel', { jobId }).catch(() => undefined)
  }, [jobId])
  const retry = useCallback(() => setAttempt((a) => a + 1), [])
  const error = current && 'error' in current ? current.error : points && 'error' in points && points.jobId === done ? points.error : null
  const ready = points && 'points' in points && points.jobId === done ? points.points : null
  return { job: job ?? null, error, points: ready, cancel, retry }
}
