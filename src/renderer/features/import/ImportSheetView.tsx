import type { FormEvent, ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, ImportPreview, ImportSource } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../../components/Modal'
import { formatBytes, formatCount, namespaceLabel } from '../../lib/format'
import type { PendingFile } from './dropped'
import { ColumnTypes } from './ColumnTypes'
import { NameClash } from './NameClash'
import { SheetLayoutFields } from './SheetLayoutFields'
import { SamplePreview } from './SamplePreview'
import type { ImportChoices } from './useImportChoices'
import type { ImportPreviewState } from './useImportPreview'
import type { UploadState } from './useUpload'

export interface ImportSheetViewProps {
  titleId: string
  item: PendingFile
  /** Files waiting for a sheet, this one included. */
  total: number
  connections: readonly ConnectionInfo[]
  upload: UploadState
  source: ImportSource | null
  choices: ImportChoices
  previewState: ImportPreviewState
  /** What the choices and the preview allow (see `sheetStatus`). */
  status: SheetStatus
  starting: boolean
  startError: AppErrorData | null
  onSubmit(event: FormEvent): void
  onSkip(): void
  /** The new table's data file format (label and control, in the grid); null when no table is created (append). */
  formatChoice?: ReactNode
}

export interface SheetStatus {
  shownName: string
  nameProblem: string | null
  /** The table of that name, when the preview of this name found one. */
  existing: ImportPreview['existing']
  modeProblem: string | null
  appendBlocked: string | null
  canStart: boolean
  /** Excel, a table per sheet: the tables the import makes (empty otherwise). */
  sheetTables: { sheet: string; name: string }[]
}

/**
 * The import sheet as drawn: where the file goes, under which name, in which mode; what will be written (schema,
 * first rows, vector columns, column types). Holds no state: ImportSheet passes the choices, the preview and the
 * upload in.
 */
export function ImportSheetView({ titleId, item, total, connections, upload, source, choices, previewState, status, starting, startError, onSubmit, onSkip, formatChoice }: ImportSheetViewProps) {
  const { connectionId, setConnectionId, namespaceText, setNamespaceText, namespace, namespaceProblem, setName, mode, setMode, overwriteConfirmed, setOverwriteConfirmed } = choices
  const { preview, previewError, previewing, sample, sheets } = previewState
  const { shownName, nameProblem, existing, canStart, sheetTables } = status
  // The name taken while creating: said once, at the top (the Mode row then says nothing more about it).
  const clash = mode === 'create' && existing && sheetTables.length === 0 ? existing : null
  return (
    <Modal labelledBy={titleId} onClose={starting ? undefined : onSkip} className="import-sheet">
      <form className="dialog-form" onSubmit={onSubmit} noValidate>
        <header className="dialog-header">
          <h2 id={titleId}>Import {item.fileName}</h2>
          <span className="muted small">
            {total > 1 ? `${total - 1} more waiting · ` : ''}
            {formatBytes(preview?.bytes ?? item.bytes)}
            {preview ? ` · ${preview.formatLabel}` : ''}
            {preview?.rowCount != null ? ` · ${formatCount(preview.rowCount)} rows` : ''}
          </span>
        </header>
        <div className="dialog-body">
          {clash && <NameClash name={shownName} namespace={namespace} existing={clash} setMode={setMode} />}
          {upload.phase === 'uploading' && (
            <div className="import-upload">
              <span>Uploading to the harness…</span>
              <progress max={upload.total || 1} value={upload.sent} aria-label={`Upload of ${item.fileName}`} />
              <span className="muted small">
                {formatBytes(upload.sent)} of {formatBytes(upload.total)}
              </span>
            </div>
          )}
          {upload.phase === 'failed' && <ErrorPanel error={upload.error} title="The file could not be uploaded" compact />}

          {previewError && <ErrorPanel error={previewError} title="This file cannot be imported" compact />}
          <div className="import-grid">
            <label className="field-label" htmlFor={`${titleId}-conn`}>
              Into
            </label>
            <div className="import-target">
              <select id={`${titleId}-conn`} className="text-input small" aria-label="Connection" value={connectionId} onChange={(e) => setConnectionId(e.target.value)} disabled={connections.length < 2}>
                {connections.length === 0 && <option value="">No catalog open</option>}
                {connections.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </select>
              <span className="import-slash">/</span>
              <input
                className="text-input small mono"
                aria-label="Namespace"
                placeholder="(root namespace)"
                value={namespaceText}
                onChange={(e) => setNamespaceText(e.target.value)}
                aria-invalid={!!namespaceProblem}
                spellCheck={false}
              />
            </div>
            {namespaceProblem && <div className="field-error import-span">Namespace {namespaceProblem}</div>}

            <label className="field-label" htmlFor={`${titleId}-name`}>
              Table name
            </label>
            <div>
              <input
                id={`${titleId}-name`}
                data-autofocus
                className="text-input mono"
                autoComplete="off"
                spellCheck={false}
                value={shownName}
                placeholder={preview?.suggestedName ?? ''}
                onChange={(e) => setName(e.target.value)}
                aria-invalid={!!nameProblem}
                aria-describedby={`${titleId}-name-help`}
              />
              <div id={`${titleId}-name-help`} className={nameProblem ? 'field-error' : 'muted small'}>
                {nameProblem ? `The name ${nameProblem}` : `In ${namespaceLabel(namespace)}. Letters, digits, _, - and . only.`}
              </div>
            </div>

            <span className="field-label">Mode</span>
            <ModeField titleId={titleId} mode={mode} setMode={setMode} status={status} clash={clash !== null} overwriteConfirmed={overwriteConfirmed} setOverwriteConfirmed={setOverwriteConfirmed} />

            {formatChoice}

            {sheets && (preview?.format === 'xlsx' || previewError) && <SheetLayoutFields idPrefix={titleId} choices={choices} sheets={sheets} tableName={shownName} />}
          </div>

          {!connectionId && <ErrorPanel error={{ code: 'not_found', message: 'No catalog is open to import into', hint: 'Open a directory or connect to a server first' }} compact />}
          {!preview && !previewError && source && connectionId && !namespaceProblem && (
            <div className="muted">
              <Spinner label="Reading the file" /> Reading the file…
            </div>
          )}

          {preview && <WhatIsWritten preview={preview} sample={sample} choices={choices} />}
          {startError && <ErrorPanel error={startError} title="The import could not start" compact />}
        </div>
        <footer className="dialog-footer">
          <div className="dialog-footer-left">{previewing && <Spinner label="Checking" />}</div>
          <div className="dialog-footer-right">
            <button type="button" className="button" onClick={onSkip} disabled={starting}>
              {total > 1 ? 'Skip' : 'Cancel'}
            </button>
            <button type="submit" className={mode === 'overwrite' ? 'button danger' : 'button primary'} disabled={!canStart}>
              {starting && <Spinner label="Starting" />}
              {mode === 'overwrite' ? 'Overwrite' : mode === 'append' ? 'Append' : sheetTables.length > 1 ? `Import ${sheetTables.length} tables` : 'Import'}
            </button>
          </div>
        </footer>
      </form>
    </Modal>
  )
}

interface ModeFieldProps {
  titleId: string
  mode: ImportChoices['mode']
  setMode: ImportChoices['setMode']
  status: SheetStatus
  /** The name clash is said at the top already: the Mode row says nothing more about it. */
  clash: boolean
  overwriteConfirmed: boolean
  setOverwriteConfirmed(confirmed: boolean): void
}

/** The Mode row: create, overwrite or append; what the mode will do, the overwrite's confirmation, and why append is off (the schema difference). */
function ModeField({ titleId, mode, setMode, status, clash, overwriteConfirmed, setOverwriteConfirmed }: ModeFieldProps) {
  const { shownName, existing, modeProblem, appendBlocked } = status
  const diff = mode === 'overwrite' ? null : existing?.schemaDiff
  return (
    <div>
      <div className="segmented" role="radiogroup" aria-label="Mode">
        {(['create', 'overwrite', 'append'] as const).map((m) => {
          const disabled = m === 'append' && !!appendBlocked
          return (
            <label key={m} className={`segment${mode === m ? ' checked' : ''}${disabled ? ' disabled' : ''}`} title={disabled ? (appendBlocked ?? undefined) : undefined}>
              <input type="radio" name={`${titleId}-mode`} value={m} checked={mode === m} disabled={disabled} onChange={() => setMode(m)} />
              {m === 'create' ? 'Create' : m === 'overwrite' ? 'Overwrite' : 'Append'}
            </label>
          )
        })}
      </div>
      {modeProblem && !clash ? (
        <div className="field-error" role="alert">
          {modeProblem}
        </div>
      ) : (
        <div className="muted small">
          {mode === 'create' && 'A new table; refused if the name is taken.'}
          {mode === 'overwrite' && (existing ? `Replaces the ${formatCount(existing.rowCount)} rows of “${shownName}”; the old data stays readable until the new data is complete.` : 'Creates the table (nothing to replace).')}
          {mode === 'append' && existing && `Adds rows to “${shownName}” (${formatCount(existing.rowCount)} rows now).`}
        </div>
      )}
      {mode === 'overwrite' && existing && (
        <label className="checkbox import-confirm">
          <input type="checkbox" checked={overwriteConfirmed} onChange={(e) => setOverwriteConfirmed(e.target.checked)} />
          Replace all {formatCount(existing.rowCount)} rows of “{shownName}”
        </label>
      )}
      {diff && (
        <div className="import-diff" aria-label="Schema difference">
          <div className="small">Append is off: the file’s columns do not match the table’s.</div>
          <ul>
            {diff.missing.map((c) => (
              <li key={`m-${c}`}>
                <code>{c}</code> is in the table, not in the file
              </li>
            ))}
            {diff.extra.map((c) => (
              <li key={`e-${c}`}>
                <code>{c}</code> is in the file, not in the table
              </li>
            ))}
            {diff.changed.map((c) => (
              <li key={`c-${c.column}`}>
                <code>{c.column}</code>: table {c.table}, file {c.file}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  )
}

/** What will be written: vector columns, dates as text, how the file is read, column types, conversions, the schema and the first rows. */
function WhatIsWritten({ preview, sample, choices }: { preview: ImportPreview; sample: ImportPreviewState['sample']; choices: ImportChoices }) {
  const { vectorColumns, toggleVector, datesAsText, setDatesAsText, setColumnType } = choices
  return (
    <>
      {preview.vectorCandidates.length > 0 && (
        <fieldset className="dialog-fieldset import-vectors">
          <legend>Vector columns</legend>
          {preview.vectorCandidates.map((c) => (
            <label key={c.column} className="checkbox">
              <input type="checkbox" checked={vectorColumns?.includes(c.column) ?? c.accepted} onChange={(e) => toggleVector(c.column, e.target.checked)} />
              <span>
                <code>{c.column}</code> as vector <code>FixedSizeList&lt;Float32&gt;[{c.dimension}]</code> <span className="muted small">(now {c.sourceType})</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}

      {preview.format === 'csv' && (datesAsText || preview.schema.some((f) => /^(Date|Timestamp)/.test(f.type))) && (
        <label className="checkbox">
          <input type="checkbox" checked={datesAsText} onChange={(e) => setDatesAsText(e.target.checked)} />
          <span>Keep dates and times as text</span>
        </label>
      )}

      {(preview.readAs?.length ?? 0) > 0 && (
        <section className="import-section" aria-label="How the file is read">
          <h3>Read as {preview.formatLabel}</h3>
          <ul className="import-read-as small">
            {preview.readAs!.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </section>
      )}

      {preview.columns && (
        <ColumnTypes
          columns={preview.columns}
          onChange={(column, type) => setColumnType(preview.columns!.find((c) => c.name === column), column, type)}
        />
      )}

      {(preview.conversions?.length ?? 0) > 0 && (
        <section className="import-section" aria-label="Conversions">
          <h3>Converted for Lance</h3>
          <ul className="import-schema import-conversions">
            {preview.conversions!.map((c) => (
              <li key={c.column}>
                <code className="import-field-name">{c.column}</code>
                <code className="import-field-type">
                  {c.from} → {c.to}
                </code>
                {c.note && <span className="muted small">{c.note}</span>}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className="import-section" aria-label="Schema to write">
        <h3>Schema to write</h3>
        <ul className="import-schema">
          {preview.schema.map((field) => (
            <li key={field.name}>
              <code className="import-field-name">{field.name}</code>
              <code className="import-field-type" title={field.type}>
                {field.type}
              </code>
              {!field.nullable && <span className="muted small">not null</span>}
            </li>
          ))}
        </ul>
      </section>

      {sample && (
        <section className="import-section">
          <h3>
            First {sample.numRows === 1 ? 'row' : `${Math.min(sample.numRows, 20)} rows`}
            {preview.rowCount != null && <span className="muted small"> of {formatCount(preview.rowCount)}</span>}
          </h3>
          <SamplePreview table={sample} label="First rows" />
        </section>
      )}
    </>
  )
}
