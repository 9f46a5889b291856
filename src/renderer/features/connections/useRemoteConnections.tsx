import { lazy, Suspense, useCallback, useEffect, useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, SavedConnectionView } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
// Loaded on first use: the first paint does not need the dialog's code (issue 13).
const ConnectionDialog = lazy(() => import('./ConnectionDialog').then((m) => ({ default: m.ConnectionDialog })))

/**
 * Saved REST connections and the "Connect to server" dialog: the list, opening one (adding it as a
 * root of the tree), editing, deleting. A failed open shows why and changes nothing that is saved.
 */
export function useRemoteConnections(onOpened: (connection: ConnectionInfo) => void) {
  const [saved, setSaved] = useState<SavedConnectionView[]>([])
  const [dialog, setDialog] = useState<{ editing?: SavedConnectionView; openError?: AppErrorData | null } | null>(null)
  const [openingId, setOpeningId] = useState<string | null>(null)
  const [failure, setFailure] = useState<{ id: string; error: AppErrorData } | null>(null)

  const loadSaved = useCallback(() => {
    call('connections/saved/list', {})
      .then(setSaved)
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

  const openNew = useCallback(() => setDialog({}), [])
  const edit = useCallback(
    (view: SavedConnectionView) => {
      setDialog({ editing: view, openError: failure?.id === view.id ? failure.error : null })
    },
    [failure],
  )

  const element: ReactNode = dialog ? (
    <Suspense fallback={null}>
      <ConnectionDialog
        key={dialog.editing?.id ?? 'new'}
        editing={dialog.editing}
        openError={dialog.openError}
        onCancel={() => setDialog(null)}
        onSaved={(view) => {
          loadSaved()
          setFailure((previous) => (previous?.id === view.id ? null : previous))
        }}
        onConnected={(_view, connection) => {
          setFailure(null)
          onOpened(connection)
          setDialog(null)
        }}
      />
    </Suspense>
  ) : null

  return { saved, openingId, failure, connect, edit, remove, openNew, element, reload: loadSaved }
}
