import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../../components/Modal'
import { contentsQuery, namespaceQuery } from '../../queries/namespaces'
import { dropNamespace } from './mutations'
import './lifecycle.css'
import { CloseFooter, DialogFooter } from '../../components/DialogFooter'

interface Target {
  connectionId: string
  namespace: string[]
  name: string
}

/**
 * Drop a namespace with everything in it: lists what will be deleted (tables and namespaces at any depth)
 * and asks for the namespace's name to be typed, like every drop.
 */
export function CascadeDropDialog({ target, onCancel, onDone }: { target: Target; onCancel(): void; onDone(): void }) {
  const titleId = useId()
  const listed = useQuery(contentsQuery(target.connectionId, target.namespace))
  const contents = listed.data ?? null
  const loadError = listed.error ? errorData(listed.error) : null
  const [typed, setTyped] = useState('')
  const dropping = useMutation(dropNamespace)
  const running = dropping.isPending || dropping.isSuccess
  const error = dropping.error ? errorData(dropping.error) : null
  const drop = () => dropping.mutate({ connectionId: target.connectionId, namespace: target.namespace, cascade: true }, { onSuccess: onDone })
  return (
    <Modal labelledBy={titleId} onClose={running ? undefined : onCancel} className="action-dialog" role="alertdialog">
      <form className="dialog-form" onSubmit={(e) => { e.preventDefault(); if (typed === target.name && contents) drop() }} noValidate>
        <header className="dialog-header">
          <h2 id={titleId}>Drop namespace and contents</h2>
        </header>
        <div className="dialog-body">
          <p>
            Drop <strong>{target.namespace.join(' / ')}</strong> and everything in it? This cannot be undone.
          </p>
          {!contents && !loadError && (
            <p>
              <Spinner label="Listing contents" /> Listing what will be deleted…
            </p>
          )}
          {loadError && <ErrorPanel error={loadError} title="Could not list the contents" compact />}
          {contents && (
            <div className="cascade-list" role="region" aria-label="Will be deleted">
              <div className="muted small">{`${plural(contents.tables.length, 'table', contents.truncated)} and ${plural(contents.namespaces.length, 'namespace', contents.truncated)} will be deleted:`}</div>
              <ul>
                {contents.namespaces.map((n) => (
                  <li key={`n:${n}`}>namespace {n}</li>
                ))}
                {contents.tables.map((t) => (
                  <li key={`t:${t}`}>table {t}</li>
                ))}
                {contents.truncated && <li>… and more</li>}
              </ul>
            </div>
          )}
          <div className="dialog-field">
            <label htmlFor={`${titleId}-name`} className="field-label">
              Type “{target.name}” to confirm
            </label>
            <input id={`${titleId}-name`} data-autofocus className="text-input mono" autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          {error && <ErrorPanel error={error} title="Could not drop the namespace" compact />}
        </div>
        <DialogFooter label="Drop namespace and contents" onCancel={onCancel} running={running} disabled={!contents || typed !== target.name} destructive />
      </form>
    </Modal>
  )
}

/** What describe answers for a namespace: its properties. */
export function PropertiesDialog({ target, onClose }: { target: Target; onClose(): void }) {
  const titleId = useId()
  const described = useQuery(namespaceQuery(target.connectionId, target.namespace))
  const properties = described.data?.properties ?? null
  const error = described.error ? errorData(described.error) : null
  const entries = properties ? Object.entries(properties).sort(([a], [b]) => a.localeCompare(b)) : []
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="action-dialog">
      <div className="dialog-form">
        <header className="dialog-header">
          <h2 id={titleId}>Properties of {target.name}</h2>
        </header>
        <div className="dialog-body">
          {!properties && !error && <Spinner label="Loading properties" />}
          {error && <ErrorPanel error={error} title="Could not describe the namespace" compact />}
          {properties && entries.length === 0 && <p className="muted">No properties.</p>}
          {entries.length > 0 && (
            <dl className="stats-list" aria-label="Properties">
              {entries.map(([k, v]) => (
                <div key={k}>
                  <dt className="mono">{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
        <CloseFooter onClose={onClose} />
      </div>
    </Modal>
  )
}

function plural(n: number, word: string, more: boolean): string {
  return `${n}${more ? '+' : ''} ${word}${n === 1 && !more ? '' : 's'}`
}
