/** The embedding map of a vector column (src/core/map): the panel beside the grid. */
export { MapPanel } from './MapPanel'
