import { z } from 'zod'
import type { ExportJobInfo } from './export'
import type { ImportJobInfo } from './import'
import type { IndexJobInfo } from './indexJobs'
import type { MapJobInfo } from './map'
import type { ProfileJobInfo } from './profile'
import type { DiffJobInfo } from './diff'

/**
 * Long work as jobs, one family for every kind: each kind has its own start method (`import/start`,
 * `export/start`, `indexes/start`, `profile/start`, `map/start`; recovery notes are added when a catalog opens), and all of
 * them are listed by `jobs/list`, cancelled by `jobs/cancel` and followed through one `jobs/progress` event that
 * carries the job's record, told apart by `kind`.
 */
export type JobInfo = ImportJobInfo | ExportJobInfo | IndexJobInfo | ProfileJobInfo | DiffJobInfo | MapJobInfo
export type JobKind = JobInfo['kind']

/** Any job's id; its first letter names its kind (j import, x export, i index, p profile, d diff, m map, r recovery). */
export const jobIdSchema = z.string().regex(/^[jxiprdm][A-Za-z0-9_-]{1,64}$/, 'must be a job id')

/** Still queued or running (a Cancel can still change it). */
export function isLiveJob(job: Pick<JobInfo, 'state'>): boolean {
  return job.state === 'queued' || job.state === 'running'
}
