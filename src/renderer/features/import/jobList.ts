/**
 * A job list after `job` arrived: new jobs are appended; a known one is replaced only by an event, since an
 * event may overtake the answer of the call that listed or started the job (never go back to an older state).
 */
export function upsertJob<T extends { id: string }>(previous: T[], job: T, fromEvent: boolean): T[] {
  const at = previous.findIndex((j) => j.id === job.id)
  if (at < 0) return [...previous, job]
  if (!fromEvent) return previous
  const next = [...previous]
  next[at] = job
  return next
}
