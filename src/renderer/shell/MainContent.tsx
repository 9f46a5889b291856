import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { AppInfo } from '../../contract'
import { closeConnection, ConnectionPane, recentsQuery, SavedConnections, StartScreen, useOpenCatalog, useRemote } from '../features/connections'
import { useConnections } from '../queries/connections'
import { READ_ONLY_REASON, ReadOnlySwitch, useReadOnlyGuard } from '../features/lifecycle'
import { useNavigation } from '../features/navigation'
import { QueryView } from '../features/sql'
import { ConnectAssistantButton } from '../features/assistant'
import { TableIdentity, tableIdentity, TableView } from '../features/table'
import { loadListing, useListings, namespaceKey } from '../features/tree'

/** The content pane: the start screen, the selected table, a query view, or the selected connection or namespace. */
export function MainContent({ info }: { info: AppInfo }) {
  const connections = useConnections()
  const { selection, start } = useNavigation()
  const selectedId = selection ? (selection.kind === 'table' ? selection.ref.connectionId : selection.connectionId) : null
  const connection = connections.find((c) => c.id === selectedId)
  let content
  if (start.shown || connections.length === 0 || !selection || !connection) content = <Start info={info} empty={connections.length === 0} />
  else if (selection.kind === 'table') content = <TableView key={selection.key} tableRef={selection.ref} connectionLabel={connection.label} writeBlock={connection.readOnly ? READ_ONLY_REASON : undefined} />
  else if (selection.kind === 'query') content = <QueryView key={selection.key} connectionId={connection.id} connectionLabel={connection.label} draftKey={selection.key} />
  else content = <Namespace key={selection.key} connectionId={connection.id} namespace={selection.namespace} />
  return (
    // Per-table preferences (hidden columns) are kept under the open table's identity.
    <TableIdentity.Provider value={selection?.kind === 'table' && connection ? tableIdentity(connection.location, selection.ref.namespace, selection.ref.name) : null}>
      <main className="content">{content}</main>
    </TableIdentity.Provider>
  )
}

function Start({ info, empty }: { info: AppInfo; empty: boolean }) {
  const { start } = useNavigation()
  const recents = useQuery(recentsQuery).data ?? []
  const { openPath, pickDirectory } = useOpenCatalog()
  const remote = useRemote()
  const connections = useConnections()
  return (
    <StartScreen
      recents={recents}
      canPickDirectory={info.canPickDirectory}
      opening={start.opening}
      error={start.error}
      initialError={empty ? (info.initialError ?? null) : null}
      onOpenPath={openPath}
      onPickDirectory={pickDirectory}
      onCreateCatalog={(path) => openPath(path, true)}
      remote={
        <SavedConnections
          saved={remote.saved}
          open={connections}
          openingId={remote.openingId}
          failure={remote.failure}
          onNew={remote.openNew}
          onConnect={remote.connect}
          onEdit={remote.edit}
          onDelete={remote.remove}
        />
      }
    />
  )
}

function Namespace({ connectionId, namespace }: { connectionId: string; namespace: string[] }) {
  const client = useQueryClient()
  const connection = useConnections().find((c) => c.id === connectionId)
  const { clearSelection } = useNavigation()
  const readOnly = useReadOnlyGuard()
  // Its rule (queries/invalidate.ts) takes the connection off the open list once the core closed it.
  const { mutate: close } = useMutation(closeConnection)
  const node = useListings().get(namespaceKey(connectionId, namespace))
  if (!connection) return null
  return (
    <ConnectionPane
      connection={connection}
      namespace={namespace}
      node={node}
      onRetry={() => void loadListing(client, connectionId, namespace)}
      onClose={() => {
        close({ connectionId }, { onError: () => undefined })
        clearSelection()
      }}
      assistantButton={<ConnectAssistantButton connectionId={connection.id} />}
      readOnlySwitch={<ReadOnlySwitch connection={connection} onChange={(on) => void readOnly.setReadOnly(connection.id, on).catch(() => undefined)} />}
    />
  )
}
