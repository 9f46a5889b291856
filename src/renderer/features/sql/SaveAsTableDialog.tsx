import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { componentProblem, type DataFormat } from '../../../contract'
import { DataFormatChoice } from '../../components/DataFormatChoice'
import { DialogFooter } from '../../components/DialogFooter'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Modal } from '../../components/Modal'
import { namespaceLabel } from '../../lib/format'
import { catalogFormatsQuery } from '../../queries/catalog'
import { useConnections } from '../../queries/connections'
import { saveAsTable } from './mutations'
import { sqlNamesQuery } from './queries'

/** What is saved: the kept result of a finished run, or a statement to run again. */
export type SaveSource = { queryId: string } | { sql: string }

/**
 * **Save as table…**: the namespace, the new table's name and its data file format (as for an import), then a
 * job in the jobs panel (progress, cancel); when it is done the table opens (an import's end reveals its table).
 */
export function SaveAsTableDialog({ connectionId, source, onClose }: { connectionId: string; source: SaveSource; onClose(): void }) {
  const id = useId()
  const names = useQuery(sqlNamesQuery(connectionId)).data
  const connections = useConnections()
  const formats = useQuery(catalogFormatsQuery(connectionId)).data ?? null
  const namespaces = [[], ...(names?.namespaces ?? [])].map((n) => [...n])
  const [namespace, setNamespace] = useState(0)
  const [name, setName] = useState('')
  const [dataFormat, setDataFormat] = useState<DataFormat | null>(null)
  const [tried, setTried] = useState(false)
  const saving = useMutation(saveAsTable)
  const problem = componentProblem(name)
  const submit = () => {
    setTried(true)
    if (problem) return
    const target = namespaces[namespace] ?? []
    saving.mutate({ connectionId, ...source, namespace: target, name, mode: 'create', ...(dataFormat ? { dataFormat } : {}), catalogs: connections.map((c) => c.id) }, { onSuccess: onClose })
  }
  return (
    <Modal labelledBy={`${id}-title`} onClose={saving.isPending ? undefined : onClose} className="action-dialog">
      <form
        className="dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          submit()
        }}
      >
        <header className="dialog-header">
          <h2 id={`${id}-title`}>Save as table</h2>
        </header>
        <div className="dialog-body">
          <p className="muted small">{'queryId' in source ? 'The rows of this result are written into a new table.' : 'The statement runs again and its rows are written into a new table.'}</p>
          <div className="dialog-field">
            <label htmlFor={`${id}-ns`} className="field-label">
              Namespace
            </label>
            <select id={`${id}-ns`} className="text-input" value={namespace} onChange={(e) => setNamespace(Number(e.target.value))}>
              {namespaces.map((n, i) => (
                <option key={n.join('\u0000') || '(root)'} value={i}>
                  {namespaceLabel(n)}
                </option>
              ))}
            </select>
          </div>
          <div className="dialog-field">
            <label htmlFor={`${id}-name`} className="field-label">
              Table name
            </label>
            <input id={`${id}-name`} data-autofocus className="text-input mono" autoComplete="off" spellCheck={false} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={tried && !!problem} aria-describedby={`${id}-problem`} />
            {tried && problem && (
              <div id={`${id}-problem`} className="field-error">
                The name {problem}
              </div>
            )}
          </div>
          <div className="dialog-field">
            <label htmlFor={`${id}-format`} className="field-label">
              Data format
            </label>
            <DataFormatChoice id={`${id}-format`} formats={formats} value={dataFormat} onChange={setDataFormat} />
          </div>
          {saving.error && <ErrorPanel error={errorData(saving.error)} title="Could not save the result" compact />}
        </div>
        <DialogFooter label="Save as table" onCancel={onClose} running={saving.isPending} />
      </form>
    </Modal>
  )
}
