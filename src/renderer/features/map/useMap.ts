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
  const started = useStartedJob<MapJobInfo>(key, () => {
    // Performance marks split the first paint for the map bench (tests/bench/map.ts).
    performance.mark('map:start')
    return call('map/start', { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, version, column, ...(method === 'umap' ? { method, sample: umapSample } : {}) })
  })
  const { job, cancel, retry } = started
  const [points, setPoints] = useState<{ jobId: string; points: Points } | { jobId: string; error: AppErrorData } | null>(null)
  const done = job?.state === 'done' ? job.id : null

  useEffect(() => {
    if (!done) return
    let live = true
    performance.mark('map:done')
    call('map/coords', { jobId: done })
      .then((bytes) => {
        performance.mark('map:coords')
        // The columns are used where they lie in the bytes (x and y go to the GPU as two buffers): no copy before
        // the first frame. Arrow needs 8-byte-aligned bytes to view them in place.
        const table = tableFromIPC(bytes.byteOffset % 8 === 0 ? bytes : bytes.slice())
        const column = <T>(name: string) => table.getChild(name)!.toArray() as T
        if (!live) return
        setPoints({ jobId: done, points: new Points(column<Float32Array>('x'), column<Float32Array>('y'), column<Uint32Array>('row')) })
        performance.mark('map:points')
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
