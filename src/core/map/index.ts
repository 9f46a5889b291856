export { MapModule, MAP_HISTORY } from './module'
export { mapColumn, encodeMap, decodeSummary } from './run'
export { fitComponents } from './pca'
export { umapColumn } from './umap'
