import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react'
import { useMutation } from '@tanstack/react-query'
import type { AppErrorData } from '../../../contract'
import { dropNamespace } from '../lifecycle'
import { createNamespace, dropTable, renameTable } from './mutations'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Modal } from '../../components/Modal'
import { nameProblem } from '../../lib/names'
import type { TreeActionId, TreeActionTarget } from './treeActions'
import { DialogFooter } from '../../components/DialogFooter'

export type WriteAction = Exclude<TreeActionId, 'refresh' | 'create-table' | 'drop-namespace-cascade' | 'namespace-properties' | 'open-new-tab'>

export interface ActionDialogProps {
  action: WriteAction
  target: TreeActionTarget
  onCancel(): void
  /** The write succeeded; `result` is the new name (create, rename) and, for a rename, the new namespace. */
  onDone(result: { name?: string; namespace?: string[] }): void
  /** The write failed; the dialog shows why and stays open (unsupported: refresh the capabilities). */
  onFailed(error: AppErrorData): void
}

const TITLES: Record<WriteAction, string> = {
  'create-namespace': 'New namespace',
  'drop-namespace': 'Drop namespace',
  'rename-table': 'Rename table',
  'drop-table': 'Drop table',
}

/**
 * The dialog behind a tree write: asks for a name (create, rename) or a confirmation (drop; a table
 * is dropped only once its name is typed), runs the call, and reports failure in words.
 */
export function ActionDialog({ action, target, onCancel, onDone, onFailed }: ActionDialogProps) {
  const titleId = useId()
  const [value, setValue] = useState(action === 'rename-table' ? target.name : '')
  // Rename can also move the table: its namespace as `a/b`, empty for the root.
  const [namespaceText, setNamespaceText] = useState(target.namespace.join('/'))
  const newNamespace = useMemo(() => (namespaceText.trim() === '' ? [] : namespaceText.trim().split('/').map((part) => part.trim())), [namespaceText])
  const moved = newNamespace.join('/') !== target.namespace.join('/')
  const [touched, setTouched] = useState(false)
  // One mutation per write; a dialog runs only its action's.
  const writes = { 'create-namespace': useMutation(createNamespace), 'drop-namespace': useMutation(dropNamespace), 'rename-table': useMutation(renameTable), 'drop-table': useMutation(dropTable) }
  const write = writes[action]
  const running = write.isPending
  const error = useMemo(() => (write.error ? errorData(write.error) : null), [write.error])
  const fieldRef = useRef<HTMLInputElement>(null)
  const errorRef = useRef<HTMLDivElement>(null)
  // After a failure the focus goes back into the dialog: to the field to correct, else to the error.
  useEffect(() => {
    if (!error) return
    if (fieldRef.current) fieldRef.current.focus()
    else errorRef.current?.focus()
  }, [error])
  // New namespace: optional properties, one `key=value` per line.
  const [propertiesText, setPropertiesText] = useState('')
  const properties = useMemo(() => parseProperties(propertiesText), [propertiesText])
  const where = target.kind === 'connection' ? `the root of ${target.name}` : `“${[...target.namespace].join(' / ')}”`

  const problem = useMemo(() => {
    if (action === 'create-namespace') return nameProblem(value.trim()) ?? (typeof properties === 'string' ? properties : undefined)
    if (action === 'rename-table') {
      const inNamespace = newNamespace.map((part) => nameProblem(part)).find(Boolean)
      if (inNamespace) return `Namespace: ${inNamespace}`
      return value.trim() === target.name && !moved ? 'Type a different name or namespace' : nameProblem(value.trim())
    }
    if (action === 'drop-table') return value === target.name ? undefined : `Type “${target.name}” to confirm`
    return undefined
  }, [action, value, target.name, newNamespace, moved, properties])

  const run = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (problem) return
    const { connectionId, namespace, name } = target
    const newName = value.trim()
    const done = { onSuccess: () => onDone(action === 'create-namespace' ? { name: newName } : action === 'rename-table' ? { name: newName, ...(moved ? { namespace: newNamespace } : {}) } : {}), onError: (e: unknown) => onFailed(errorData(e)) }
    if (action === 'create-namespace') writes[action].mutate({ connectionId, namespace: [...namespace, newName], ...(typeof properties === 'object' && Object.keys(properties).length > 0 ? { properties } : {}) }, done)
    else if (action === 'drop-namespace') writes[action].mutate({ connectionId, namespace }, done)
    else if (action === 'rename-table') writes[action].mutate({ connectionId, namespace, name, newName, ...(moved ? { newNamespace } : {}) }, done)
    else writes[action].mutate({ connectionId, namespace, name }, done)
  }

  const destructive = action === 'drop-namespace' || action === 'drop-table'
  const buttonLabel = { 'create-namespace': 'Create', 'drop-namespace': 'Drop namespace', 'rename-table': 'Rename', 'drop-table': 'Drop table' }[action]
  const showProblem = touched || (action !== 'drop-table' && value !== '' && (value !== target.name || moved))

  return (
    <Modal labelledBy={titleId} onClose={running ? undefined : onCancel} className="action-dialog" role={destructive ? 'alertdialog' : 'dialog'}>
      <form className="dialog-form" onSubmit={run} noValidate>
        <header className="dialog-header">
          <h2 id={titleId}>{TITLES[action]}</h2>
        </header>
        <div className="dialog-body">
          {action === 'create-namespace' && <p>Create a namespace in {where}.</p>}
          {action === 'drop-namespace' && (
            <p>
              Drop the namespace <strong>{target.name}</strong>? Only an empty namespace can be dropped; one that still holds namespaces or tables is left as it is.
            </p>
          )}
          {action === 'rename-table' && (
            <p>
              Rename the table <strong>{target.name}</strong> in {target.namespace.length ? `“${target.namespace.join(' / ')}”` : 'the root namespace'}.
            </p>
          )}
          {action === 'drop-table' && (
            <p>
              Drop the table <strong>{target.name}</strong> and all of its data? This cannot be undone.
            </p>
          )}
          {action !== 'drop-namespace' && (
            <div className="dialog-field">
              <label htmlFor={`${titleId}-name`} className="field-label">
                {action === 'drop-table' ? `Type “${target.name}” to confirm` : action === 'rename-table' ? 'New name' : 'Name'}
              </label>
              <input ref={fieldRef} id={`${titleId}-name`} data-autofocus aria-describedby={error ? `${titleId}-error` : undefined} className="text-input mono" autoComplete="off" spellCheck={false} value={value} onChange={(e) => setValue(e.target.value)} aria-invalid={showProblem && !!problem} />
              {showProblem && problem ? <div className="field-error">{problem}</div> : action !== 'drop-table' && <div className="muted small">Letters, digits, _, - and . only.</div>}
            </div>
          )}
          {action === 'rename-table' && (
            <div className="dialog-field">
              <label htmlFor={`${titleId}-namespace`} className="field-label">
                Namespace
              </label>
              <input id={`${titleId}-namespace`} className="text-input mono" autoComplete="off" spellCheck={false} value={namespaceText} onChange={(e) => setNamespaceText(e.target.value)} />
              <div className="muted small">Names joined with /, empty for the root. The namespace must exist.</div>
            </div>
          )}
          {action === 'create-namespace' && (
            <div className="dialog-field">
              <label htmlFor={`${titleId}-properties`} className="field-label">
                Properties (optional, one key=value per line)
              </label>
              <textarea id={`${titleId}-properties`} className="text-input mono" rows={3} spellCheck={false} value={propertiesText} onChange={(e) => setPropertiesText(e.target.value)} />
            </div>
          )}
          {error && (
            <div ref={errorRef} id={`${titleId}-error`} tabIndex={-1} className="dialog-error">
              <ErrorPanel error={error} title={`Could not ${buttonLabel.toLowerCase()}`} compact />
            </div>
          )}
        </div>
        <DialogFooter label={buttonLabel} onCancel={onCancel} running={running} disabled={action === 'drop-table' && !!problem} destructive={destructive} autoFocus={action === 'drop-namespace'} />
      </form>
    </Modal>
  )
}

/** `key=value` lines → a properties map, or the problem in words. */
function parseProperties(text: string): Record<string, string> | string {
  const out: Record<string, string> = {}
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim()
    if (line === '') continue
    const eq = line.indexOf('=')
    if (eq <= 0) return `Property line ${i + 1} is not key=value`
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim()
  }
  return out
}
