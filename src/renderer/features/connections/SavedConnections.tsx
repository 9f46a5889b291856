import { useState } from 'react'
import type { AppErrorData, ConnectionInfo, SavedKind, SavedView } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { describeAuth } from './connectionForm'
import { CloudIcon } from '../../components/CloudIcon'
import { describeObjectStore } from './objectStoreForm'
import { ServerIcon } from '../../components/ServerIcon'

export interface SavedConnectionsProps {
  /** Saved connections of both kinds (servers and object stores: the same connect, edit, delete). */
  saved: readonly SavedView[]
  /** Open connections, to mark the saved ones already in the tree. */
  open: readonly ConnectionInfo[]
  openingId: string | null
  failure: { id: string; error: AppErrorData } | null
  onNew(kind: SavedKind): void
  onConnect(view: SavedView): void
  onEdit(view: SavedView): void
  onDelete(view: SavedView): void
}

/** What a row says under a saved connection's name. */
function detailOf(view: SavedView): string {
  if (view.kind === 'object-store') return `${view.uri} · ${describeObjectStore(view)}`
  return `${view.endpoint} · ${describeAuth(view)}${view.database ? ` · ${view.database.kind === 'name' ? 'database' : 'prefix'} ${view.database.value}` : ''}`
}

/** The start screen's list of saved connections: connect, edit, delete (after a confirmation). */
export function SavedConnections({ saved, open, openingId, failure, onNew, onConnect, onEdit, onDelete }: SavedConnectionsProps) {
  const [confirming, setConfirming] = useState<string | null>(null)
  const rows = saved.map((view) => ({
    id: view.id,
    name: view.name,
    detail: detailOf(view),
    icon: view.kind === 'object-store' ? ('cloud' as const) : ('server' as const),
    connect: () => onConnect(view),
    edit: () => onEdit(view),
    remove: () => onDelete(view),
  }))
  return (
    <div className="saved-connections">
      <div className="saved-heading">
        <h2>Saved connections</h2>
        <div className="saved-new">
          <button type="button" className="button" onClick={() => onNew('rest')}>
            <ServerIcon />
            Connect to server…
          </button>
          <button type="button" className="button" onClick={() => onNew('object-store')}>
            <CloudIcon />
            Connect to object storage…
          </button>
        </div>
      </div>
      {rows.length === 0 ? (
        <p className="muted small">No saved connections yet. Connect to a REST catalog server with its URL and an API key or token, or open a catalog on S3, GCS or Azure.</p>
      ) : (
        <ul aria-label="Saved connections">
          {rows.map((view) => {
            const isOpen = open.some((c) => c.savedId === view.id)
            return (
              <li key={view.id} aria-label={view.name}>
                <div className="saved-row">
                  {view.icon === 'cloud' ? <CloudIcon className="saved-icon" /> : <ServerIcon className="saved-icon" />}
                  <div className="saved-text">
                    <span className="saved-name">{view.name}</span>
                    <span className="saved-endpoint" title={view.detail}>
                      {view.detail}
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
                          view.remove()
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
                      <button type="button" className="button primary" onClick={view.connect} disabled={openingId !== null} aria-label={`Connect to ${view.name}`}>
                        {openingId === view.id && <Spinner label="Connecting" />}
                        {isOpen ? 'Show' : 'Connect'}
                      </button>
                      <button type="button" className="button" onClick={view.edit} aria-label={`Edit ${view.name}`}>
                        Edit
                      </button>
                      <button type="button" className="button" onClick={() => setConfirming(view.id)} aria-label={`Delete ${view.name}`}>
                        Delete
                      </button>
                    </div>
                  )}
                </div>
                {failure?.id === view.id && (
                  <ErrorPanel error={failure.error} title={`Could not connect to ${view.name}`} compact actions={[{ label: 'Edit connection', run: view.edit }, { label: 'Try again', run: view.connect }]} />
                )}
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
