export { fieldInfo, formatType, schemaFields, vectorDimension } from './format'
export { emptyIpcStream, fileBuffersToStream, fromIpc, toIpcStream } from './ipc'
export { batchOf, float32Vectors, seededRandom, tableOf, timestampsMicro, validityBitmap, withNulls, type Column } from './build'
