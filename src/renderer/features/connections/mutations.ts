import type { SavedKind, SavedView } from '../../../contract'
import { writeOptions } from '../../queries/write'

/** A save's or connect's view, as the kind it was asked for (the core answers the kind it was given). */
export function viewOf<K extends SavedKind>(kind: K, view: SavedView): Extract<SavedView, { kind: K }> {
  if (view.kind !== kind) throw new Error(`Expected a saved ${kind} connection, got ${view.kind}`)
  return view as Extract<SavedView, { kind: K }>
}

// Opening catalogs and the saved connections. What each makes stale: src/renderer/queries/invalidate.ts (an opened
// catalog joins the open connections; a save or delete makes its saved list stale).
export const openDirectory = writeOptions('connections/openDirectory')
export const createCatalog = writeOptions('connections/createCatalog')
// Saved connections, both kinds (the input's `kind` says which).
export const saveSaved = writeOptions('connections/saved/save')
export const deleteSaved = writeOptions('connections/saved/delete')
export const openSaved = writeOptions('connections/saved/open')
export const connectSaved = writeOptions('connections/saved/connect')
export const closeConnection = writeOptions('connections/close')
