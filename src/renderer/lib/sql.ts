/**
 * SQL text for quick filters, in Lance's `where` dialect (DataFusion): identifiers in backticks (a backtick
 * doubled), string literals in single quotes (a quote doubled), int64 values written out exactly.
 */

/** SQL words that cannot stand as a bare column name. */
const KEYWORDS = new Set(
  'all and any as asc between by case cast desc distinct else end exists false from group having in is join like limit not null on or order select then true union when where'.split(' '),
)

/** Bare only for lower-case names that are not keywords (unquoted identifiers are lower-cased by the parser). */
export function quoteIdentifier(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) && !KEYWORDS.has(name) ? name : `\`${name.replace(/`/g, '``')}\``
}

export function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/** A cell value as a SQL literal, or null when it has none we can write (lists, structs, binary, vectors). */
export function sqlLiteral(value: unknown): string | null {
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (typeof value === 'string') return quoteString(value)
  return null
}

export type QuickFilter = 'equals' | 'excludes' | 'is-null'

/** The predicate of a quick filter on one cell; null when the value cannot be compared. */
export function quickFilterPredicate(kind: QuickFilter, column: string, value: unknown): string | null {
  const id = quoteIdentifier(column)
  if (kind === 'is-null') return `${id} IS NULL`
  if (value === null || value === undefined) return kind === 'equals' ? `${id} IS NULL` : `${id} IS NOT NULL`
  const literal = sqlLiteral(value)
  if (literal === null) return null
  return kind === 'equals' ? `${id} = ${literal}` : `(${id} IS NULL OR ${id} <> ${literal})`
}

/** Add a predicate to the current filter with AND (each side in parentheses). */
export function andFilter(current: string | undefined, predicate: string): string {
  const base = current?.trim()
  return base ? `(${base}) AND ${predicate}` : predicate
}
