import { useId, useState } from 'react'
import { useMutation } from '@tanstack/react-query'
import { EXPORT_FORMATS, type ExportFormat, type TableRef, type TableViewSpec } from '../../../contract'
import { call, hostKind } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Modal } from '../../components/Modal'
import './export.css'
import { DialogFooter } from '../../components/DialogFooter'
import { formatCount } from '../../lib/format'
import { startExport } from './mutations'

const FORMAT_NOTES: Record<ExportFormat, string> = {
  csv: 'Text with a header row; nested values as JSON, binary as base64.',
  jsonl: 'One JSON object per line; int64 as exact digits.',
  arrow: 'Arrow IPC file: every type exactly as in the table.',
  parquet: 'Columnar and compressed (Snappy); types kept.',
}

/**
 * The export sheet: the format, then **Export** — Electron asks where with the native save dialog,
 * the browser harness downloads the file. The job then runs in the jobs panel (progress, Cancel).
 */
export function ExportSheet({
  tableRef,
  view,
  rowCount,
  tableRows,
  columnCount,
  totalColumns,
  onClose,
}: {
  tableRef: TableRef
  view: TableViewSpec
  /** Rows of the view: what the file will hold. */
  rowCount: number
  /** Rows of the whole table (named when the view narrows them). */
  tableRows?: number
  columnCount: number
  totalColumns: number
  onClose(): void
}) {
  const titleId = useId()
  const [format, setFormat] = useState<ExportFormat>('csv')
  const { mutateAsync: exportStart } = useMutation(startExport)
  // Asking where to save (desktop), then the write: one busy flag and one error for both. Answers whether it started.
  const starting = useMutation({
    mutationFn: async () => {
      const extension = EXPORT_FORMATS[format].extension
      let path: string | undefined
      if (hostKind === 'electron') {
        const picked = await call('dialogs/saveFile', { defaultName: `${tableRef.name}.${extension}`, filters: [{ name: EXPORT_FORMATS[format].label, extensions: [extension] }] })
        if (!picked.path) return false
        path = picked.path
      }
      await exportStart({ ...tableRef, namespace: [...tableRef.namespace], view, format, ...(path ? { path } : {}) })
      return true
    },
    onSuccess: (started) => {
      if (started) onClose()
    },
  })
  const running = starting.isPending || starting.data === true
  const error = starting.error ? errorData(starting.error) : null
  const start = () => starting.mutate()

  return (
    <Modal labelledBy={titleId} onClose={running ? undefined : onClose} className="action-dialog export-sheet">
      <form
        className="dialog-form"
        onSubmit={(event) => {
          event.preventDefault()
          start()
        }}
      >
        <header className="dialog-header">
          <h2 id={titleId}>Export {tableRef.name}</h2>
        </header>
        <div className="dialog-body">
          <p className="muted small export-scope">
            <span data-testid="export-rows">{formatCount(rowCount)}</span> {rowCount === 1 ? 'row' : 'rows'}
            {(view.filter || view.search) && tableRows !== undefined ? ` of ${formatCount(tableRows)}` : ''} ·{' '}
            {columnCount === totalColumns ? `all ${columnCount} columns` : `${columnCount} of ${totalColumns} columns (the visible ones)`}
            {view.filter ? ' · filtered' : ''}
            {view.search?.kind === 'fts' ? ` · full-text search results (top ${formatCount(view.search.k)})` : ''}
            {view.search?.kind === 'vector' ? ` · the ${formatCount(view.search.k)} nearest rows` : ''}
            {view.sort?.length ? ' · sorted' : ''}
            {view.version ? ` · version ${view.version}` : ''}
          </p>
          <fieldset className="export-formats">
            <legend className="field-label">Format</legend>
            {(Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((f) => (
              <label key={f} className={`export-format${format === f ? ' chosen' : ''}`}>
                <input type="radio" name="export-format" value={f} checked={format === f} onChange={() => setFormat(f)} data-autofocus={format === f ? true : undefined} />
                <span className="export-format-name">{EXPORT_FORMATS[f].label}</span>
                <span className="export-format-note muted small">
                  .{EXPORT_FORMATS[f].extension} — {FORMAT_NOTES[f]}
                </span>
              </label>
            ))}
          </fieldset>
          <p className="muted small">
            {hostKind === 'electron' ? 'You choose where to save it next.' : 'Your browser downloads the file when it is ready.'} The rows are written as they are read, with progress and
            Cancel in the jobs panel; nothing is left behind if it fails or is cancelled.
          </p>
          {error && <ErrorPanel error={error} title="Could not start the export" compact />}
        </div>
        <DialogFooter label="Export" onCancel={onClose} running={running} />
      </form>
    </Modal>
  )
}
