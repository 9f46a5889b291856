import type { JobInfo } from '../../../contract'

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

/**
 * Each queued job's place in line: how many jobs (of any kind, the Summary's and the map's included) were queued
 * before it, in start order (the list's order). The host starts them in that order, except that a job whose kind is
 * at its own limit lets a later one of another kind pass: so "3 before it" is what waits ahead, not a promise.
 */
export function queuePlaces(jobs: readonly { id: string; state: string }[]): Map<string, number> {
  const places = new Map<string, number>()
  for (const job of jobs) if (job.state === 'queued') places.set(job.id, places.size)
  return places
}

/**
 * The answer of `jobs/list` merged with what events already brought: a job known from an event keeps that
 * (newer) record; jobs only the events know about (started after the list was read) follow, in arrival order.
 */
export function mergeListed(listed: readonly JobInfo[], known: readonly JobInfo[]): JobInfo[] {
  const byId = new Map(known.map((j) => [j.id, j]))
  const merged = listed.map((j) => byId.get(j.id) ?? j)
  const listedIds = new Set(listed.map((j) => j.id))
  return [...merged, ...known.filter((j) => !listedIds.has(j.id))]
}
