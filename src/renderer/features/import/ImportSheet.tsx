import { tableFromIPC, type Table } from 'apache-arrow'
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react'
import { componentProblem, type AppErrorData, type ConnectionInfo, type ImportColumnType, type ImportJobInfo, type ImportMode, type ImportPreview, type ImportSource } from '../../../contract'
import { call, isAbort, uploadFile } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../../components/Modal'
import { formatBytes, formatCount } from '../../lib/format'
import { namespaceLabel, parseNamespace, type PendingFile } from './dropped'
import { ColumnTypes } from './ColumnTypes'
import { SamplePreview } from './SamplePreview'
import './import.css'

const PREVIEW_DEBOUNCE_MS = 200

export interface ImportSheetProps {
  item: PendingFile
  /** Files waiting for a sheet, this one included. */
  total: number
  connections: readonly ConnectionInfo[]
  onStarted(job: ImportJobInfo): void
  /** Close without importing this file (the next waiting file, if any, gets the sheet). */
  onSkip(): void
}

type UploadState = { phase: 'uploading'; sent: number; total: number } | { phase: 'ready'; source: ImportSource } | { phase: 'failed'; error: AppErrorData }

/**
 * The import sheet for one file: where it goes, under which name, in which mode; what will be
 * written (schema, first rows, vector columns). In the harness the file is uploaded first (there
 * is no path in a browser); the staged upload is discarded if the sheet is closed.
 */
export function ImportSheet({ item, total, connections, onStarted, onSkip }: ImportSheetProps) {
  const titleId = useId()
  const [upload, setUpload] = useState<UploadState>(() =>
    item.path ? { phase: 'ready', source: { path: item.path } } : { phase: 'uploading', sent: 0, total: item.bytes },
  )
  const [connectionId, setConnectionId] = useState(item.target?.connectionId ?? connections[0]?.id ?? '')
  const [namespaceText, setNamespaceText] = useState((item.target?.namespace ?? []).join('/'))
  const [name, setName] = useState<string | null>(null)
  const [mode, setMode] = useState<ImportMode>('create')
  const [overwriteConfirmed, setOverwriteConfirmed] = useState(false)
  const [vectorColumns, setVectorColumns] = useState<string[] | undefined>(undefined)
  /** CSV: keep ISO dates and timestamps as text instead of typed columns. */
  const [datesAsText, setDatesAsText] = useState(false)
  /** CSV and JSON: columns whose type was changed in the sheet. */
  const [columnTypes, setColumnTypes] = useState<Record<string, ImportColumnType>>({})
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  /** The mode the preview was made for: its `modeProblem` is only about that mode. */
  const [previewMode, setPreviewMode] = useState<ImportMode>('create')
  const [previewError, setPreviewError] = useState<AppErrorData | null>(null)
  const [previewing, setPreviewing] = useState(false)
  const [sample, setSample] = useState<Table | null>(null)
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<AppErrorData | null>(null)
  const started = useRef(false)
  /** The inputs of the preview shown, as a key. */
  const previewedFor = useRef('')
  const uploadRef = useRef<string | null>(null)

  // Harness: upload the file once; discard the staged copy unless a job took it.
  useEffect(() => {
    if (item.path || !item.file) return
    const controller = new AbortController()
    uploadFile(item.file, ({ sent, total: size }) => setUpload({ phase: 'uploading', sent, total: size }), controller.signal)
      .then((staged) => {
        uploadRef.current = staged.uploadId
        setUpload({ phase: 'ready', source: { uploadId: staged.uploadId } })
      })
      .catch((error: unknown) => {
        if (!isAbort(error)) setUpload({ phase: 'failed', error: errorData(error) })
      })
    return () => {
      controller.abort()
      const uploadId = uploadRef.current
      if (uploadId && !started.current) void call('import/discardUpload', { uploadId }).catch(() => undefined)
    }
  }, [item])

  const namespace = useMemo(() => parseNamespace(namespaceText), [namespaceText])
  const namespaceProblem = useMemo(() => {
    for (const part of namespace) {
      const problem = componentProblem(part)
      if (problem) return `“${part}” ${problem}`
    }
    return null
  }, [namespace])
  const source = upload.phase === 'ready' ? upload.source : null

  // The preview follows every choice (name, mode, target, vectors), a little after typing stops.
  useEffect(() => {
    if (!source || !connectionId || namespaceProblem) return
    // The first answer fills in the suggested name and vector choices: that alone needs no new preview.
    if (previewedFor.current === JSON.stringify([connectionId, namespace, source, name, mode, vectorColumns, datesAsText, columnTypes])) return
    const controller = new AbortController()
    const timer = setTimeout(() => {
      previewedFor.current = ''
      setPreviewing(true)
      const input = { connectionId, namespace, source, name: name ?? undefined, mode, vectorColumns, datesAsText, columnTypes }
      call('import/preview', input, controller.signal)
        .then((result) => {
          const vectors = vectorColumns ?? result.vectorCandidates.filter((c) => c.accepted).map((c) => c.column)
          previewedFor.current = JSON.stringify([connectionId, namespace, source, result.name, mode, vectors, datesAsText, columnTypes])
          setPreview(result)
          setPreviewMode(mode)
          setPreviewError(null)
          if (name === null) setName(result.name)
          if (vectorColumns === undefined) setVectorColumns(vectors)
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) {
            setPreview(null)
            setPreviewError(errorData(error))
          }
        })
        .finally(() => {
          if (!controller.signal.aborted) setPreviewing(false)
        })
    }, preview ? PREVIEW_DEBOUNCE_MS : 0)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // `preview` only picks the delay; it must not re-run the preview.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, connectionId, namespace, namespaceProblem, name, mode, vectorColumns, datesAsText, columnTypes])

  // The first rows change only with the file and the vector choices.
  useEffect(() => {
    if (!source || !connectionId || namespaceProblem) return
    const controller = new AbortController()
    call('import/sample', { connectionId, namespace, source, vectorColumns, datesAsText, columnTypes }, controller.signal)
      .then((bytes) => setSample(tableFromIPC(bytes)))
      .catch(() => {
        if (!controller.signal.aborted) setSample(null)
      })
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, vectorColumns, datesAsText, columnTypes])

  const shownName = name ?? ''
  const nameProblem = name === null ? null : componentProblem(shownName)
  const existing = preview && preview.name === shownName ? preview.existing : null
  const currentPreview = preview && preview.name === shownName && previewMode === mode ? preview : null
  const modeProblem = currentPreview?.modeProblem ?? null
  const appendBlocked = !existing ? 'There is no table of this name to append to' : existing.schemaDiff ? 'The schemas differ (see below)' : null
  const canStart =
    !!source && !!currentPreview && !previewing && !nameProblem && !namespaceProblem && !modeProblem && !starting && (mode !== 'overwrite' || overwriteConfirmed) && !previewError

  const start = async (event: FormEvent) => {
    event.preventDefault()
    if (!source || !canStart || name === null) return
    setStarting(true)
    setStartError(null)
    try {
      const job = await call('import/start', { connectionId, namespace, source, name, mode, vectorColumns, datesAsText, columnTypes })
      started.current = true
      onStarted(job)
    } catch (error) {
      setStartError(errorData(error))
      setStarting(false)
    }
  }

  const toggleVector = (column: string, on: boolean) => {
    setVectorColumns((previous) => {
      const set = new Set(previous ?? [])
      if (on) set.add(column)
      else set.delete(column)
      return [...set]
    })
  }

  const diff = mode === 'overwrite' ? null : existing?.schemaDiff
  return (
    <Modal labelledBy={titleId} onClose={starting ? undefined : onSkip} className="import-sheet">
      <form className="dialog-form" onSubmit={(e) => void start(e)} noValidate>
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
              {modeProblem ? (
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
          </div>

          {!connectionId && <ErrorPanel error={{ code: 'not_found', message: 'No catalog is open to import into', hint: 'Open a directory or connect to a server first' }} compact />}
          {!preview && !previewError && source && connectionId && !namespaceProblem && (
            <div className="muted">
              <Spinner label="Reading the file" /> Reading the file…
            </div>
          )}

          {preview && preview.vectorCandidates.length > 0 && (
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

          {preview && preview.format === 'csv' && (datesAsText || preview.schema.some((f) => /^(Date|Timestamp)/.test(f.type))) && (
            <label className="checkbox">
              <input type="checkbox" checked={datesAsText} onChange={(e) => setDatesAsText(e.target.checked)} />
              <span>Keep dates and times as text</span>
            </label>
          )}

          {preview && (preview.readAs?.length ?? 0) > 0 && (
            <section className="import-section" aria-label="How the file is read">
              <h3>Read as {preview.formatLabel}</h3>
              <ul className="import-read-as small">
                {preview.readAs!.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </section>
          )}

          {preview?.columns && (
            <ColumnTypes
              columns={preview.columns}
              onChange={(column, type) =>
                setColumnTypes((previous) => {
                  const next = { ...previous }
                  const info = preview.columns!.find((c) => c.name === column)
                  if (type === null || type === info?.inferred) delete next[column]
                  else next[column] = type
                  return next
                })
              }
            />
          )}

          {preview && (preview.conversions?.length ?? 0) > 0 && (
            <section className="import-section" aria-label="Conversions">
              <h3>Converted for Lance</h3>
              <ul className="import-schema import-conversions">
                {preview.conversions!.map((c) => (
                  <li key={c.column}>
                    <code className="import-field-name">{c.column}</code>
                    <code className="import-field-type">
                      {c.from} → {c.to}
                    </code>
                  </li>
                ))}
              </ul>
            </section>
          )}

          {preview && (
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
          )}

          {preview && sample && (
            <section className="import-section">
              <h3>
                First {sample.numRows === 1 ? 'row' : `${Math.min(sample.numRows, 20)} rows`}
                {preview.rowCount != null && <span className="muted small"> of {formatCount(preview.rowCount)}</span>}
              </h3>
              <SamplePreview table={sample} label="First rows" />
            </section>
          )}
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
              {mode === 'overwrite' ? 'Overwrite' : mode === 'append' ? 'Append' : 'Import'}
            </button>
          </div>
        </footer>
      </form>
    </Modal>
  )
}
