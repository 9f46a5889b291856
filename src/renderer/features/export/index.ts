// Exports: the export sheet and its jobs.
export { ExportSheet } from './ExportSheet'
