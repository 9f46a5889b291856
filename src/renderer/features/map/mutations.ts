import { writeOptions } from '../../queries/write'

// An embedding map is a job: its rule (src/renderer/queries/invalidate.ts) puts it in the job list.
export const startMap = writeOptions('map/start')
