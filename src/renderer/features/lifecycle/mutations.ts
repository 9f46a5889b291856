import { writeOptions } from '../../queries/write'

// A table's and a namespace's lifecycle writes. What each makes stale: src/renderer/queries/invalidate.ts.
export const dropNamespace = writeOptions('namespaces/drop')
export const createEmptyTable = writeOptions('tables/createEmpty')
export const addColumns = writeOptions('columns/add')
export const alterColumns = writeOptions('columns/alter')
export const dropColumns = writeOptions('columns/drop')
export const optimizeTable = writeOptions('tables/optimize')
export const restoreVersion = writeOptions('versions/restore')
export const createTag = writeOptions('tags/create')
export const deleteTag = writeOptions('tags/delete')
export const startIndex = writeOptions('indexes/start')
export const createIndex = writeOptions('indexes/create')
export const dropIndex = writeOptions('indexes/drop')
export const setReadOnly = writeOptions('connections/setReadOnly')
export const recoverConnection = writeOptions('connections/recover')
export const startDiff = writeOptions('diff/start')
