import { tableFromIPC } from 'apache-arrow'
import { useEffect, useState } from 'react'
import type { AppErrorData, MapJobInfo, MapMethod, TableRef } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { useStartedJob } from '../jobs'
import { Points } from './points'

/**
 * The map of one vector column at one version while the panel is open: started (or answered from the side cache)
 * when it opens, followed through the session's job list, and its coordinates fetched once the job is done.
 * Closing the panel cancels a running job (a cancelled job keeps nothing).
 */
export function useMap(tableRef: TableRef, version: number, column: string, method: MapMethod = 'pca', sample?: number) {
  // The sample size matters only to UMAP: a PCA map is the same job whatever the UMAP field says.
  const umapSample = method === 'umap' ? sample : undefined
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version, column, method, umapSample])
  const started = useStartedJob<MapJobInfo>(key, () =>
    call('map/start', { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, version, column, ...(method === 'umap' ? { method, sample: umapSample } : {}) }),
  )
  const { job, cancel, retry } = started
  const [points, setPoints] = useState<{ jobId: string; points: Points } | { jobId: string; error: AppErrorData } | null>(null)
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

  const error = started.error ?? (points && 'error' in points && points.jobId === done ? points.error : null)
  const ready = points && 'points' in points && points.jobId === done ? points.points : null
  return { job: job ?? null, error, points: ready, cancel, retry }
}
