import { useQueryClient } from '@tanstack/react-query'
import { useCallback, type ReactNode } from 'react'
import { useConnections } from '../queries/connections'
import { RemoteConnectionsProvider } from '../features/connections'
import { ReadOnlyProvider } from '../features/lifecycle'
import { NavigationProvider, useNavigation } from '../features/navigation'
import { refreshTree } from '../features/tree'
import { WorkbenchProvider } from '../features/workbench'

/** The window's shared homes: navigation, the open tabs, the saved connections (their dialogs), the Read-only switch (its dialogs). */
export function Providers({ initialConnectionId, children }: { initialConnectionId?: string; children: ReactNode }) {
  return (
    <NavigationProvider initialConnectionId={initialConnectionId}>
      <WorkbenchProvider>
        <RemoteConnectionsProvider>
          <ReadOnly>{children}</ReadOnly>
        </RemoteConnectionsProvider>
      </WorkbenchProvider>
    </NavigationProvider>
  )
}

function ReadOnly({ children }: { children: ReactNode }) {
  const client = useQueryClient()
  const connections = useConnections()
  const { expanded } = useNavigation()
  // After a recovery, what the tree lists of that connection may have changed (a finished rename).
  const onRecovered = useCallback((connectionId: string) => refreshTree(client, expanded, connectionId), [client, expanded])
  return (
    <ReadOnlyProvider connections={connections} onRecovered={onRecovered}>
      {children}
    </ReadOnlyProvider>
  )
}
