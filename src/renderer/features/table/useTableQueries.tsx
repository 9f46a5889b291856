import { useMutation, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { checkPredicate, MAX_SEARCH_RESULTS, type FieldInfo, type TableViewSpec, type Operation, type PredicateHint, type SortKey, type TableInfo, type TableRef, type VectorSearch } from '../../../contract'
import { capabilitiesQuery } from '../../queries/connections'
import { CellMenu, type CellMenuItem } from './CellMenu'
import { FilterBar, type FilterBarHandle } from './FilterBar'
import { GoToRow } from './GoToRow'
import { recentFilters, rememberFilter } from './recentFilters'
import { SimilarPanel, VectorPasteDialog } from './SimilarPanel'
import { andFilter, quickFilterPredicate, type QuickFilter } from '../../lib/sql'
import { useTableView, type ViewChoice } from './useTableView'
import { PreviousResultNote } from './previousResult'
import { formatCount } from '../../lib/format'
import { createRowSet } from './mutations'

/** Neighbours asked for by **Find similar rows** unless the user changes k. */
const DEFAULT_K = 20
/** Results of a full-text search, unless the user raises the limit. */
const TEXT_SEARCH_K = 1000

/** What the header calls the view's count: a search's count is its results, never "matching rows" of the table. */
export function countLabelOf(choice: { filter?: string; search?: { kind: 'vector' | 'fts' }; rowSet?: unknown }): string {
  if (choice.search?.kind === 'fts') return 'Search results'
  if (choice.search?.kind === 'vector') return 'Nearest rows'
  return choice.filter?.trim() || choice.rowSet ? 'Matching rows' : 'Rows'
}

const QUICK_TYPES = /^(u?int\d*|float\d*|double|utf8|largeutf8|bool(ean)?)$/i

interface MenuState {
  x: number
  y: number
  row: number
  column: string
  valueOf: (column: string) => unknown
  /** Items the grid adds (copy, inspect), shown after the query items. */
  extra?: CellMenuItem[]
}

/**
 * Everything the table view needs to *ask* its data: the filter bar, header sorting, quick filters
 * and **Find similar rows** from a cell's context menu, **Go to row**, full-text search and the "Newer version
 * available" hint — as props for the grid and elements for TableView to place.
 */
export function useTableQueries(tableRef: TableRef, connectionLabel: string, info: TableInfo | null, reload: () => void, keys?: TableViewSpec['keys'], initial?: ViewChoice, linkItem?: (row: number) => CellMenuItem) {
  const tv = useTableView(tableRef, info, keys, initial)
  const { mutateAsync: createRowSetAsync } = useMutation(createRowSet)
  const { choice, apply } = tv
  const filterBar = useRef<FilterBarHandle>(null)
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
        filterBar.current?.focus()
      } else if (key === 'g') {
        event.preventDefault()
        if (tv.count > 0) setGoToOpen(true)
      }
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [info, tv.count])

  const fields = useMemo<FieldInfo[]>(() => {
    const base = info?.schema ?? []
    if (choice.search?.kind === 'vector') return [{ name: '_distance', type: 'Float32', nullable: true }, ...base]
    if (choice.search?.kind === 'fts') return [{ name: '_score', type: 'Float32', nullable: true }, ...base]
    return base
  }, [info, choice.search?.kind])

  const menuItems = (m: MenuState): CellMenuItem[] => {
    const field = fields.find((f) => f.name === m.column)
    const value = m.valueOf(m.column)
    const comparable = field !== undefined && QUICK_TYPES.test(field.type) && !m.column.startsWith('_')
    const quick = (kind: QuickFilter) => () => {
      const predicate = quickFilterPredicate(kind, m.column, value)
      if (predicate) void applyFilter(andFilter(choice.filter, predicate))
    }
    const notComparable = m.column.startsWith('_') ? 'Not a column of the table' : 'Only numbers, text and booleans can be compared here; type a filter instead'
    const vectorField = field?.vectorDimension !== undefined ? field : vectorFields[0]
    const rawVector = vectorField ? m.valueOf(vectorField.name) : undefined
    const vector = rawVector && typeof rawVector === 'object' && 'toArray' in rawVector ? Array.from((rawVector as { toArray(): ArrayLike<number> }).toArray(), Number) : null
    return [
      { label: 'Filter to this value', run: quick('equals'), disabled: comparable || value === null ? undefined : notComparable },
      { label: 'Exclude this value', run: quick('excludes'), disabled: comparable || value === null ? undefined : notComparable },
      { label: 'Is null', run: quick('is-null'), disabled: m.column.startsWith('_') ? notComparable : undefined },
      {
        label: 'Find similar rows',
        separatorBefore: true,
        run: () => vectorField && vector && searchSimilar(vectorField.name, vector, `row ${formatCount(m.row + 1)}`),
        disabled: !vectorField ? 'This table has no vector column' : !vector ? 'This row has no vector' : refused('table.vectorSearch'),
      },
      // The links feature's item (TableView passes it): a link naming this row. Before the grid's items, so the
      // menu still ends on Inspect cell.
      ...(linkItem ? [{ ...linkItem(m.row), separatorBefore: true }] : []),
      ...(m.extra ?? []).map((item, i) => (i === 0 ? { ...item, separatorBefore: true } : item)),
    ]
  }

  const onCellContextMenu = useCallback((target: MenuState) => setMenu(target), [])

  const search = choice.search
  const toolbar: ReactNode = info ? (
    <>
      <button type="button" className="button" disabled={tv.count === 0} onClick={() => setGoToOpen(true)} title="Go to row (Ctrl/Cmd+G)">
        Go to row…
      </button>
      {vectorFields.length > 0 && (
        <button type="button" className="button" onClick={() => setPasteOpen(true)} disabled={refused('table.vectorSearch') !== undefined} title={refused('table.vectorSearch')}>
          Search by vector…
        </button>
      )}
    </>
  ) : null

  const bars: ReactNode = info ? (
    <>
      {tv.newerVersion !== null && (
        <div className="version-hint" role="status" aria-label="Newer version">
          <span>
            Newer version available (version {tv.newerVersion}; showing {info.version}) — reload to see it.
          </span>
          <button type="button" className="button" onClick={reload}>
            Reload
          </button>
        </div>
      )}
      <FilterBar
        ref={filterBar}
        filter={choice.filter ?? ''}
        rowSet={choice.rowSet ? `lasso: ${formatCount(choice.rowSet.rows)} ${choice.rowSet.rows === 1 ? 'row' : 'rows'} of version ${choice.rowSet.version}` : undefined}
        onClearRowSet={() => void apply((latest) => ({ ...latest, rowSet: undefined }))}
        onApply={(f) => void applyFilter(f)}
        error={tv.error}
        onEdit={tv.clearError}
        onSettle={tv.settle}
        applying={tv.applying}
        recent={recent}
        ftsColumns={refused('table.textSearch') ? [] : ftsColumns}
        disabledReason={refused('table.filter')}
        hints={hints}
        textQuery={search?.kind === 'fts' ? search.query : ''}
        onTextSearch={(query) => void apply({ ...choice, search: query ? { kind: 'fts', query, k: TEXT_SEARCH_K } : undefined })}
      />
      {tv.pending && <PreviousResultNote pending={tv.pending} shown={choice} count={tv.count} />}
      {search && !tv.applying && (
        <div className="search-count" role="status" aria-label="Search count" data-testid="search-count">
          {search.kind === 'fts' ? (
            tv.count >= search.k ? (
              <>
                <span>
                  Top {formatCount(search.k)} matches — {search.k < MAX_SEARCH_RESULTS ? 'raise the limit to see more' : 'the most one search returns'}
                </span>
                {search.k < MAX_SEARCH_RESULTS && (
                  <button type="button" className="button" onClick={() => void apply({ ...choice, search: { ...search, k: Math.min(MAX_SEARCH_RESULTS, search.k * 10) } })}>
                    Raise the limit to {formatCount(Math.min(MAX_SEARCH_RESULTS, search.k * 10))}
                  </button>
                )}
              </>
            ) : (
              <span>
                All {formatCount(tv.count)} {tv.count === 1 ? 'match' : 'matches'} (under the limit of {formatCount(search.k)})
              </span>
            )
          ) : tv.count >= search.k ? (
            <span>The {formatCount(search.k)} nearest rows (k = {formatCount(search.k)}) — raise k for more</span>
          ) : (
            <span>
              {formatCount(tv.count)} nearest {tv.count === 1 ? 'row' : 'rows'}: fewer than k = {formatCount(search.k)}
              {choice.filter ? ' (only these match the filter)' : ''}
            </span>
          )}
        </div>
      )}
      {search?.kind === 'vector' && (
        <SimilarPanel
          tableRef={tableRef}
          view={tv.view}
          search={search}
          source={similarSource}
          onChange={(next: VectorSearch) => void apply({ ...choice, search: next })}
          onClear={() => void apply({ ...choice, search: undefined })}
        />
      )}
    </>
  ) : null

  const overlays: ReactNode = (
    <>
      {goToOpen && (
        <GoToRow
          rowCount={tv.count}
          onClose={() => setGoToOpen(false)}
          onGo={(row) => {
            setGoToOpen(false)
            setSelectRow({ row, nonce: Date.now() })
          }}
        />
      )}
      {pasteOpen && (
        <VectorPasteDialog
          columns={vectorFields}
          onClose={() => setPasteOpen(false)}
          onSearch={(column, vector) => {
            setPasteOpen(false)
            searchSimilar(column, vector, 'a pasted vector')
          }}
        />
      )}
      {menu && <CellMenu x={menu.x} y={menu.y} items={menuItems(menu)} onClose={() => setMenu(null)} />}
    </>
  )

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
    toolbar,
    bars,
    overlays,
  }
}
