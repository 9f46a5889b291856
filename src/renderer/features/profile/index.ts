export { SummaryPanel } from './SummaryPanel'
export { binPredicate } from './binFilter'
export { headerHistogramsStrip } from './HeaderHistograms'
