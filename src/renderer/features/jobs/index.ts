/** Jobs: every long-running job of the session (imports, exports, index builds, recovery notes) in one panel. */
export { JobsProvider, JobsDock, JobsStatus } from './Jobs'
export { addJob, useJobList, jobsQueryKey } from './useJobList'
export { useJobsDone } from './useJobsDone'
export { useStartedJob, type StartedJob } from './useStartedJob'
export { ScanProgress } from './ScanProgress'
export { cancelJob } from './mutations'
