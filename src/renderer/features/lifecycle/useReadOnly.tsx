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
export function useReadOnly(connections: readonly ConnectionInfo[]) {
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

  return { setReadOnly, guardImport, pending, refused, closePending: () => setPending(null), closeRefused: () => setRefused(null) }
}

/** The guard's dialogs: the offer to switch Read-only off and import, or why this catalog cannot import at all. */
function ReadOnlyDialogs({ guard }: { guard: ReturnType<typeof useReadOnly> }) {
  const { pending, refused, setReadOnly, closePending, closeRefused } = guard
  if (refused) {
    return (
      <NoticeDialog title={`Cannot import into ${refused.connection.label}`} onClose={closeRefused}>
        <p>{refused.reason}</p>
      </NoticeDialog>
    )
  }
  if (!pending) return null
  return (
    <ConfirmDialog
      title={`${pending.connection.label} is read-only`}
      confirmLabel="Switch off and import"
      run={async () => {
        await setReadOnly(pending.connection.id, false)
        pending.proceed()
      }}
      onClose={closePending}
    >
      <p>
        Importing writes to <strong>{pending.connection.label}</strong>, which is read-only. Switch “Read-only” off for this connection and import the files?
      </p>
    </ConfirmDialog>
  )
}

type ReadOnlyGuard = Pick<ReturnType<typeof useReadOnly>, 'setReadOnly' | 'guardImport'>
const ReadOnlyContext = createContext<ReadOnlyGuard | null>(null)
// The recovery prompts' data: the connections, and what to do after a recovery (what the tree lists of that
// connection may have changed: a finished rename).
const PromptsContext = createContext<{ connections: readonly ConnectionInfo[]; onRecovered?: (connectionId: string) => void }>({ connections: [] })

/**
 * The Read-only switch and the import guard for the whole window; its dialogs mount here, the recovery prompts
 * where `<RecoveryPrompts/>` is placed.
 */
export function ReadOnlyProvider({ connections, onRecovered, children }: { connections: readonly ConnectionInfo[]; onRecovered(connectionId: string): void; children: ReactNode }) {
  const readOnly = useReadOnly(connections)
  const { setReadOnly, guardImport } = readOnly
  return (
    <ReadOnlyContext.Provider value={{ setReadOnly, guardImport }}>
      <PromptsContext.Provider value={{ connections, onRecovered }}>
        {children}
        <ReadOnlyDialogs guard={readOnly} />
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
  const { connections, onRecovered } = useContext(PromptsContext)
  return (
    <>
      {connections
        .filter((c) => (c.pendingRecovery?.length ?? 0) > 0)
        .map((c) => (
          <RecoveryPrompt key={c.id} connection={c} onRecovered={(info) => onRecovered?.(info.id)} />
        ))}
    </>
  )
}
