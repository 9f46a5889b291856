import { useMutation } from '@tanstack/react-query'
import type { ConnectionInfo } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import './lifecycle.css'
import { recoverConnection } from './mutations'

/**
 * A read-only connection whose catalog a crashed writer left unfinished: opening it wrote nothing, so say what
 * was found and offer to recover it — the one write the user asks for here, while Read-only stays on.
 */
export function RecoveryPrompt({ connection, onRecovered }: { connection: ConnectionInfo; onRecovered(info: ConnectionInfo): void }) {
  // Its rule (queries/invalidate.ts) puts the answered connection, without `pendingRecovery`, in the open list.
  const recover = useMutation(recoverConnection)
  const running = recover.isPending || recover.isSuccess
  const error = recover.error ? errorData(recover.error) : null
  const found = connection.pendingRecovery ?? []
  if (found.length === 0) return null
  return (
    <section className="notice-banner" role="region" aria-label={`Unfinished writes in ${connection.label}`}>
      <div className="notice-banner-text recovery-text">
        <strong>{connection.label}</strong> was left unfinished by a writer that stopped (a crash or a kill). It is read-only, so nothing has been changed yet.
        <ul>
          {found.map((line) => (
            <li key={line}>{line.charAt(0).toUpperCase() + line.slice(1)}</li>
          ))}
        </ul>
        <span className="muted">Recovering finishes or undoes each of these and removes what was left half-written; the catalog stays read-only.</span>
        {error && (
          <div className="field-error" role="alert">
            Could not recover: {error.message}
          </div>
        )}
      </div>
      <button
        type="button"
        className="button primary"
        disabled={running}
        onClick={() => recover.mutate({ connectionId: connection.id }, { onSuccess: onRecovered })}
      >
        {running && <Spinner label="Recovering" />} Recover
      </button>
    </section>
  )
}
