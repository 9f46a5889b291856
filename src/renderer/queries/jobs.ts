import type { QueryClient } from '@tanstack/react-query'
import type { JobInfo } from '../../contract'
import { keys } from './keys'

/**
 * A job list after `job` arrived: new jobs are appended; a known one is replaced only by an event, since an
 * event may overtake the answer of the call that listed or started the job (never go back to an older state).
 * A job ends once: a record of it still running never replaces one of it ended (events are snapshots, and a
 * late one must not bring a finished job back to life).
 */
export function upsertJob<T extends { id: string; state: string }>(previous: T[], job: T, fromEvent: boolean): T[] {
  const at = previous.findIndex((j) => j.id === job.id)
  if (at < 0) return [...previous, job]
  if (!fromEvent) return previous
  if (previous[at]!.state !== 'running' && previous[at]!.state !== 'queued' && (job.state === 'running' || job.state === 'queued')) return previous
  const next = [...previous]
  next[at] = job
  return next
}

/** Put a job into the cached list (the answer of a start method); an event about it may already have come: that one wins. */
export function addJob(client: QueryClient, job: JobInfo): void {
  client.setQueryData<JobInfo[]>(keys.jobs, (previous) => upsertJob(previous ?? [], job, false))
}
