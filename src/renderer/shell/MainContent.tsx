import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { memo, useCallback } from 'react'
import type { AppInfo, ConnectionInfo, DiffResult } from '../../contract'
import { closeConnection, ConnectionPane, recentsQuery, SavedConnections, StartScreen, useOpenCatalog, useRemote } from '../features/connections'
import { useConnections } from '../queries/connections'
import { READ_ONLY_REASON, ReadOnlySwitch, useReadOnlyGuard } from '../features/lifecycle'
import { useNavigation } from '../features/navigation'
import { TableIdentity, tableIdentity, TableView } from '../features/table'
import { loadListing, useListings, namespaceKey } from '../features/tree'
import { TabPanes, TabStrip, useRememberedTabs, useTabKeys, useWorkbench, type Tab, type TabActions, type TabView } from '../features/workbench'

/**
 * The content pane: the tabs (features/workbench) with their views, over the start screen or the selected connection
 * or namespace when one of those is asked for. The shell maps each tab kind to its view.
 */
export function MainContent({ info }: { info: AppInfo }) {
  const connections = useConnections()
  const { selection, start } = useNavigation()
  const workbench = useWorkbench()
  useTabKeys(workbench)
  const remembered = useRememberedTabs(workbench, connections)
  const selectedId = selection ? (selection.kind === 'table' ? selection.ref.connectionId : selection.connectionId) : null
  const connection = connections.find((c) => c.id === selectedId)
  let other
  if (start.shown || connections.length === 0 || (!workbench.state.shown && (!selection || !connection))) other = <Start info={info} empty={connections.length === 0} />
  else if (selection?.kind === 'namespace' && connection) other = <Namespace key={selection.key} connectionId={connection.id} namespace={selection.namespace} />
  const label = (id: string) => connections.find((c) => c.id === id)?.label ?? id
  return (
    <main className="content">
      <TabStrip connectionLabel={label} />
      {remembered.notes.length > 0 && (
        <div className="tab-notes" role="status">
          {remembered.notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
          <button type="button" className="button" onClick={remembered.dismiss}>
            Dismiss
          </button>
        </div>
      )}
      <TabPanes other={other} render={(tab) => <TabContent tab={tab} connection={connections.find((c) => c.id === tab.connectionId)} actions={workbench.actions} />} />
    </main>
  )
}

/** One tab's view, by its kind. Memoized: a tab re-renders when its own tab or catalog changes, not on every tab move. */
const TabContent = memo(function TabContent({ tab, connection, actions }: { tab: Tab; connection: ConnectionInfo | undefined; actions: TabActions }) {
  const { id, ref } = tab
  const onView = useCallback((view: TabView) => actions.setView(id, view), [actions, id])
  const close = useCallback(() => actions.close(id), [actions, id])
  // What changed opens in a tab of its own, with the view's filter and sort (as it did in place).
  const { filter, sort } = tab.view
  const onShowDiff = useCallback(
    (result: DiffResult) => {
      const initial = { ...(filter ? { filter } : {}), ...(sort ? { sort } : {}) }
      if (ref) actions.openTab({ kind: 'diff', connectionId: ref.connectionId, ref, view: initial, initial, payload: result })
    },
    [actions, ref, filter, sort],
  )
  if (!connection || !ref) return null
  const start = tab.kind === 'diff' ? { filter: tab.initial.filter, sort: tab.initial.sort, diff: tab.payload as DiffResult, onCloseDiff: close, onShowDiff } : { ...tab.initial, onShowDiff }
  return (
    // Per-table preferences (hidden columns) are kept under the open table's identity.
    <TableIdentity.Provider value={tableIdentity(connection.location, ref.namespace, ref.name)}>
      <TableView tableRef={ref} connectionLabel={connection.label} writeBlock={connection.readOnly ? READ_ONLY_REASON : undefined} start={start} onViewChange={onView} onCloseTab={close} />
    </TableIdentity.Provider>
  )
})

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
      readOnlySwitch={<ReadOnlySwitch connection={connection} onChange={(on) => void readOnly.setReadOnly(connection.id, on).catch(() => undefined)} />}
    />
  )
}
