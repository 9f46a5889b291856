import { useCallback, useState, type Dispatch, type ReactNode, type SetStateAction } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import { ConfirmDialog } from './ConfirmDialog'

/**
 * The Read-only switch's state in the app: flipping it (remembered by the core), and files dropped on a
 * read-only connection: instead of failing, the app offers to switch it off for that connection.
 */
export function useReadOnly(connections: readonly ConnectionInfo[], setConnections: Dispatch<SetStateAction<ConnectionInfo[]>>) {
  const [pending, setPending] = useState<{ connection: ConnectionInfo; proceed: () => void } | null>(null)

  const setReadOnly = useCallback(
    async (connectionId: string, readOnly: boolean) => {
      const info = await call('connections/setReadOnly', { connectionId, readOnly })
      setConnections((previous) => previous.map((c) => (c.id === info.id ? info : c)))
    },
    [setConnections],
  )

  /** Run `proceed` (an import into `connectionId`) now, or after the user switches Read-only off. */
  const guardImport = useCallback(
    (connectionId: string | undefined, proceed: () => void) => {
      const connection = connections.find((c) => c.id === connectionId)
      if (connection?.readOnly) setPending({ connection, proceed })
      else proceed()
    },
    [connections],
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
  return { setReadOnly, guardImport, element }
}
