export { SummaryPanel } from './SummaryPanel'
export { binPredicate } from './binFilter'
export { HistogramsToggle, useHeaderHistograms } from './HeaderHistograms'
