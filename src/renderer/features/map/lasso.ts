/** The grid filter a lasso makes: the chosen rows by their offset in the table (Lance's `_rowoffset`). */
export function lassoPredicate(rows: number[]): string {
  const sorted = [...rows].sort((a, b) => a - b)
  return `_rowoffset IN (${sorted.join(', ')})`
}
