/** Import: files (Arrow IPC file/stream, Parquet, CSV, JSON lines) streamed into Lance tables. */
export { ImportModule, type ImportModuleDeps } from './module'
export { ImportJobs, type ImportJobSpec } from './jobs'
export { UploadStore, type StagedUpload } from './uploads'
export { openSource } from './open'
export { sniffBytes, sniffFile, FORMAT_LABELS, type ImportFormat } from './sniff'
export { previewImport, previewSample, suggestTableName, PREVIEW_ROWS } from './preview'
export { writeSource, type WriteOptions, type WriteResult } from './write'
export type { BatchSource } from './source'
