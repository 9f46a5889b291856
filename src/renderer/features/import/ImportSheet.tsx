import { useId, useMemo, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AppError, componentProblem, type ConnectionInfo, type DataFormat, type ImportJobInfo, type ImportSource } from '../../../contract'
import { startImport } from './mutations'
import { importPreviewQuery } from './queries'
import { errorData } from '../../components/ErrorPanel'
import { DataFormatChoice } from '../../components/DataFormatChoice'
import { catalogFormatsQuery } from '../../queries/catalog'
import type { PendingFile } from './dropped'
import { ImportSheetView, type SheetStatus } from './ImportSheetView'
import { sheetTableName, sheetsToImport } from './SheetLayoutFields'
import { useImportChoices, type ImportChoices } from './useImportChoices'
import { useImportPreview, type ImportPreviewState } from './useImportPreview'
import { useUpload } from './useUpload'
import './import.css'

export interface ImportSheetProps {
  item: PendingFile
  /** Files waiting for a sheet, this one included. */
  total: number
  connections: readonly ConnectionInfo[]
  /** The imports started: one, or one per sheet of a workbook. */
  onStarted(...jobs: ImportJobInfo[]): void
  /** Close without importing this file (the next waiting file, if any, gets the sheet). */
  onSkip(): void
}

/** What the choices and the preview allow: the name's and the mode's problems, and whether Import can start. */
export function sheetStatus(choices: ImportChoices, state: ImportPreviewState, ready: boolean, starting: boolean): SheetStatus {
  const { name, mode, namespaceProblem, overwriteConfirmed, headerRowProblem, rangeProblem, sheetsAs } = choices
  const { preview, previewMode, previewing, previewError, sheets } = state
  const shownName = name ?? ''
  const nameProblem = name === null ? null : componentProblem(shownName)
  const existing = preview && preview.name === shownName ? preview.existing : null
  const currentPreview = preview && preview.name === shownName && previewMode === mode ? preview : null
  const modeProblem = currentPreview?.modeProblem ?? null
  const appendBlocked = !existing ? 'There is no table of this name to append to' : existing.schemaDiff ? 'The schemas differ (see below)' : null
  // Excel, several sheets ticked, a table each: one import per sheet, each named after its sheet.
  const ticked = sheets ? sheetsToImport(choices, sheets) : []
  const sheetTables = ticked.length > 1 && sheetsAs === 'tables' ? ticked.map((sheet) => ({ sheet, name: sheetTableName(shownName, sheet) })) : []
  const tablesProblem = sheetTables.some((t) => componentProblem(t.name) !== null) || (sheetTables.length > 0 && mode === 'append')
  const canStart =
    ready && !!currentPreview && !previewing && !nameProblem && !namespaceProblem && !modeProblem && !starting && (mode !== 'overwrite' || overwriteConfirmed) && !previewError && !headerRowProblem && !rangeProblem && !tablesProblem
  return { shownName, nameProblem, existing, modeProblem, appendBlocked, canStart, sheetTables }
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
  const { mutateAsync: importStart } = useMutation(startImport)
  const client = useQueryClient()
  /** The new table's data format; null = the catalog's default (the core decides). */
  const [dataFormat, setDataFormat] = useState<DataFormat | null>(null)
  const formats = useQuery({ ...catalogFormatsQuery(choices.connectionId), enabled: !!choices.connectionId }).data ?? null

  // Starting the file's import (or one per sheet, after their checks) is one mutation: its state is the sheet's busy
  // flag and its error the one shown. Once it started, the sheet stays busy until the next file's (or none) replaces it.
  const starting = useMutation({
    mutationFn: async ({ source, name }: { source: ImportSource; name: string }): Promise<ImportJobInfo[]> => {
      const { connectionId, namespace, mode, vectorColumns, datesAsText, columnTypes, sheet, layout } = choices
      const { sheetTables } = status
      if (sheetTables.length === 0) {
        return [await importStart({ connectionId, namespace, source, name, mode, vectorColumns, datesAsText, columnTypes, sheet, ...layout, ...(dataFormat && mode !== 'append' ? { dataFormat } : {}) })]
      }
      // A table per sheet: one import each, in tab order; the staged upload is kept until the last one ends. The
      // column type choices were made on the sheet shown, so only its import takes them.
      const shown = sheet ?? previewState.sheets?.chosen
      // Every sheet is previewed under its table's name first: a sheet that cannot be read so, or a name taken, stops
      // them all before any starts (no half-imported workbook).
      for (const t of sheetTables) {
        const check = await client.fetchQuery(importPreviewQuery({ connectionId, namespace, source, name: t.name, mode, vectorColumns, datesAsText, columnTypes: t.sheet === shown ? columnTypes : undefined, sheet: t.sheet, ...(layout?.headerRow !== undefined ? { headerRow: layout.headerRow } : {}), ...(layout?.range ? { range: layout.range } : {}) }))
        if (check.nameProblem || check.modeProblem) {
          throw new AppError('invalid_input', `Sheet “${t.sheet}” → ${t.name}: ${check.nameProblem ?? check.modeProblem}`, { hint: 'Change the table name (each table is named after it and its sheet), or import in overwrite mode' })
        }
      }
      const jobs: ImportJobInfo[] = []
      for (const [i, t] of sheetTables.entries()) {
        const keepUpload = i < sheetTables.length - 1
        jobs.push(await importStart({ connectionId, namespace, source, name: t.name, mode, vectorColumns, datesAsText, columnTypes: t.sheet === shown ? columnTypes : undefined, sheet: t.sheet, headerRow: layout?.headerRow, range: layout?.range, keepUpload, ...(dataFormat && mode !== 'append' ? { dataFormat } : {}) }))
      }
      return jobs
    },
    onSuccess: (jobs) => {
      taken()
      onStarted(...jobs)
    },
  })
  const busy = starting.isPending || starting.isSuccess
  const startError = useMemo(() => (starting.error ? errorData(starting.error) : null), [starting.error])
  const status = sheetStatus(choices, previewState, !!source, busy)

  const start = (event: FormEvent) => {
    event.preventDefault()
    if (!source || !status.canStart || choices.name === null) return
    starting.mutate({ source, name: choices.name })
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
      starting={busy}
      startError={startError}
      onSubmit={start}
      onSkip={onSkip}
      formatChoice={
        choices.mode === 'append' ? null : (
          <>
            <label className="field-label" htmlFor={`${titleId}-format`}>
              File format
            </label>
            <DataFormatChoice id={`${titleId}-format`} formats={formats} value={dataFormat} onChange={setDataFormat} disabled={busy} />
          </>
        )
      }
    />
  )
}
