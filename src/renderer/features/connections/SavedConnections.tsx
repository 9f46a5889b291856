import { useState } from 'react'
import type { AppErrorData, ConnectionInfo, SavedConnectionView } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { describeAuth } from './connectionForm'
import { ServerIcon } from './ServerIcon'

export interface SavedConnectionsProps {
  saved: readonly SavedConnectionView[]
  /** Open connections, to mark the saved ones already in the tree. */
  open: readonly ConnectionInfo[]
  openingId: string | null
  failure: { id: string; error: AppErrorData } | null
  onNew(): void
  onConnect(view: SavedConnectionView): void
  onEdit(view: SavedConnectionView): void
  onDelete(view: SavedConnectionView): void
}

/** The start screen's list of saved servers: connect, edit, delete (after a confirmation). */
export function SavedConnections({ saved, open, openingId, failure, onNew, onConnect, onEdit, onDelete }: SavedConnectionsProps) {
  const [confirming, setConfirming] = useState<string | null>(null)
  return (
    <div className="saved-connections">
      <div className="saved-heading">
        <h2>Catalog servers</h2>
        <button type="button" className="button" onClick={onNew}>
          <ServerIcon />
          Connect to server…
        </button>
      </div>
      {saved.length === 0 ? (
        <p className="muted small">No saved servers yet. Connect to a REST catalog server with its URL and an API key or token.</p>
      ) : (
        <ul aria-label="Saved connections">
          {saved.map((view) => {
            const isOpen = open.some((c) => c.savedId === view.id)
            return (
              <li key={view.id} aria-label={view.name}>
                <div className="saved-row">
                  <ServerIcon className="saved-icon" />
                  <div className="saved-text">
                    <span className="saved-name">{view.name}</span>
                    <span className="saved-endpoint" title={view.endpoint}>
                      {view.endpoint} · {describeAuth(view)}
                      {view.database ? ` · ${view.database.kind === 'name' ? 'database' : 'prefix'} ${view.database.value}` : ''}
                    </span>
                  </div>
                  {confirming === view.id ? (
                    <div className="saved-actions" role="group" aria-label={`Delete ${view.name}?`}>
                      <span className="small">Delete “{view.name}” and its saved secrets?</span>
                      <button
                        type="button"
                        className="button danger"
                        onClick={() => {
                          setConfirming(null)
                          onDelete(view)
                        }}
                      >
                        Delete
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </div>
                  ) : (
                    <div className="saved-actions">
                      <button type="button" className="button primary" onClick={() => onConnect(view)} disabled={openingId !== null} aria-label={`Connect to ${view.name}`}>
                        {openingId === view.id && <Spinner label="Connecting" />}
                        {isOpen ? 'Show' : 'Connect'}
                      </button>
                      <button type="button" className="button" onClick={() => onEdit(view)} aria-label={`Edit ${view.name}`}>
                        Edit
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(view.id)} aria-label={`Delete ${view.name}`}>
                        Delete
                      </button>
                    </div>
                  )}
                </div>
                {failure?.id === view.id && (
                  <ErrorPanel error={failure.error} title={`Could not connect to ${view.name}`} compact actions={[{ label: 'Edit connection', run: () => onEdit(view) }, { label: 'Try again', run: () => onConnect(view) }]} />
                )}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
