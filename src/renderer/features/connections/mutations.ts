import { writeOptions } from '../../queries/write'

// Opening catalogs and the saved connections. What each makes stale: src/renderer/queries/invalidate.ts (an opened
// catalog joins the open connections; a save or delete makes its saved list stale).
export const openDirectory = writeOptions('connections/openDirectory')
export const createCatalog = writeOptions('connections/createCatalog')
export const saveServer = writeOptions('connections/saved/save')
export const deleteServer = writeOptions('connections/saved/delete')
export const openServer = writeOptions('connections/saved/open')
export const connectServer = writeOptions('connections/saved/connect')
export const saveStore = writeOptions('connections/objectStore/save')
export const deleteStore = writeOptions('connections/objectStore/delete')
export const openStore = writeOptions('connections/objectStore/open')
export const connectStore = writeOptions('connections/objectStore/connect')
export const closeConnection = writeOptions('connections/close')
