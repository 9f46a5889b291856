import { writeOptions } from '../../queries/write'

// An import is a job: its rule (src/renderer/queries/invalidate.ts) puts it in the job list; the table and its
// namespace are made stale when the job is done (`invalidate.imported`). A discarded upload makes nothing stale.
export const startImport = writeOptions('import/start')
export const discardUpload = writeOptions('import/discardUpload')
