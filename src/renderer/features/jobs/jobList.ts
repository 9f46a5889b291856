import type { JobInfo } from '../../../contract'

// Kept with the job list's cache key (src/renderer/queries/jobs.ts): a started job joins the list there.
export { upsertJob } from '../../queries/jobs'

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
