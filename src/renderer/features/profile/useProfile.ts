import { useMutation } from '@tanstack/react-query'
import type { AppErrorData, ProfileJobInfo, TableRef } from '../../../contract'
import { useStartedJob } from '../jobs'
import { startProfile } from './mutations'

export type ProfileState = { state: 'starting' } | { state: 'job'; job: ProfileJobInfo } | { state: 'error'; error: AppErrorData }

/**
 * The profile of one view (version + filter + the map's lasso, a row set id) while the Summary is open: started (or answered from the kept
 * profile) when it opens or the view changes, then read from the session's one list of jobs, which the jobs
 * feature keeps current (`jobs/progress`); the job's record carries the profile when it is done.
 */
export function useProfile(tableRef: TableRef, version: number | undefined, filter: string | undefined, rowSet: string | undefined, enabled = true) {
  const key = JSON.stringify([tableRef.connectionId, tableRef.namespace, tableRef.name, version ?? null, filter ?? null, rowSet ?? null])
  const view = { ...(version !== undefined ? { version } : {}), ...(filter ? { filter } : {}), ...(rowSet ? { rowSet } : {}) }
  const { mutateAsync: start } = useMutation(startProfile)
  const { job, error, cancel, retry } = useStartedJob<ProfileJobInfo>(
    key,
    enabled ? () => start( { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name, view }) : null,
  )
  const state: ProfileState = error ? { state: 'error', error } : job ? { state: 'job', job } : { state: 'starting' }
  return { state, cancel, retry }
}
