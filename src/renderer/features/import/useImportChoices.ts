import { useMemo, useState } from 'react'
import { componentProblem, type ConnectionInfo, type ImportColumnInfo, type ImportColumnType, type ImportMode } from '../../../contract'
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
  }

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
  }
}

export type ImportChoices = ReturnType<typeof useImportChoices>
