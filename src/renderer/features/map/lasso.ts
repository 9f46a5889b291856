import { MAX_PREDICATE_LENGTH } from '../../../contract'

/**
 * The grid filter a lasso makes: the chosen rows by their offset in the table, `_rowoffset IN (…)` — the one
 * form of a row-position filter Lance takes (it answers it by taking those rows; a range or comparison on
 * `_rowoffset` is refused). Null when the list is longer than a filter may be (MAX_PREDICATE_LENGTH: about 2,000
 * offsets of a million-row table): the caller says so instead of filtering to part of the rows.
 */
export function lassoPredicate(rows: readonly number[]): string | null {
  const sorted = [...new Set(rows)].sort((a, b) => a - b)
  if (sorted.length === 0) return null
  const predicate = `_rowoffset IN (${sorted.join(',')})`
  return predicate.length <= MAX_PREDICATE_LENGTH ? predicate : null
}
