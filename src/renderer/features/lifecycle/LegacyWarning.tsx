/**
 * What a write does to a legacy-format table's old writer, said before the write: after this app (lancedb 0.31)
 * builds an index on, or optimizes, a table in the legacy (v1) data format, vectordb 0.4.x's own filtered queries
 * on it panic (count, scan and vector search still work; newer releases are not affected).
 */
export function LegacyWarning({ action }: { action: string }) {
  return (
    <div className="field-error legacy-warning" role="alert">
      <strong>This table is in the legacy (v1) data format</strong>, which vectordb 0.4.x writes. After {action}, vectordb 0.4.x’s own filtered
      queries on this table fail (it panics); counting, scanning and vector search there still work, and newer releases are not affected. Go on only if no
      pipeline reads this table with vectordb 0.4.x.
    </div>
  )
}
