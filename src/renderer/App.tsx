import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo } from 'react'
import type { AppErrorData, AppInfo, TableRef } from '../contract'
import { errorData } from './components/ErrorPanel'
import { Spinner } from './components/Spinner'
import './panels'
import { ImportButton, ImportQueue, splitDropped, useImports } from './features/import'
import { JobsDock, JobsStatus } from './features/jobs'
import { NewQueryButton } from './features/sql'
import { LinkPrompt } from './features/links'
import { useReadOnlyGuard, RecoveryPrompts } from './features/lifecycle'
import { useNavigation } from './features/navigation'
import { TreePane } from './features/tree'
import { appInfoQuery, connectionsQuery, useConnections } from './queries/connections'
import { invalidate } from './queries/invalidate'
import { AppFrame } from './shell/AppFrame'
import { HostStatusBanner, useHostRestarts } from './shell/HostStatus'
import { MainContent } from './shell/MainContent'
import { Providers } from './shell/Providers'
import { useAppCommands } from './shell/useAppCommands'

/** The window: boots (what the app is, which catalogs are open), then composes the features. */
export function App() {
  const info = useQuery(appInfoQuery)
  const connections = useQuery(connectionsQuery)
  const failure = info.error ?? connections.error
  if (failure) return <BootError error={errorData(failure)} />
  if (!info.data || !connections.data) {
    return (
      <div className="boot">
        <Spinner label="Starting" /> Starting…
      </div>
    )
  }
  // Start on the catalog opened at start (the demo catalog in the app), not on the start screen.
  const first = info.data.initialConnection ?? connections.data[0]
  return (
    <Providers initialConnectionId={first?.id}>
      <Workspace info={info.data} />
    </Providers>
  )
}

function Workspace({ info }: { info: AppInfo }) {
  const client = useQueryClient()
  const connections = useConnections()
  const { selection, reveal, openQuery } = useNavigation()
  const readOnly = useReadOnlyGuard()
  // Import: files go where they were dropped, else into the selected namespace (a table's own namespace).
  const importTarget = useMemo(() => {
    if (selection?.kind === 'table') return { connectionId: selection.ref.connectionId, namespace: [...selection.ref.namespace] }
    if (selection?.kind === 'namespace') return { connectionId: selection.connectionId, namespace: selection.namespace }
    return connections[0] ? { connectionId: connections[0].id, namespace: [] } : null
  }, [selection, connections])
  // The imported table shown: its namespace lists it, an open table (appended to, overwritten) shows its new version.
  const onImported = useCallback(
    (ref: TableRef) => {
      reveal(ref)
      void invalidate.imported(client, ref)
    },
    [client, reveal],
  )
  const imports = useImports({ connections, defaultTarget: importTarget, onImported })
  // New query: over the catalog of what is selected, else the first open one.
  const queryConnection = (selection ? (selection.kind === 'table' ? selection.ref.connectionId : selection.connectionId) : null) ?? connections[0]?.id
  const newQuery = useCallback(() => {
    if (queryConnection) openQuery(queryConnection)
  }, [queryConnection, openQuery])
  useAppCommands({ canPickDirectory: info.canPickDirectory, importFiles: imports.pickFiles, newQuery })
  // A new catalog host (after the last one stopped) has none of the old one's state: the open table is read anew.
  const hostRestarts = useHostRestarts()

  return (
    <AppFrame
      onDropFiles={(files) => readOnly.guardImport(importTarget?.connectionId, () => imports.addFiles(files))}
      sidebar={(collapseButton) => (
        <TreePane
          collapseButton={collapseButton}
          importButton={
            <>
              <ImportButton onClick={imports.pickFiles} disabled={connections.length === 0} />
              <NewQueryButton onClick={newQuery} disabled={!queryConnection} />
            </>
          }
          onDropFiles={(row, transfer) => {
            const { files } = splitDropped(transfer)
            if (files.length > 0) readOnly.guardImport(row.connectionId, () => imports.addFiles(files, { connectionId: row.connectionId, namespace: [...row.namespace] }))
          }}
        />
      )}
    >
      <div className="app-main">
        <HostStatusBanner />
        <RecoveryPrompts />
        <LinkPrompt />
        <MainContent key={hostRestarts} info={info} />
        <JobsDock onOpenTable={onImported} />
      </div>
      <JobsStatus />
      <ImportQueue imports={imports} />
    </AppFrame>
  )
}

function BootError({ error }: { error: AppErrorData }) {
  return (
    <div className="boot">
      <div className="error-panel" role="alert">
        <div className="error-body">
          <div className="error-title">The app could not start</div>
          <div className="error-message">{error.message}</div>
          {error.hint && <div className="error-hint">{error.hint}</div>}
        </div>
      </div>
    </div>
  )
}
