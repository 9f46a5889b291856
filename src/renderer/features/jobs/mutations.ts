import { writeOptions } from '../../queries/write'

// Cancelling a job: its record changes through its `jobs/progress` events (the rule in queries/invalidate.ts).
export const cancelJob = writeOptions('jobs/cancel')
