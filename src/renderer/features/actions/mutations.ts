import { writeOptions } from '../../queries/write'

// The tree's writes (the context menu's dialogs). What each makes stale: src/renderer/queries/invalidate.ts.
// Dropping a namespace is the lifecycle feature's (`dropNamespace`, also behind "Drop namespace and contents…").
export const createNamespace = writeOptions('namespaces/create')
export const renameTable = writeOptions('tables/rename')
export const dropTable = writeOptions('tables/drop')
