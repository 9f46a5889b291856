import { useQuery, useQueryClient } from '@tanstack/react-query'
import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, ObjectStoreConnectionView, SavedConnectionView } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { keys } from '../../queries/keys'
import { savedQuery, storesQuery } from './queries'
import { useOpenCatalog } from './useOpenCatalog'
// Loaded on first use: the first paint does not need the dialog's code, so the cold open is faster.
const ConnectionDialog = lazy(() => import('./ConnectionDialog').then((m) => ({ default: m.ConnectionDialog })))
const ObjectStoreDialog = lazy(() => import('./ObjectStoreDialog').then((m) => ({ default: m.ObjectStoreDialog })))
const ConnectionKindSwitch = lazy(() => import('./ObjectStoreDialog').then((m) => ({ default: m.ConnectionKindSwitch })))

const NO_SAVED: SavedConnectionView[] = []
const NO_STORES: ObjectStoreConnectionView[] = []

type DialogState =
  | { kind: 'rest'; editing?: SavedConnectionView; openError?: AppErrorData | null }
  | { kind: 'object-store'; editing?: ObjectStoreConnectionView; openError?: AppErrorData | null }

/**
 * Saved REST connections and the "Connect to server" dialog: the list, opening one (adding it as a
 * root of the tree), editing, deleting. A failed open shows why and changes nothing that is saved.
 */
export function useRemoteConnections(onOpened: (connection: ConnectionInfo) => void) {
  const client = useQueryClient()
  const saved = useQuery(savedQuery).data ?? NO_SAVED
  const stores = useQuery(storesQuery).data ?? NO_STORES
  const [dialog, setDialog] = useState<DialogState | null>(null)
  const [openingId, setOpeningId] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string; error: AppErrorData } | null>(null)

  const loadSaved = useCallback(() => {
    void client.invalidateQueries({ queryKey: keys.saved })
    void client.invalidateQueries({ queryKey: keys.stores })
  }, [client])

  /** Opens a saved connection of either kind from the list; a failure is kept next to it. */
  const openSaved = useCallback(
    (id: string, opening: () => Promise<ConnectionInfo>) => {
      setOpeningId(id)
      setFailure(null)
      opening()
        .then((connection) => {
          setFailure(null)
          onOpened(connection)
        })
        .catch((error: unknown) => setFailure({ id, error: errorData(error) }))
        .finally(() => setOpeningId(null))
    },
    [onOpened],
  )

  /** Deletes a saved connection of either kind; a failure is kept next to it. */
  const removeSaved = useCallback(
    (id: string, removing: () => Promise<unknown>) => {
      removing()
        .then(loadSaved)
        .catch((error: unknown) => setFailure({ id, error: errorData(error) }))
    },
    [loadSaved],
  )

  const connect = useCallback((view: SavedConnectionView) => openSaved(view.id, () => call('connections/saved/open', { id: view.id })), [openSaved])
  const remove = useCallback((view: SavedConnectionView) => removeSaved(view.id, () => call('connections/saved/delete', { id: view.id })), [removeSaved])
  const connectStore = useCallback((view: ObjectStoreConnectionView) => openSaved(view.id, () => call('connections/objectStore/open', { id: view.id })), [openSaved])
  const removeStore = useCallback((view: ObjectStoreConnectionView) => removeSaved(view.id, () => call('connections/objectStore/delete', { id: view.id })), [removeSaved])

  const openNew = useCallback(() => setDialog({ kind: 'rest' }), [])
  const openNewStore = useCallback(() => setDialog({ kind: 'object-store' }), [])
  const edit = useCallback(
    (view: SavedConnectionView) => {
      setDialog({ kind: 'rest', editing: view, openError: failure?.id === view.id ? failure.error : null })
    },
    [failure],
  )
  const editStore = useCallback(
    (view: ObjectStoreConnectionView) => {
      setDialog({ kind: 'object-store', editing: view, openError: failure?.id === view.id ? failure.error : null })
    },
    [failure],
  )

  // A new connection can switch between a REST server and object storage; an edited one keeps its kind.
  const kindSwitch = dialog && !dialog.editing ? <ConnectionKindSwitch value={dialog.kind} onChange={(kind) => setDialog({ kind })} /> : undefined

  // Both kinds of dialog end the same way: a save refreshes the lists, a connect opens the catalog.
  const dialogEvents = {
    onCancel: () => setDialog(null),
    onSaved: (view: { id: string }) => {
      loadSaved()
      setFailure((previous) => (previous?.id === view.id ? null : previous))
    },
    onConnected: (_view: unknown, connection: ConnectionInfo) => {
      setFailure(null)
      onOpened(connection)
      setDialog(null)
    },
  }

  const element: ReactNode = dialog ? (
    <Suspense fallback={null}>
      {dialog.kind === 'object-store' ? (
        <ObjectStoreDialog key={dialog.editing?.id ?? 'new-store'} editing={dialog.editing} openError={dialog.openError} kindSwitch={kindSwitch} {...dialogEvents} />
      ) : (
        <ConnectionDialog key={dialog.editing?.id ?? 'new'} editing={dialog.editing} openError={dialog.openError} kindSwitch={kindSwitch} {...dialogEvents} />
      )}
    </Suspense>
  ) : null

  return { saved, stores, openingId, failure, connect, edit, remove, openNew, connectStore, editStore, removeStore, openNewStore, element, reload: loadSaved }
}

type RemoteConnections = Omit<ReturnType<typeof useRemoteConnections>, 'element'>
const RemoteContext = createContext<RemoteConnections | null>(null)

/** Saved servers and stores for the start screen and the "+" menu; the connect dialogs mount here. */
export function RemoteConnectionsProvider({ children }: { children: ReactNode }) {
  const { opened } = useOpenCatalog()
  const { element, ...remote } = useRemoteConnections(opened)
  return (
    <RemoteContext.Provider value={remote}>
      {children}
      {element}
    </RemoteContext.Provider>
  )
}

export function useRemote(): RemoteConnections {
  const remote = useContext(RemoteContext)
  if (!remote) throw new Error('useRemote needs a RemoteConnectionsProvider')
  return remote
}
