import { useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { JobInfo } from '../../../contract'
import { call, onHostEvent } from '../../api'
import { mergeListed, upsertJob } from './jobList'
import { keys } from '../../queries/keys'
import { addJob } from '../../queries/jobs'

/** Every job of the session (`jobs/list`), kept current by `jobs/progress` events. */
export const jobsQueryKey = keys.jobs
export { addJob }

/**
 * The session's jobs of every kind, oldest first (undefined until the first answer). Kept current by the one
 * `jobs/progress` subscription, {@link useJobsFeed}, which the jobs feature mounts once.
 */
export function useJobList(): readonly JobInfo[] | undefined {
  const client = useQueryClient()
  return useQuery({
    queryKey: jobsQueryKey,
    queryFn: async () => mergeListed(await call('jobs/list', {}), client.getQueryData<JobInfo[]>(jobsQueryKey) ?? []),
    staleTime: Infinity,
  }).data
}

/** The one subscription to `jobs/progress`: each event replaces its job's record in the cached list. */
export function useJobsFeed(): void {
  const client = useQueryClient()
  useEffect(() => onHostEvent('jobs/progress', (job) => client.setQueryData<JobInfo[]>(jobsQueryKey, (previous) => upsertJob(previous ?? [], job, true))), [client])
}
