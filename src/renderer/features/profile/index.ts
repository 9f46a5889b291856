export { SummaryPanel } from './SummaryPanel'
export { binPredicate } from './binFilter'
export { useHeaderHistograms } from './HeaderHistograms'
