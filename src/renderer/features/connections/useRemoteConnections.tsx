import { useMutation, useQuery } from '@tanstack/react-query'
import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, ObjectStoreConnectionView, SavedConnectionView } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { savedQuery, storesQuery } from './queries'
import { deleteServer, deleteStore, openServer, openStore } from './mutations'
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
  const saved = useQuery(savedQuery).data ?? NO_SAVED
  const stores = useQuery(storesQuery).data ?? NO_STORES
  const [dialog, setDialog] = useState<DialogState | null>(null)
  const [failure, setFailure] = useState<{ id: string; error: AppErrorData } | null>(null)
  // Each write's rule (queries/invalidate.ts) says what it makes stale: an opened catalog joins the open
  // connections, a deleted one leaves its saved list.
  const serverOpening = useMutation(openServer)
  const storeOpening = useMutation(openStore)
  const { mutateAsync: removeServer } = useMutation(deleteServer)
  const { mutateAsync: removeStoreWrite } = useMutation(deleteStore)
  const openingId = serverOpening.isPending ? serverOpening.variables.id : storeOpening.isPending ? storeOpening.variables.id : null
  const { mutateAsync: openServerAsync } = serverOpening
  const { mutateAsync: openStoreAsync } = storeOpening

  /** Opens a saved connection of either kind from the list; a failure is kept next to it. */
  const openSaved = useCallback(
    (id: string, opening: () => Promise<ConnectionInfo>) => {
      setFailure(null)
      opening()
        .then((connection) => {
          setFailure(null)
          onOpened(connection)
        })
        .catch((error: unknown) => setFailure({ id, error: errorData(error) }))
    },
    [onOpened],
  )

  /** Deletes a saved connection of either kind; a failure is kept next to it. */
  const removeSaved = useCallback(
    (id: string, removing: () => Promise<unknown>) => {
      removing().catch((error: unknown) => setFailure({ id, error: errorData(error) }))
    },
    [],
  )

  const connect = useCallback((view: SavedConnectionView) => openSaved(view.id, () => openServerAsync({ id: view.id })), [openSaved, openServerAsync])
  const remove = useCallback((view: SavedConnectionView) => removeSaved(view.id, () => removeServer({ id: view.id })), [removeSaved, removeServer])
  const connectStore = useCallback((view: ObjectStoreConnectionView) => openSaved(view.id, () => openStoreAsync({ id: view.id })), [openSaved, openStoreAsync])
  const removeStore = useCallback((view: ObjectStoreConnectionView) => removeSaved(view.id, () => removeStoreWrite({ id: view.id })), [removeSaved, removeStoreWrite])

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

  // Both kinds of dialog end the same way: a save (its rule made the list stale) clears the failure shown for it, a
  // connect shows the catalog.
  const dialogEvents = {
    onCancel: () => setDialog(null),
    onSaved: (view: { id: string }) => {
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

  return { saved, stores, openingId, failure, connect, edit, remove, openNew, connectStore, editStore, removeStore, openNewStore, element }
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
