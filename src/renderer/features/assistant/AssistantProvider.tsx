import { useQuery } from '@tanstack/react-query'
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import { NoticeDialog } from '../../components/NoticeDialog'
import { appInfoQuery, useConnections } from '../../queries/connections'
import { savedQuery } from '../connections'
import { AssistantDialog } from './AssistantDialog'

interface Assistant {
  /** Show **Connect an assistant…** for this connection (absent: the first open one). */
  open(connectionId?: string): void
}

const AssistantContext = createContext<Assistant | null>(null)

/** Holds the one **Connect an assistant…** dialog of the window; the Help menu and the connection pane open it. */
export function AssistantProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<{ connectionId?: string } | null>(null)
  const open = useCallback((connectionId?: string) => setShown({ connectionId }), [])
  const value = useMemo(() => ({ open }), [open])
  return (
    <AssistantContext.Provider value={value}>
      {children}
      {shown && <Shown connectionId={shown.connectionId} onClose={() => setShown(null)} />}
    </AssistantContext.Provider>
  )
}

function Shown({ connectionId, onClose }: { connectionId?: string; onClose(): void }) {
  const connections = useConnections()
  const info = useQuery(appInfoQuery).data
  const saved = useQuery(savedQuery).data
  const connection = connections.find((c) => c.id === connectionId) ?? connections[0]
  if (!connection) {
    return (
      <NoticeDialog title="Connect an assistant" onClose={onClose}>
        <p>Open a catalog first: the assistant is connected to the catalog you open.</p>
      </NoticeDialog>
    )
  }
  const view = connection.savedId ? saved?.find((s) => s.id === connection.savedId) : undefined
  return <AssistantDialog connection={connection} saved={view} launcher={info?.mcpLauncher} onClose={onClose} />
}

export function useAssistant(): Assistant {
  const assistant = useContext(AssistantContext)
  if (!assistant) throw new Error('useAssistant needs an AssistantProvider')
  return assistant
}

/** The connection pane's button (the catalog shown). */
export function ConnectAssistantButton({ connectionId }: { connectionId: string }) {
  const { open } = useAssistant()
  return (
    <button type="button" className="button" onClick={() => open(connectionId)}>
      Connect an assistant…
    </button>
  )
}
