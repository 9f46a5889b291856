import { useQuery } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { SqlQueryInfo, SqlResultTable, TableInfo } from '../../../contract'
import { call, newRequestId } from '../../api'
import { contributions, type PanelContext, type PanelContribution, type VersionControl } from '../../components/dock/registry'
import { useDockState } from '../../components/dock/useDockState'
import { keys } from '../../queries/keys'

/** A result has one version and no other: the Versions control does nothing here. */
const NO_VERSIONS: VersionControl = { opened: null, open: () => undefined, backToLatest: () => undefined, showChanges: () => undefined }

/** The result opened as a read-only table, once (`sql/resultTable`); under the query's key, so `sql/close` drops it. */
function resultTableQuery(queryId: string) {
  return {
    queryKey: [...keys.sqlQuery(queryId), 'table'] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const requestId = newRequestId()
      const stop = () => void call('requests/cancel', { requestId }).catch(() => undefined)
      signal.addEventListener('abort', stop, { once: true })
      try {
        return await call('sql/resultTable', { queryId, requestId }, signal)
      } finally {
        signal.removeEventListener('abort', stop)
      }
    },
    staleTime: Infinity,
    retry: false,
  }
}

/**
 * The table's own panels and sheets on a query's result (those contributed with `results`: the Summary, the Map,
 * Export…), so the query view imports none of those features. Opening one copies the finished result into a
 * read-only table once (core `sql/resultTable`); each panel then gets that table as its context. Data only: the
 * query view draws the buttons (`QueryToolbar`) and the dock (`ResultDock`).
 */
export function useResultViews(info: SqlQueryInfo | null) {
  const dock = useDockState()
  const [sheet, setSheet] = useState<string | null>(null)
  // A note belongs to the result it was made on: the next run's result starts without it.
  const [noted, setNoted] = useState<{ queryId: string; text: string } | null>(null)
  const note = noted && noted.queryId === info?.queryId ? noted.text : null
  const [selectRow, setSelectRow] = useState<{ row: number; nonce: number } | undefined>(undefined)
  // A result still being read opens too: the copy reads it to its end first (a long one is read only as far as
  // it is scrolled until then). A failed or cancelled one has no rows to open.
  const open = info?.state === 'done' || info?.state === 'running'
  // What the buttons are decided on before the copy exists: the result's columns (the Map needs a vector).
  const shape: TableInfo | null = info && { name: 'Result', namespace: [], rowCount: info.rowCount ?? info.rowsSoFar, version: 1, schema: info.columns }
  const panels = shape ? contributions.panels().filter((p) => p.results && (!p.available || p.available(shape))) : []
  const sheets = contributions.sheets().filter((s) => s.results)
  const wanted = dock.open.length > 0 || sheet !== null
  const table = useQuery({ ...resultTableQuery(info?.queryId ?? 'q-none'), enabled: wanted && open })
  const goToRow = useCallback((row: number) => setSelectRow((was) => ({ row, nonce: (was?.nonce ?? 0) + 1 })), [])

  const context = (panel: PanelContribution, opened: SqlResultTable): PanelContext => ({
    tableRef: opened.tableRef,
    viewRef: opened.tableRef,
    info: opened.info,
    version: opened.info.version,
    filter: undefined,
    rowSet: undefined,
    searching: false,
    narrowed: false,
    writeBlock: 'A query result is read-only: Save as table… writes it into a namespace',
    // A result has no filter bar of its own: the condition is the query's to add.
    addFilter: (predicate) => setNoted({ queryId: opened.queryId, text: `To keep only these rows, add this condition to the query’s WHERE and run it again: ${predicate}` }),
    goToRow,
    lasso: () => Promise.reject(new Error('a query result is not narrowed by the lasso: add a condition to the query’s WHERE')),
    versions: NO_VERSIONS,
    // No inspection: the result grid draws its own inspector (the docks' Inspector panel is not offered here).
    similar: null,
    close: () => dock.close(panel.id),
  })

  return {
    dock,
    panels,
    sheets,
    sheet,
    openSheet: (id: string) => setSheet(id),
    closeSheet: () => setSheet(null),
    /** Whether the result can be opened as a table (a failed or cancelled query cannot). */
    ready: open,
    table,
    context,
    note,
    clearNote: () => setNoted(null),
    selectRow,
  }
}

export type ResultViews = ReturnType<typeof useResultViews>
