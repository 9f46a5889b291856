import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, ObjectStoreConnectionView, SavedConnectionView } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
// Loaded on first use: the first paint does not need the dialog's code (issue 13).
const ConnectionDialog = lazy(() => import('./ConnectionDialog').then((m) => ({ default: m.ConnectionDialog })))
const ObjectStoreDialog = lazy(() => import('./ObjectStoreDialog').then((m) => ({ default: m.ObjectStoreDialog })))
const ConnectionKindSwitch = lazy(() => import('./ObjectStoreDialog').then((m) => ({ default: m.ConnectionKindSwitch })))

type DialogState =
  | { kind: 'rest'; editing?: SavedConnectionView; openError?: AppErrorData | null }
  | { kind: 'object-store'; editing?: ObjectStoreConnectionView; openError?: AppErrorData | null }

/**
 * Saved REST connections and the "Connect to server" dialog: the list, opening one (adding it as a
 * root of the tree), editing, deleting. A failed open shows why and changes nothing that is saved.
 */
export function useRemoteConnections(onOpened: (connection: ConnectionInfo) => void) {
  const [saved, setSaved] = useState<SavedConnectionView[]>([])
  const [stores, setStores] = useState<ObjectStoreConnectionView[]>([])
  const [dialog, setDialog] = useState<DialogState | null>(null)
  const [openingId, setOpeningId] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string; error: AppErrorData } | null>(null)

  const loadSaved = useCallback(() => {
    call('connections/saved/list', {})
      .then(setSaved)
      .catch(() => undefined)
    call('connections/objectStore/list', {})
      .then(setStores)
      .catch(() => undefined)
  }, [])
  useEffect(loadSaved, [loadSaved])

  const open = useCallback(
    async (view: SavedConnectionView) => {
      const connection = await call('connections/saved/open', { id: view.id })
      setFailure(null)
      onOpened(connection)
    },
    [onOpened],
  )

  /** Open from the list; a failure is kept next to the saved connection. */
  const connect = useCallback(
    (view: SavedConnectionView) => {
      setOpeningId(view.id)
      setFailure(null)
      open(view)
        .catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
        .finally(() => setOpeningId(null))
    },
    [open],
  )

  const remove = useCallback(
    (view: SavedConnectionView) => {
      call('connections/saved/delete', { id: view.id })
        .then(loadSaved)
        .catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
    },
    [loadSaved],
  )

  /** Object-store catalogs: open a saved one; a failure is kept next to it, like a server's. */
  const connectStore = useCallback(
    (view: ObjectStoreConnectionView) => {
      setOpeningId(view.id)
      setFailure(null)
      call('connections/objectStore/open', { id: view.id })
        .then((connection) => {
          setFailure(null)
          onOpened(connection)
        })
        .catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
        .finally(() => setOpeningId(null))
    },
    [onOpened],
  )

  const removeStore = useCallback(
    (view: ObjectStoreConnectionView) => {
      call('connections/objectStore/delete', { id: view.id })
        .then(loadSaved)
        .catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
    },
    [loadSaved],
  )

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

  const element: ReactNode = dialog?.kind === 'object-store' ? (
    <Suspense fallback={null}>
      <ObjectStoreDialog
        key={dialog.editing?.id ?? 'new-store'}
        editing={dialog.editing}
        openError={dialog.openError}
        kindSwitch={kindSwitch}
        {...dialogEvents}
      />
    </Suspense>
  ) : dialog ? (
    <Suspense fallback={null}>
      <ConnectionDialog
        key={dialog.editing?.id ?? 'new'}
        editing={dialog.editing}
        openError={dialog.openError}
        kindSwitch={kindSwitch}
        {...dialogEvents}
      />
    </Suspense>
  ) : null

  return { saved, stores, openingId, failure, connect, edit, remove, openNew, connectStore, editStore, removeStore, openNewStore, element, reload: loadSaved }
}
