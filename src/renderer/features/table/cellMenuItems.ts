import type { FieldInfo } from '../../../contract'
import { formatCount } from '../../lib/format'
import { andFilter, quickFilterPredicate, type QuickFilter } from '../../lib/sql'
import type { CellMenuItem } from './CellMenu'

const QUICK_TYPES = /^(u?int\d*|float\d*|double|utf8|largeutf8|bool(ean)?)$/i

export interface MenuState {
  x: number
  y: number
  row: number
  column: string
  valueOf: (column: string) => unknown
  /** Items the grid adds (copy, inspect), shown after the query items. */
  extra?: CellMenuItem[]
}

interface MenuDeps {
  fields: readonly FieldInfo[]
  vectorFields: readonly FieldInfo[]
  filter: string | undefined
  applyFilter(filter: string): Promise<void> | void
  searchSimilar(column: string, vector: number[], source: string): void
  /** Why this connection refuses vector search, if it does. */
  vectorSearchRefused: string | undefined
  /** The links feature's **Copy link to this view** naming this row (TableView passes it). */
  linkItem?: (row: number) => CellMenuItem
}

/** A cell's context menu: quick filters on its value, **Find similar rows** by its row's vector, then the grid's own items. */
export function cellMenuItems(m: MenuState, { fields, vectorFields, filter, applyFilter, searchSimilar, vectorSearchRefused, linkItem }: MenuDeps): CellMenuItem[] {
  const field = fields.find((f) => f.name === m.column)
  const value = m.valueOf(m.column)
  const comparable = field !== undefined && QUICK_TYPES.test(field.type) && !m.column.startsWith('_')
  const quick = (kind: QuickFilter) => () => {
    const predicate = quickFilterPredicate(kind, m.column, value)
    if (predicate) void applyFilter(andFilter(filter, predicate))
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
      disabled: !vectorField ? 'This table has no vector column' : !vector ? 'This row has no vector' : vectorSearchRefused,
    },
    // Before the grid's items, so the menu still ends on Inspect cell.
    ...(linkItem ? [{ ...linkItem(m.row), separatorBefore: true }] : []),
    ...(m.extra ?? []).map((item, i) => (i === 0 ? { ...item, separatorBefore: true } : item)),
  ]
}
