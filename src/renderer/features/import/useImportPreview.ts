import type { Table } from 'apache-arrow'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { AppErrorData, ImportMode, ImportPreview, ImportSource, SheetsRead } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { fetchUntil, importPreviewQuery, importSampleQuery } from './queries'
import type { ImportChoices } from './useImportChoices'

const PREVIEW_DEBOUNCE_MS = 200

export interface ImportPreviewState {
  preview: ImportPreview | null
  /** The mode the preview was made for: its `modeProblem` is only about that mode. */
  previewMode: ImportMode
  previewError: AppErrorData | null
  previewing: boolean
  /** The first rows, in the schema that will be written. */
  sample: Table | null
  /** Excel: the workbook's sheets as last read, kept while a preview fails (a header row or range to fix). */
  sheets: SheetsRead | null
}

/**
 * The sheet's preview (`import/preview`) and first rows (`import/sample`), following every choice a little after
 * typing stops. The first answer fills in the suggested name and the vector columns it accepts.
 */
export function useImportPreview(source: ImportSource | null, choices: ImportChoices): ImportPreviewState {
  const { connectionId, namespace, namespaceProblem, name, setName, mode, vectorColumns, setVectorColumns, datesAsText, columnTypes, sheet, layout } = choices
  const layoutKey = JSON.stringify(layout ?? null)
  const client = useQueryClient()
  const [preview, setPreview] = useState<ImportPreview | null>(null)
  const [previewMode, setPreviewMode] = useState<ImportMode>('create')
  const [previewError, setPreviewError] = useState<AppErrorData | null>(null)
  const [previewing, setPreviewing] = useState(false)
  const [sample, setSample] = useState<Table | null>(null)
  const [sheets, setSheets] = useState<SheetsRead | null>(null)
  /** The inputs of the preview shown, as a key. */
  const previewedFor = useRef('')

  useEffect(() => {
    if (!source || !connectionId || namespaceProblem) return
    // The first answer fills in the suggested name and vector choices: that alone needs no new preview.
    if (previewedFor.current === JSON.stringify([connectionId, namespace, source, name, mode, vectorColumns, datesAsText, columnTypes, sheet, layoutKey])) return
    const controller = new AbortController()
    const timer = setTimeout(
      () => {
        previewedFor.current = ''
        setPreviewing(true)
        const input = { connectionId, namespace, source, name: name ?? undefined, mode, vectorColumns, datesAsText, columnTypes, sheet, ...layout }
        fetchUntil(client, importPreviewQuery(input), controller.signal)
          .then((result) => {
            const vectors = vectorColumns ?? result.vectorCandidates.filter((c) => c.accepted).map((c) => c.column)
            previewedFor.current = JSON.stringify([connectionId, namespace, source, result.name, mode, vectors, datesAsText, columnTypes, sheet, layoutKey])
            setPreview(result)
            if (result.sheets) setSheets(result.sheets)
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
      },
      preview ? PREVIEW_DEBOUNCE_MS : 0,
    )
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
    // `preview` only picks the delay; it must not re-run the preview.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, connectionId, namespace, namespaceProblem, name, mode, vectorColumns, datesAsText, columnTypes, sheet, layoutKey])

  // The first rows change only with the file, the vector choices and how the file is read.
  useEffect(() => {
    if (!source || !connectionId || namespaceProblem) return
    const controller = new AbortController()
    fetchUntil(client, importSampleQuery({ connectionId, namespace, source, vectorColumns, datesAsText, columnTypes, sheet, ...layout }), controller.signal)
      .then(setSample)
      .catch(() => {
        if (!controller.signal.aborted) setSample(null)
      })
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, vectorColumns, datesAsText, columnTypes, sheet, layoutKey])

  return { preview, previewMode, previewError, previewing, sample, sheets }
}
