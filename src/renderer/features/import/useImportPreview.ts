import type { Table } from 'apache-arrow'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import type { AppErrorData, ImportMode, ImportPreview, ImportSource, Input, SheetsRead } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'
import { importPreviewQuery, importSampleQuery } from './queries'
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

type PreviewInput = Input<'import/preview'>
/** A preview asked for, and the key of its inputs once its answer's suggestions (name, vector columns) are filled in. */
interface Asked {
  input: PreviewInput
  filled(name: string, vectors: string[] | undefined): string
}

/**
 * The sheet's preview (`import/preview`) and first rows (`import/sample`), following every choice a little after
 * typing stops. Both are queries: what is shown, whether it is running and why it failed are their state (the
 * previous answer stays on screen while the next runs). The first answer fills in the suggested name and the vector
 * columns it accepts; that alone asks nothing new.
 */
export function useImportPreview(source: ImportSource | null, choices: ImportChoices): ImportPreviewState {
  const { connectionId, namespace, namespaceProblem, name, setName, mode, vectorColumns, setVectorColumns, datesAsText, columnTypes, sheet, layout } = choices
  const layoutKey = JSON.stringify(layout ?? null)
  const [asked, setAsked] = useState<Asked | null>(null)
  /** The last answer and what it answered: a placeholder (that answer, while the next runs) keeps its mode. */
  const [answered, setAnswered] = useState<{ asked: Asked; preview: ImportPreview } | null>(null)
  const [sheets, setSheets] = useState<SheetsRead | null>(null)
  const query = useQuery({ ...importPreviewQuery(asked?.input ?? null), placeholderData: keepPreviousData })
  const preview = query.data ?? null
  // An answer to the preview asked last (not the placeholder kept while it runs).
  const fresh = query.isPlaceholderData ? undefined : query.data

  useEffect(() => {
    if (!source || !connectionId || namespaceProblem) return
    const keyOf = (n: string | null, vectors: string[] | undefined) => JSON.stringify([connectionId, namespace, source, n, mode, vectors, datesAsText, columnTypes, sheet, layoutKey])
    // The first answer fills in the suggested name and vector choices: that alone needs no new preview.
    if (asked && fresh && answered?.asked === asked && asked.filled(fresh.name, asked.input.vectorColumns ?? accepted(fresh)) === keyOf(name, vectorColumns)) return
    const input = { connectionId, namespace, source, name: name ?? undefined, mode, vectorColumns, datesAsText, columnTypes, sheet, ...layout }
    const timer = setTimeout(() => setAsked({ input, filled: keyOf }), preview ? PREVIEW_DEBOUNCE_MS : 0)
    return () => clearTimeout(timer)
    // `preview` only picks the delay, and the answer is compared, not waited for: neither re-runs the preview.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source, connectionId, namespace, namespaceProblem, name, mode, vectorColumns, datesAsText, columnTypes, sheet, layoutKey])

  // A new answer: fill in what it suggests and keep its sheets (shown while a later preview fails). Done while
  // rendering, as React advises for state that follows other state: one render, no effect.
  if (fresh && asked && answered?.preview !== fresh) {
    setAnswered({ asked, preview: fresh })
    if (fresh.sheets) setSheets(fresh.sheets)
    if (name === null) setName(fresh.name)
    if (vectorColumns === undefined) setVectorColumns(asked.input.vectorColumns ?? accepted(fresh))
  }

  // The first rows change only with the file, the vector choices and how the file is read.
  const sampleInput = useMemo(
    () => (source && connectionId && !namespaceProblem ? { connectionId, namespace, source, vectorColumns, datesAsText, columnTypes, sheet, ...layout } : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [source, vectorColumns, datesAsText, columnTypes, sheet, layoutKey],
  )
  const sample = useQuery({ ...importSampleQuery(sampleInput), placeholderData: keepPreviousData }).data ?? null
  const previewError = useMemo(() => (query.error ? errorData(query.error) : null), [query.error])
  const previewMode = (query.isPlaceholderData ? answered?.asked : asked)?.input.mode ?? 'create'

  return { preview, previewMode, previewError, previewing: query.isFetching, sample, sheets }
}

/** The vector columns a preview accepts (the default choice). */
const accepted = (preview: ImportPreview) => preview.vectorCandidates.filter((c) => c.accepted).map((c) => c.column)
