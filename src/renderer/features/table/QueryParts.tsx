import { MAX_SEARCH_RESULTS } from '../../../contract'
import type { ToolbarItem } from '../../components/toolbar/OverflowToolbar'
import { formatCount } from '../../lib/format'
import { CellMenu } from './CellMenu'
import { FilterBar } from './FilterBar'
import { GoToRow } from './GoToRow'
import { PreviousResultNote } from './previousResult'
import { VectorPasteDialog } from './SimilarPanel'
import { TEXT_SEARCH_K, type TableQueries } from './useTableQueries'

/** The toolbar's query buttons: **Go to row…** and, with a vector column, **Search by vector…**. */
export function queryTools(q: TableQueries): ToolbarItem | null {
  if (!q.info) return null
  const goToRow = { id: 'go-to-row', label: 'Go to row…', disabled: q.count === 0, run: () => q.setGoToOpen(true) }
  const vectorRefused = q.refused('table.vectorSearch')
  const vector = q.vectorFields.length > 0 ? { id: 'search-by-vector', label: 'Search by vector…', disabled: vectorRefused !== undefined, reason: vectorRefused, run: () => q.setPasteOpen(true) } : null
  const bar = (
    <>
      <button type="button" className="button" disabled={goToRow.disabled} onClick={goToRow.run} title="Go to row (Ctrl/Cmd+G)">
        Go to row…
      </button>
      {vector && (
        <button type="button" className="button" onClick={vector.run} disabled={vector.disabled} title={vectorRefused}>
          Search by vector…
        </button>
      )}
    </>
  )
  return { id: 'query', bar, menu: vector ? [goToRow, vector] : [goToRow] }
}

/**
 * The bars over the grid: the newer-version hint, the filter bar, the previous-result note, the search count (Similar
 * rows is a docked panel). A pinned version has no newer-version hint: its version bar names the latest already.
 */
export function QueryBars({ q, pinned }: { q: TableQueries; pinned: boolean }) {
  const { info, tv, choice, apply, setFilterBar, applyFilter, recent, refused, ftsColumns, hints, reload } = q
  if (!info) return null
  const search = choice.search
  return (
    <>
      {tv.newerVersion !== null && !pinned && (
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
        ref={setFilterBar}
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
      {search && !tv.applying && <SearchCount q={q} />}
    </>
  )
}

/** How many rows a search found, against its limit, with the way to raise it. */
function SearchCount({ q }: { q: TableQueries }) {
  const { tv, choice, apply } = q
  const search = choice.search!
  return (
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
  )
}

/** Go to row, the pasted-vector dialog and the cell's context menu. */
export function QueryOverlays({ q }: { q: TableQueries }) {
  return (
    <>
      {q.goToOpen && (
        <GoToRow
          rowCount={q.count}
          onClose={() => q.setGoToOpen(false)}
          onGo={(row) => {
            q.setGoToOpen(false)
            q.setSelectRow({ row, nonce: Date.now() })
          }}
        />
      )}
      {q.pasteOpen && (
        <VectorPasteDialog
          columns={q.vectorFields}
          onClose={() => q.setPasteOpen(false)}
          onSearch={(column, vector) => {
            q.setPasteOpen(false)
            q.searchSimilar(column, vector, 'a pasted vector')
          }}
        />
      )}
      {q.menu && <CellMenu x={q.menu.x} y={q.menu.y} items={q.menuItems(q.menu)} onClose={() => q.setMenu(null)} />}
    </>
  )
}
