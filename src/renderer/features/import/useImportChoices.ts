import { useMemo, useState } from 'react'
import { componentProblem, parseCellRange, sheetLayoutOf, SHEET_LAST_ROW, type ConnectionInfo, type ImportColumnInfo, type ImportColumnType, type ImportMode } from '../../../contract'
import { parseNamespace, type PendingFile } from './dropped'

/** What the user chose in the sheet: target, name, mode, vector columns, and how text columns are typed. */
export function useImportChoices(item: PendingFile, connections: readonly ConnectionInfo[]) {
  const [connectionId, setConnectionId] = useState(item.target?.connectionId ?? connections[0]?.id ?? '')
  const [namespaceText, setNamespaceText] = useState((item.target?.namespace ?? []).join('/'))
  /** Null until typed or suggested by the first preview. */
  const [name, setName] = useState<string | null>(null)
  const [mode, setMode] = useState<ImportMode>('create')
  const [overwriteConfirmed, setOverwriteConfirmed] = useState(false)
  /** Undefined until the first preview says which columns are candidates. */
  const [vectorColumns, setVectorColumns] = useState<string[] | undefined>(undefined)
  /** CSV: keep ISO dates and timestamps as text instead of typed columns. */
  const [datesAsText, setDatesAsText] = useState(false)
  /** CSV and JSON: columns whose type was changed in the sheet. */
  const [columnTypes, setColumnTypes] = useState<Record<string, ImportColumnType>>({})
  /** Excel: the sheet chosen; undefined = the workbook's first. */
  const [sheet, setSheetName] = useState<string | undefined>(undefined)
  /** Another sheet has other columns: the type choices of the last one no longer apply. */
  const setSheet = (name: string) => {
    setSheetName(name)
    setColumnTypes({})
    // One sheet ticked: the ticks follow the sheet shown (several ticked stay ticked).
    setCheckedSheets((ticked) => (ticked && ticked.length > 1 ? ticked : null))
  }
  /** Excel: the header row as typed ('' = found by the reader) and the cell range as typed ('' = the whole sheet). */
  const [headerRowText, setHeaderRowTextState] = useState('')
  const [rangeText, setRangeTextState] = useState('')
  /** Excel: the sheets ticked for import (null = the one shown), and whether they make a table each or one table. */
  const [checkedSheets, setCheckedSheets] = useState<string[] | null>(null)
  const [sheetsAs, setSheetsAsState] = useState<'tables' | 'one'>('tables')
  // Another header row, range or set of sheets names other columns: the type choices no longer apply.
  const setHeaderRowText = (text: string) => {
    setHeaderRowTextState(text)
    setColumnTypes({})
  }
  const setRangeText = (text: string) => {
    setRangeTextState(text)
    setColumnTypes({})
  }
  const setSheetsAs = (as: 'tables' | 'one') => {
    setSheetsAsState(as)
    setColumnTypes({})
  }
  /** Tick or untick a sheet; `names` is the workbook's tab order, which the ticked sheets keep. */
  const toggleSheet = (name: string, on: boolean, names: readonly string[], shown: string) => {
    const now = new Set(checkedSheets ?? [shown])
    if (on) now.add(name)
    else now.delete(name)
    const next = names.filter((n) => now.has(n))
    if (next.length === 0) return // one sheet at least (its box is disabled)
    setCheckedSheets(next)
    // One sheet left: it is the one shown and imported.
    if (next.length === 1) setSheetName(next[0])
    setColumnTypes({})
  }
  const headerRowProblem = useMemo(() => {
    const text = headerRowText.trim()
    if (text === '') return null
    const n = Number(text)
    return Number.isInteger(n) && n >= 1 && n <= SHEET_LAST_ROW ? null : `must be a row number from 1 to ${SHEET_LAST_ROW.toLocaleString('en')}`
  }, [headerRowText])
  const rangeProblem = useMemo(() => {
    if (rangeText.trim() === '') return null
    const range = parseCellRange(rangeText)
    return typeof range === 'string' ? range : null
  }, [rangeText])
  /** The layout sent with every request: only what is valid (a half-typed range is not asked about). */
  const oneTable = sheetsAs === 'one' && (checkedSheets?.length ?? 0) > 1
  const layout = useMemo(
    () =>
      sheetLayoutOf({
        headerRow: headerRowProblem === null && headerRowText.trim() !== '' ? Number(headerRowText) : undefined,
        range: rangeProblem === null ? rangeText : undefined,
        sheets: oneTable ? checkedSheets! : undefined,
      }),
    [headerRowText, headerRowProblem, rangeText, rangeProblem, oneTable, checkedSheets],
  )

  const namespace = useMemo(() => parseNamespace(namespaceText), [namespaceText])
  const namespaceProblem = useMemo(() => {
    for (const part of namespace) {
      const problem = componentProblem(part)
      if (problem) return `“${part}” ${problem}`
    }
    return null
  }, [namespace])

  const toggleVector = (column: string, on: boolean) =>
    setVectorColumns((previous) => {
      const set = new Set(previous ?? [])
      if (on) set.add(column)
      else set.delete(column)
      return [...set]
    })

  /** A column's type chosen in the sheet; back to the inferred one (or null) removes the choice. */
  const setColumnType = (column: ImportColumnInfo | undefined, name: string, type: ImportColumnType | null) =>
    setColumnTypes((previous) => {
      const next = { ...previous }
      if (type === null || type === column?.inferred) delete next[name]
      else next[name] = type
      return next
    })

  return {
    connectionId,
    setConnectionId,
    namespaceText,
    setNamespaceText,
    namespace,
    namespaceProblem,
    name,
    setName,
    mode,
    setMode,
    overwriteConfirmed,
    setOverwriteConfirmed,
    vectorColumns,
    setVectorColumns,
    toggleVector,
    datesAsText,
    setDatesAsText,
    columnTypes,
    setColumnType,
    sheet,
    setSheet,
    headerRowText,
    setHeaderRowText,
    headerRowProblem,
    rangeText,
    setRangeText,
    rangeProblem,
    checkedSheets,
    toggleSheet,
    sheetsAs,
    setSheetsAs,
    layout,
  }
}

export type ImportChoices = ReturnType<typeof useImportChoices>
