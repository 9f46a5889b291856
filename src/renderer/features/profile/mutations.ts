import { writeOptions } from '../../queries/write'

// A Summary scan is a job: its rule (src/renderer/queries/invalidate.ts) puts it in the job list.
export const startProfile = writeOptions('profile/start')
