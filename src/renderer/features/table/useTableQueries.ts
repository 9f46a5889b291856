import { useMutation, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { checkPredicate, type FieldInfo, type TableViewSpec, type Operation, type PredicateHint, type SortKey, type TableInfo, type TableRef } from '../../../contract'
import { capabilitiesQuery } from '../../queries/connections'
import type { SimilarSearch } from '../../components/dock/registry'
import type { CellMenuItem } from './CellMenu'
import { cellMenuItems, type MenuState } from './cellMenuItems'
import type { FilterBarHandle } from './FilterBar'
import { recentFilters, rememberFilter } from './recentFilters'
import { andFilter } from '../../lib/sql'
import { useTableView, type ViewChoice } from './useTableView'
import { createRowSet } from './mutations'

/** Neighbours asked for by **Find similar rows** unless the user changes k. */
const DEFAULT_K = 20
/** Results of a full-text search, unless the user raises the limit. */
export const TEXT_SEARCH_K = 1000

/** What the header calls the view's count: a search's count is its results, never "matching rows" of the table. */
export function countLabelOf(choice: { filter?: string; search?: { kind: 'vector' | 'fts' }; rowSet?: unknown }): string {
  if (choice.search?.kind === 'fts') return 'Search results'
  if (choice.search?.kind === 'vector') return 'Nearest rows'
  return choice.filter?.trim() || choice.rowSet ? 'Matching rows' : 'Rows'
}


/**
 * Everything the table view needs to *ask* its data: the filter bar, header sorting, quick filters
 * and **Find similar rows** from a cell's context menu, **Go to row**, full-text search and the "Newer version
 * available" hint — as props for the grid and state for QueryParts.tsx to draw.
 */
export function useTableQueries(tableRef: TableRef, connectionLabel: string, info: TableInfo | null, reload: () => void, keys?: TableViewSpec['keys'], initial?: ViewChoice, linkItem?: (row: number) => CellMenuItem) {
  const tv = useTableView(tableRef, info, keys, initial)
  const { mutateAsync: createRowSetAsync } = useMutation(createRowSet)
  const { choice, apply } = tv
  // A callback ref (state): QueryParts.tsx attaches it; the keys below focus it.
  const [filterBar, setFilterBar] = useState<FilterBarHandle | null>(null)
  const [recent, setRecent] = useState(() => recentFilters({ ...tableRef, connectionLabel }))
  const [goToOpen, setGoToOpen] = useState(false)
  const [pasteOpen, setPasteOpen] = useState(false)
  const [selectRow, setSelectRow] = useState<{ row: number; nonce: number } | undefined>(undefined)
  const [menu, setMenu] = useState<MenuState | null>(null)
  const [similarSource, setSimilarSource] = useState('')
  const [hints, setHints] = useState<{ filter: string; items: PredicateHint[] } | null>(null)

  // What a REST server refused (learned by the client): those actions are disabled with the server's reason.
  // Asked again after a refused view: the client may just have learnt the server lacks that route.
  const capabilities = useQuery(capabilitiesQuery(tableRef.connectionId))
  const { refetch: refetchCapabilities } = capabilities
  const refusedCode = tv.error?.code
  useEffect(() => {
    if (refusedCode) void refetchCapabilities()
  }, [refusedCode, refetchCapabilities])
  const refused = (operation: Operation): string | undefined => {
    const entry = capabilities.data?.[operation]
    return entry && entry.supported === false ? (entry.reason ?? 'this server does not support it') : undefined
  }

  const vectorFields = useMemo(() => (info?.schema ?? []).filter((f) => f.vectorDimension !== undefined), [info])
  const ftsColumns = useMemo(() => [...new Set((info?.indexes ?? []).filter((i) => /^(fts|inverted)$/i.test(i.type)).flatMap((i) => i.columns))], [info])

  const applyFilter = useCallback(
    async (filter: string) => {
      // Checked against the schema first: Lance runs a quoted column name as a string without a word.
      const items = filter ? checkPredicate(filter, (info?.schema ?? []).map((f) => f.name)) : []
      setHints(items.length > 0 ? { filter: filter.trim(), items } : null)
      const ok = await apply({ ...choice, filter: filter || undefined })
      if (ok && filter) setRecent(rememberFilter({ ...tableRef, connectionLabel }, filter))
    },
    [apply, choice, tableRef, connectionLabel, info],
  )

  const toggleSort = useCallback(
    (column: string) =>
      // From the choice last asked for: a second click before the first answer still moves one more step.
      void apply((latest) => {
        const current = latest.sort?.find((s) => s.column === column)?.direction
        // ascending → descending → none
        const sort: SortKey[] = current === undefined ? [{ column, direction: 'asc' }] : current === 'asc' ? [{ column, direction: 'desc' }] : []
        return { ...latest, sort }
      }),
    [apply],
  )

  const searchSimilar = useCallback(
    (column: string, vector: number[], source: string) => {
      setSimilarSource(source)
      void apply({ ...choice, search: { kind: 'vector', column, vector, metric: 'l2', k: DEFAULT_K, prefilter: true } })
    },
    [apply, choice],
  )

  // Ctrl/Cmd+F focuses the filter box, Ctrl/Cmd+G opens Go to row (while this table is open).
  useEffect(() => {
    if (!info) return
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return
      const key = event.key.toLowerCase()
      if (key === 'f') {
        event.preventDefault()
        filterBar?.focus()
      } else if (key === 'g') {
        event.preventDefault()
        if (tv.count > 0) setGoToOpen(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [info, tv.count, filterBar])

  const fields = useMemo<FieldInfo[]>(() => {
    const base = info?.schema ?? []
    if (choice.search?.kind === 'vector') return [{ name: '_distance', type: 'Float32', nullable: true }, ...base]
    if (choice.search?.kind === 'fts') return [{ name: '_score', type: 'Float32', nullable: true }, ...base]
    return base
  }, [info, choice.search?.kind])

  const menuItems = (m: MenuState): CellMenuItem[] => cellMenuItems(m, { fields, vectorFields, filter: choice.filter, applyFilter, searchSimilar, vectorSearchRefused: refused('table.vectorSearch'), linkItem })

  const onCellContextMenu = useCallback((target: MenuState) => setMenu(target), [])

  const search = choice.search
  return {
    count: tv.count,
    narrowed: !!search || !!choice.filter || !!keys || !!choice.rowSet,
    /** What the count counts ("Rows", "Matching rows", "Search results", "Nearest rows"). */
    countLabel: countLabelOf(choice),
    /** A newer question runs or was refused: the count and rows on screen are the previous result (said in words). */
    stale: tv.pending !== null,
    fields,
    /** The filter as chosen (the Filter rows box shows it). */
    filter: choice.filter,
    /** Narrow the view by one more predicate (AND), as a quick filter does; the Filter rows box shows the result. */
    addFilter: (predicate: string) => void applyFilter(andFilter(choice.filter, predicate)),
    /**
     * The map's lasso: these rows (offsets in the view's version) become a row set core keeps, and the view shows
     * only them (the filter, sort and search still apply; the Filter rows box names the set). Rejects in words.
     */
    lasso: async (rows: number[]) => {
      const version = tv.view.version
      if (version === undefined) return
      const rowSet = await createRowSetAsync({ ...tableRef, namespace: [...tableRef.namespace], version, offsets: rows })
      if (!(await apply((latest) => ({ ...latest, rowSet })))) throw new Error('the grid kept its rows (see the message under the filter box)')
    },
    /** Select a row of the view in the grid, as Go to row does. */
    goToRow: (row: number) => setSelectRow({ row, nonce: Date.now() }),
    gridProps: {
      view: tv.view,
      viewKey: tv.viewKey,
      sort: choice.sort,
      onSortToggle: search || refused('table.sort') ? undefined : toggleSort,
      onCellContextMenu,
      selectRow,
    },
    // What QueryParts.tsx draws: the toolbar's buttons, the bars over the grid and the dialogs and menu.
    tableRef,
    info,
    tv,
    choice,
    apply,
    reload,
    setFilterBar,
    recent,
    hints,
    ftsColumns,
    vectorFields,
    refused,
    similar: similarOf(tv.view, choice, similarSource, apply),
    goToOpen,
    setGoToOpen,
    pasteOpen,
    setPasteOpen,
    menu,
    setMenu,
    menuItems,
    applyFilter,
    searchSimilar,
    setSelectRow,
  }
}

/** The nearest-neighbour search the grid shows, for the Similar rows panel (registered by renderer/panels.ts). */
function similarOf(view: TableViewSpec, choice: ViewChoice, source: string, apply: ReturnType<typeof useTableView>['apply']): SimilarSearch | null {
  const search = choice.search
  if (search?.kind !== 'vector') return null
  return { view, search, source, change: (next) => void apply({ ...choice, search: next }), clear: () => void apply({ ...choice, search: undefined }) }
}

export type { MenuState }
export type TableQueries = ReturnType<typeof useTableQueries>
