// Exports: the export sheet and its jobs.
export { ExportSheet } from './ExportSheet'
export { useExportJobs, type ExportJobsView } from './useExportJobs'
