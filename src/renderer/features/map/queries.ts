import { queryOptions } from '@tanstack/react-query'
import { tableFromIPC } from 'apache-arrow'
import { call } from '../../api'
import { Points } from './points'

/**
 * A done map job's coordinates, decoded. They never change (staleTime: Infinity) but are large: dropped as soon as
 * no panel shows them (gcTime: 0), so closing the map frees them as it always did.
 */
export function mapCoordsQuery(jobId: string) {
  return queryOptions({
    queryKey: ['map', 'coords', jobId] as const,
    queryFn: async () => {
      // Performance marks split the first paint for the map bench (tests/bench/map.ts): the job is done here.
      performance.mark('map:done')
      const bytes = await call('map/coords', { jobId })
      performance.mark('map:coords')
      // The columns are used where they lie in the bytes (x and y go to the GPU as two buffers): no copy before
      // the first frame. Arrow needs 8-byte-aligned bytes to view them in place.
      const table = tableFromIPC(bytes.byteOffset % 8 === 0 ? bytes : bytes.slice())
      const column = <T>(name: string) => table.getChild(name)!.toArray() as T
      const points = new Points(column<Float32Array>('x'), column<Float32Array>('y'), column<Uint32Array>('row'))
      performance.mark('map:points')
      return points
    },
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  })
}
