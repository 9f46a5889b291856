import type { ConnectionInfo } from '../../../contract'
import './lifecycle.css'

/** Why writes are off on a read-only connection (tooltips and disabled reasons). */
export const READ_ONLY_REASON = 'This connection is read-only: switch “Read-only” off to change it'

/** The per-connection **Read-only** switch. */
export function ReadOnlySwitch({ connection, onChange }: { connection: ConnectionInfo; onChange(readOnly: boolean): void }) {
  const on = connection.readOnly === true
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      aria-label="Read-only"
      className={`switch${on ? ' on' : ''}`}
      title={on ? 'Writes are off for this connection' : 'Writes are allowed on this connection'}
      onClick={() => onChange(!on)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      Read-only
    </button>
  )
}
