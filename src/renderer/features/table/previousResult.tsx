import type { SortKey } from '../../../contract'
import { formatCount } from '../../lib/format'
import type { PendingView, ViewChoice } from './useTableView'

/** Sort keys in words: "score descending, id ascending". */
function sortWords(sort: readonly SortKey[]): string {
  return sort.map((s) => `${s.column} ${s.direction === 'desc' ? 'descending' : 'ascending'}`).join(', ')
}

function searchWords(search: NonNullable<ViewChoice['search']>): string {
  return search.kind === 'fts' ? `the search “${search.query}”` : `the similar-rows search in ${search.column} (k = ${formatCount(search.k)})`
}

/** What the screen answers, in words: "the filter `id < 100`, sorted by score descending", or "the whole table". */
export function describeChoice(choice: ViewChoice): string {
  const parts: string[] = []
  if (choice.rowSet) parts.push(`the lasso’s ${formatCount(choice.rowSet.rows)} rows`)
  if (choice.filter?.trim()) parts.push(`the filter ${choice.filter.trim()}`)
  if (choice.search) parts.push(searchWords(choice.search))
  if (parts.length === 0) parts.push('the whole table')
  if (choice.sort?.length) parts.push(`sorted by ${sortWords(choice.sort)}`)
  return parts.join(', ')
}

/** What the user asked for that the screen does not show, in words (only what differs from the view on screen). */
export function describeAsked(shown: ViewChoice, asked: ViewChoice): string {
  const parts: string[] = []
  const shownFilter = shown.filter?.trim() ?? ''
  const askedFilter = asked.filter?.trim() ?? ''
  if (askedFilter !== shownFilter) parts.push(askedFilter ? `the filter ${askedFilter}` : 'clearing the filter')
  if (JSON.stringify(asked.sort ?? []) !== JSON.stringify(shown.sort ?? [])) parts.push(asked.sort?.length ? `sorting by ${sortWords(asked.sort)}` : 'removing the sort')
  if (JSON.stringify(asked.search ?? null) !== JSON.stringify(shown.search ?? null)) parts.push(asked.search ? searchWords(asked.search) : 'clearing the search')
  if (asked.rowSet?.id !== shown.rowSet?.id) parts.push(asked.rowSet ? `the lasso’s ${formatCount(asked.rowSet.rows)} rows` : 'clearing the lasso')
  return parts.length > 0 ? parts.join(' and ') : 'the same view again'
}

/**
 * The note above the grid while a newer question is running or after it was refused: the rows and count on
 * screen are the previous result, named as such, never the answer to the text now in the filter box.
 */
export function PreviousResultNote({ pending, shown, count }: { pending: PendingView; shown: ViewChoice; count: number }) {
  const asked = describeAsked(shown, pending.choice)
  return (
    <div className={`previous-result previous-result-${pending.state}`} role="status" aria-label="Previous result" data-testid="previous-result">
      <strong>Previous result</strong>
      <span>
        {' '}
        — the {formatCount(count)} {count === 1 ? 'row' : 'rows'} shown {count === 1 ? 'is' : 'are'} for {describeChoice(shown)}.{' '}
        {pending.state === 'running' ? `Waiting for ${asked}…` : `${capitalize(asked)} could not be applied (the message is above).`}
      </span>
    </div>
  )
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
