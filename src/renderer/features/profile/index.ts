export { SummaryPanel } from './SummaryPanel'
export { binPredicate } from './binFilter'
