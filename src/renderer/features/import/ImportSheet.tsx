import { useId, useState, type FormEvent } from 'react'
import { componentProblem, type AppErrorData, type ConnectionInfo, type DataFormat, type ImportJobInfo } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { DataFormatChoice } from '../../components/DataFormatChoice'
import type { PendingFile } from './dropped'
import { ImportSheetView, type SheetStatus } from './ImportSheetView'
import { useImportChoices, type ImportChoices } from './useImportChoices'
import { useImportPreview, type ImportPreviewState } from './useImportPreview'
import { useUpload } from './useUpload'
import './import.css'

export interface ImportSheetProps {
  item: PendingFile
  /** Files waiting for a sheet, this one included. */
  total: number
  connections: readonly ConnectionInfo[]
  onStarted(job: ImportJobInfo): void
  /** Close without importing this file (the next waiting file, if any, gets the sheet). */
  onSkip(): void
}

/** What the choices and the preview allow: the name's and the mode's problems, and whether Import can start. */
export function sheetStatus(choices: ImportChoices, state: ImportPreviewState, ready: boolean, starting: boolean): SheetStatus {
  const { name, mode, namespaceProblem, overwriteConfirmed } = choices
  const { preview, previewMode, previewing, previewError } = state
  const shownName = name ?? ''
  const nameProblem = name === null ? null : componentProblem(shownName)
  const existing = preview && preview.name === shownName ? preview.existing : null
  const currentPreview = preview && preview.name === shownName && previewMode === mode ? preview : null
  const modeProblem = currentPreview?.modeProblem ?? null
  const appendBlocked = !existing ? 'There is no table of this name to append to' : existing.schemaDiff ? 'The schemas differ (see below)' : null
  const canStart = ready && !!currentPreview && !previewing && !nameProblem && !namespaceProblem && !modeProblem && !starting && (mode !== 'overwrite' || overwriteConfirmed) && !previewError
  return { shownName, nameProblem, existing, modeProblem, appendBlocked, canStart }
}

/**
 * The import sheet for one file. In the harness the file is uploaded first (there is no path in a browser); the
 * staged upload is discarded if the sheet is closed. The choices, the preview and the upload live in hooks; the
 * sheet itself is drawn by ImportSheetView.
 */
export function ImportSheet({ item, total, connections, onStarted, onSkip }: ImportSheetProps) {
  const titleId = useId()
  const { upload, source, taken } = useUpload(item)
  const choices = useImportChoices(item, connections)
  const previewState = useImportPreview(source, choices)
  const [starting, setStarting] = useState(false)
  const [startError, setStartError] = useState<AppErrorData | null>(null)
  /** The new table's data format; null = the catalog's default (the core decides). */
  const [dataFormat, setDataFormat] = useState<DataFormat | null>(null)
  const status = sheetStatus(choices, previewState, !!source, starting)

  const start = async (event: FormEvent) => {
    event.preventDefault()
    const { connectionId, namespace, name, mode, vectorColumns, datesAsText, columnTypes, sheet } = choices
    if (!source || !status.canStart || name === null) return
    setStarting(true)
    setStartError(null)
    try {
      const job = await call('import/start', { connectionId, namespace, source, name, mode, vectorColumns, datesAsText, columnTypes, sheet, ...(dataFormat && mode !== 'append' ? { dataFormat } : {}) })
      taken()
      onStarted(job)
    } catch (error) {
      setStartError(errorData(error))
      setStarting(false)
    }
  }

  return (
    <ImportSheetView
      titleId={titleId}
      item={item}
      total={total}
      connections={connections}
      upload={upload}
      source={source}
      choices={choices}
      previewState={previewState}
      status={status}
      starting={starting}
      startError={startError}
      onSubmit={(event) => void start(event)}
      onSkip={onSkip}
      formatChoice={
        choices.mode === 'append' ? null : (
          <>
            <label className="field-label" htmlFor={`${titleId}-format`}>
              File format
            </label>
            <DataFormatChoice id={`${titleId}-format`} connectionId={choices.connectionId || undefined} value={dataFormat} onChange={setDataFormat} disabled={starting} />
          </>
        )
      }
    />
  )
}
