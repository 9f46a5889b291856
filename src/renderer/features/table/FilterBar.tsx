import { forwardRef, useEffect, useId, useImperativeHandle, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { AppErrorData, PredicateHint } from '../../../contract'
import { Spinner } from '../../components/Spinner'
import { FilterError, FilterWarnings } from './FilterNotes'
import { RecentFilters } from './RecentFilters'
import { TextSearch } from './TextSearch'
import './query.css'

export interface FilterBarHandle {
  focus(): void
}

/**
 * The **Filter rows** box (a SQL predicate in Lance's `where` dialect): Enter applies, Escape or an empty box
 * clears. A refused predicate shows its message under the box (role `alert`, the box's description) and, when core
 * knows where in the text the error stands (`error.span`: the token a filter that does not parse stopped at), a
 * wavy underline under that token in the box; the grid keeps its rows.
 * A predicate that may mean something else than it says (src/contract/predicate.ts: a column name in quotes,
 * a name that matches a column only up to case or spaces) gets a warning under the box with the fix as a button.
 * A list of recent filters for this table (RecentFilters). The **Full-text search** box (TextSearch) appears only
 * when an FTS index exists.
 */
export const FilterBar = forwardRef<
  FilterBarHandle,
  {
    filter: string
    onApply: (filter: string) => void
    error: AppErrorData | null
    onEdit: () => void
    /** The box says what the screen shows again (edited back, or emptied with nothing applied): a refused question is dropped. */
    onSettle?: () => void
    applying: boolean
    recent: string[]
    /** Columns with an FTS index; the search box shows only when there are some. */
    ftsColumns: string[]
    textQuery: string
    onTextSearch: (query: string) => void
    /** The catalog cannot filter (a REST server answered "unsupported"): the box is disabled with this reason. */
    disabledReason?: string
    /** What the last predicate tried may mean instead (shown while the box still holds that predicate). */
    hints?: { filter: string; items: readonly PredicateHint[] } | null
    /** The view is narrowed to a row set (the map's lasso): what it is, shown in the box ("lasso: 5,000 rows of version 3"). */
    rowSet?: string
    /** Back to the whole table (the filter, if any, stays). Escape in an empty box does it too. */
    onClearRowSet?: () => void
  }
>(function FilterBar({ filter, onApply, error, onEdit, applying, recent, ftsColumns, textQuery, onTextSearch, disabledReason, hints, rowSet, onClearRowSet, onSettle }, ref) {
  const [draft, setDraft] = useState(filter)
  const [recentOpen, setRecentOpen] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const errorId = useId()
  const hintId = useId()
  const listId = useId()
  const shownHints = hints && hints.filter === draft.trim() ? hints.items : []
  const mirror = useRef<HTMLSpanElement>(null)
  // The part of the box the error is about (core's span is in the trimmed filter that was applied).
  const lead = draft.length - draft.trimStart().length
  const span = error?.span && error.span.end <= draft.trim().length ? { start: lead + error.span.start, end: lead + Math.max(error.span.end, error.span.start + 1) } : null
  // The underline is drawn in a copy of the text behind the box: it scrolls with the box's text.
  useLayoutEffect(() => {
    if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft
  })
  useImperativeHandle(ref, () => ({ focus: () => input.current?.select() }), [])
  // A quick filter (context menu) changes the applied filter: show it.
  useEffect(() => setDraft(filter), [filter])

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault()
      setRecentOpen(false)
      onApply(draft.trim())
    } else if (event.key === 'Escape') {
      event.preventDefault()
      setRecentOpen(false)
      setDraft('')
      if (filter !== '') onApply('')
      else if (rowSet) onClearRowSet?.()
      else (onSettle ?? onEdit)()
    } else if (event.key === 'ArrowDown' && recent.length > 0) {
      event.preventDefault()
      setRecentOpen(true)
      requestAnimationFrame(() => document.getElementById(listId)?.querySelector<HTMLElement>('[role="option"]')?.focus())
    }
  }

  return (
    <div className="query-bar">
      <div className="filter-field">
        <label className="filter-label" htmlFor={`${listId}-input`}>
          WHERE
        </label>
        {rowSet && (
          <span className="row-set-chip" role="status" aria-label="Row set">
            <span>{rowSet}</span>
            <button type="button" className="icon-button" aria-label="Clear the lasso" title="Show the whole table again" onClick={onClearRowSet}>
              ×
            </button>
            {/* The box's filter, if any, applies to these rows. */}
            <span aria-hidden="true">AND</span>
          </span>
        )}
        <span className="filter-input-wrap">
          {span && (
            <span ref={mirror} className="filter-input-mirror" aria-hidden="true">
              {draft.slice(0, span.start)}
              <mark className="filter-error-token" data-testid="filter-error-token">
                {draft.slice(span.start, span.end) || ' '}
              </mark>
              {draft.slice(span.end)}
            </span>
          )}
          <input
            ref={input}
            id={`${listId}-input`}
            className="filter-input"
            type="text"
            aria-label="Filter rows"
            placeholder={disabledReason ? `Filtering is unavailable: ${disabledReason}` : "Filter rows: score > 0.5 AND title LIKE '%Zürich%'  (Enter applies, Esc clears)"}
            disabled={disabledReason !== undefined}
            title={disabledReason}
            spellCheck={false}
            autoComplete="off"
            value={draft}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? errorId : '', shownHints.length > 0 ? hintId : ''].join(' ').trim() || undefined}
            onChange={(event) => {
              setDraft(event.target.value)
              if (event.target.value.trim() === filter) onSettle?.()
              else if (error) onEdit()
              // An emptied box clears the filter.
              if (event.target.value.trim() === '' && filter !== '') onApply('')
            }}
            onKeyDown={onKeyDown}
            onScroll={() => {
              if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft
            }}
            onSelect={() => {
              if (mirror.current && input.current) mirror.current.scrollLeft = input.current.scrollLeft
            }}
          />
        </span>
        {applying && <Spinner label="Applying the filter" />}
        {recent.length > 0 && (
          <button type="button" className="icon-button recent-button" aria-label="Recent filters" aria-expanded={recentOpen} onClick={() => setRecentOpen(!recentOpen)}>
            ▾
          </button>
        )}
        {recentOpen && (
          <RecentFilters
            id={listId}
            recent={recent}
            filter={filter}
            input={input}
            onPick={(f) => {
              setRecentOpen(false)
              setDraft(f)
              onApply(f)
            }}
            onClose={() => setRecentOpen(false)}
          />
        )}
      </div>
      {ftsColumns.length > 0 && <TextSearch ftsColumns={ftsColumns} textQuery={textQuery} onTextSearch={onTextSearch} />}
      {error && <FilterError id={errorId} error={error} span={span} />}
      {shownHints.length > 0 && (
        <FilterWarnings
          id={hintId}
          hints={shownHints}
          onFix={(fixed) => {
            setDraft(fixed)
            onApply(fixed)
          }}
        />
      )}
    </div>
  )
})
