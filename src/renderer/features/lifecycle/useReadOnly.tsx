import { useMutation, useQueryClient } from '@tanstack/react-query'
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react'
import { objectStoreScheme, type ConnectionInfo } from '../../../contract'
import { setReadOnly as setReadOnlyWrite } from './mutations'
import { capabilitiesQuery } from '../../queries/connections'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { NoticeDialog } from '../../components/NoticeDialog'
import { RecoveryPrompt } from './RecoveryPrompt'

/**
 * The Read-only switch's state in the app: flipping it (remembered by the core), and files dropped on a
 * read-only connection: instead of failing, the app offers to switch it off for that connection. A catalog that
 * cannot import at all (on object storage) says why instead — switching Read-only off would not help there.
 */
export function useReadOnly(
  connections: readonly ConnectionInfo[],
  /** After a recovery: what the tree lists of that connection may have changed (a finished rename). */
  onRecovered?: (connectionId: string) => void,
) {
  const client = useQueryClient()
  const [pending, setPending] = useState<{ connection: ConnectionInfo; proceed: () => void } | null>(null)
  const [refused, setRefused] = useState<{ connection: ConnectionInfo; reason: string } | null>(null)

  // The answered connection replaces the cached one (the write's rule, queries/invalidate.ts).
  const { mutateAsync: switchReadOnly } = useMutation(setReadOnlyWrite)
  const setReadOnly = useCallback(
    async (connectionId: string, readOnly: boolean) => {
      await switchReadOnly({ connectionId, readOnly })
    },
    [switchReadOnly],
  )

  /** Run `proceed` (an import into `connectionId`) now, or after the user switches Read-only off. */
  const guardImport = useCallback(
    (connectionId: string | undefined, proceed: () => void) => {
      const connection = connections.find((c) => c.id === connectionId)
      const guard = () => (connection?.readOnly ? setPending({ connection, proceed }) : proceed())
      const scheme = connection ? objectStoreScheme(connection.location) : null
      if (!connection || !scheme || scheme === 'file') return guard()
      // Object storage: ask the catalog what it can do (the core refuses imports there, with the reason).
      client.fetchQuery(capabilitiesQuery(connection.id)).then(
        (capabilities) => {
          const entry = capabilities?.['table.createFromStream']
          if (entry?.supported === false) setRefused({ connection, reason: entry.reason ?? 'This catalog cannot import files' })
          else guard()
        },
        () => guard(),
      )
    },
    [connections, client],
  )

  let element: ReactNode = null
  if (pending) {
    element = (
      <ConfirmDialog
        title={`${pending.connection.label} is read-only`}
        confirmLabel="Switch off and import"
        run={async () => {
          await setReadOnly(pending.connection.id, false)
          pending.proceed()
        }}
        onClose={() => setPending(null)}
      >
        <p>
          Importing writes to <strong>{pending.connection.label}</strong>, which is read-only. Switch “Read-only” off for this connection and import the files?
        </p>
      </ConfirmDialog>
    )
  }
  if (refused) {
    element = (
      <NoticeDialog title={`Cannot import into ${refused.connection.label}`} onClose={() => setRefused(null)}>
        <p>{refused.reason}</p>
      </NoticeDialog>
    )
  }
  // Read-only catalogs that crashed writers left unfinished: what was found, and the offer to recover it.
  const prompts = connections
    .filter((c) => (c.pendingRecovery?.length ?? 0) > 0)
    .map((c) => (
      <RecoveryPrompt
        key={c.id}
        connection={c}
        onRecovered={(info) => onRecovered?.(info.id)}
      />
    ))
  return { setReadOnly, guardImport, element, recoveryPrompts: prompts.length > 0 ? prompts : null }
}

type ReadOnlyGuard = Omit<ReturnType<typeof useReadOnly>, 'element' | 'recoveryPrompts'>
const ReadOnlyContext = createContext<ReadOnlyGuard | null>(null)
const PromptsContext = createContext<ReactNode>(null)

/**
 * The Read-only switch and the import guard for the whole window; its dialogs mount here, the recovery prompts
 * where `<RecoveryPrompts/>` is placed.
 */
export function ReadOnlyProvider({ connections, onRecovered, children }: { connections: readonly ConnectionInfo[]; onRecovered(connectionId: string): void; children: ReactNode }) {
  const { element, recoveryPrompts, ...guard } = useReadOnly(connections, onRecovered)
  return (
    <ReadOnlyContext.Provider value={guard}>
      <PromptsContext.Provider value={recoveryPrompts}>
        {children}
        {element}
      </PromptsContext.Provider>
    </ReadOnlyContext.Provider>
  )
}

export function useReadOnlyGuard(): ReadOnlyGuard {
  const guard = useContext(ReadOnlyContext)
  if (!guard) throw new Error('useReadOnlyGuard needs a ReadOnlyProvider')
  return guard
}

/** Read-only catalogs that crashed writers left unfinished: what was found, and the offer to recover it. */
export function RecoveryPrompts() {
  return <>{useContext(PromptsContext)}</>
}
