import { writeOptions } from '../../queries/write'

// An export is a job: its rule (src/renderer/queries/invalidate.ts) puts it in the job list.
export const startExport = writeOptions('export/start')
