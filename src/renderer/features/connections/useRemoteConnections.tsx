import { useMutation, useQuery } from '@tanstack/react-query'
import { createContext, lazy, Suspense, useCallback, useContext, useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, ObjectStoreConnectionView, SavedConnectionView, SavedKind, SavedView } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { savedQuery } from './queries'
import { deleteSaved, openSaved } from './mutations'
import { useOpenCatalog } from './useOpenCatalog'
// Loaded on first use: the first paint does not need the dialog's code, so the cold open is faster.
const ConnectionDialog = lazy(() => import('./ConnectionDialog').then((m) => ({ default: m.ConnectionDialog })))
const ConnectionKindSwitch = lazy(() => import('./ConnectionDialogShell').then((m) => ({ default: m.ConnectionKindSwitch })))

const NO_SAVED: SavedView[] = []

type DialogState =
  | { kind: 'rest'; editing?: SavedConnectionView; openError?: AppErrorData | null; prefill?: string }
  | { kind: 'object-store'; editing?: ObjectStoreConnectionView; openError?: AppErrorData | null; prefill?: string }

/**
 * Saved connections of both kinds and their dialog: the list, opening one (adding it as a root of the tree),
 * editing, deleting. A failed open shows why and changes nothing that is saved.
 */
export function useRemoteConnections(onOpened: (connection: ConnectionInfo) => void) {
  const saved = useQuery(savedQuery).data ?? NO_SAVED
  const [dialog, setDialog] = useState<DialogState | null>(null)
  const [failure, setFailure] = useState<{ id: string; error: AppErrorData } | null>(null)
  // Each write's rule (queries/invalidate.ts) says what it makes stale: an opened catalog joins the open
  // connections, a deleted one leaves the saved list.
  const opening = useMutation(openSaved)
  const { mutateAsync: removeAsync } = useMutation(deleteSaved)
  const { mutateAsync: openAsync } = opening
  const openingId = opening.isPending ? opening.variables.id : null

  /** Opens a saved connection from the list; a failure is kept next to it. */
  const connect = useCallback(
    (view: SavedView) => {
      setFailure(null)
      openAsync({ kind: view.kind, id: view.id })
        .then((connection) => {
          setFailure(null)
          onOpened(connection)
        })
        .catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
    },
    [onOpened, openAsync],
  )

  /** Deletes a saved connection; a failure is kept next to it. */
  const remove = useCallback(
    (view: SavedView) => {
      removeAsync({ kind: view.kind, id: view.id }).catch((error: unknown) => setFailure({ id: view.id, error: errorData(error) }))
    },
    [removeAsync],
  )

  // `prefill`: the endpoint or URI a link to a view named (the form opens with it; the key is the user's to enter).
  const openNew = useCallback((kind: SavedKind = 'rest', prefill?: string) => setDialog({ kind, ...(prefill ? { prefill } : {}) }), [])
  const edit = useCallback(
    (view: SavedView) => {
      const openError = failure?.id === view.id ? failure.error : null
      setDialog(view.kind === 'rest' ? { kind: 'rest', editing: view, openError } : { kind: 'object-store', editing: view, openError })
    },
    [failure],
  )

  // A new connection can switch between a REST server and object storage; an edited one keeps its kind.
  const chooseKind = useCallback((kind: SavedKind) => setDialog({ kind }), [])

  // Both kinds end the same way: a save (its rule made the list stale) clears the failure shown for it, a connect
  // shows the catalog.
  const dialogEvents: DialogEvents = {
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

  return { saved, openingId, failure, connect, edit, remove, openNew, dialog, chooseKind, dialogEvents }
}

interface DialogEvents {
  onCancel(): void
  onSaved(view: { id: string }): void
  onConnected(view: unknown, connection: ConnectionInfo): void
}

/** The connection dialog, when one is open: the kind's fragments in the one dialog (a lazy chunk). */
function RemoteDialog({ dialog, chooseKind, dialogEvents }: Pick<ReturnType<typeof useRemoteConnections>, 'dialog' | 'chooseKind' | 'dialogEvents'>) {
  if (!dialog) return null
  const kindSwitch = dialog.editing ? undefined : <ConnectionKindSwitch value={dialog.kind} onChange={chooseKind} />
  return (
    <Suspense fallback={null}>
      <ConnectionDialog key={dialog.editing?.id ?? `new-${dialog.kind}:${dialog.prefill ?? ''}`} kind={dialog.kind} editing={dialog.editing} openError={dialog.openError} prefill={dialog.prefill} kindSwitch={kindSwitch} {...dialogEvents} />
    </Suspense>
  )
}

/** What the rest of the window sees: the saved connections and their actions, and whether the dialog is open. */
type RemoteConnections = Omit<ReturnType<typeof useRemoteConnections>, 'dialog' | 'chooseKind' | 'dialogEvents'> & { dialogOpen: boolean }
const RemoteContext = createContext<RemoteConnections | null>(null)

/** Saved servers and stores for the start screen and the "+" menu; the connection dialog mounts here. */
export function RemoteConnectionsProvider({ children }: { children: ReactNode }) {
  const { opened } = useOpenCatalog()
  const { dialog, chooseKind, dialogEvents, ...remote } = useRemoteConnections(opened)
  return (
    <RemoteContext.Provider value={{ ...remote, dialogOpen: dialog !== null }}>
      {children}
      <RemoteDialog dialog={dialog} chooseKind={chooseKind} dialogEvents={dialogEvents} />
    </RemoteContext.Provider>
  )
}

export function useRemote(): RemoteConnections {
  const remote = useContext(RemoteContext)
  if (!remote) throw new Error('useRemote needs a RemoteConnectionsProvider')
  return remote
}
