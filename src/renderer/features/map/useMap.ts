import { useMutation, useQuery } from '@tanstack/react-query'
import type { MapJobInfo, MapMethod, TableRef } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { useStartedJob } from '../jobs'
import { startMap } from './mutations'
import { mapCoordsQuery } from './queries'

/**
 * The map of one vector column at one version while the panel is open: started (or answered from the side cache)
 * when it opens, followed through the session's job list, and its coordinates fetched once the job is done.
 * Closing the panel cancels a running job (a cancelled job keeps nothing).
 */
export function useMap(tableRef: TableRef, version: number, column: string, method: MapMethod = 'pca', sample?: number) {
  // The sample size matters only to UMAP: a PCA map is the same job whatever the UMAP field says.
  const umapSample = method === 'umap' ? sample : undefined
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version, column, method, umapSample])
  const { mutateAsync: start } = useMutation(startMap)
  const started = useStartedJob<MapJobInfo>(key, () => {
    // Performance marks split the first paint for the map bench (tests/bench/map.ts).
    performance.mark('map:start')
    return start({ connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, version, column, ...(method === 'umap' ? { method, sample: umapSample } : {}) })
  })
  const { job, cancel, retry } = started
  const done = job?.state === 'done' ? job.id : null
  const coords = useQuery({ ...mapCoordsQuery(done ?? ''), enabled: done !== null })

  const error = started.error ?? (done && coords.error ? errorData(coords.error) : null)
  const ready = done && coords.data ? coords.data : null
  return { job: job ?? null, error, points: ready, cancel, retry }
}
