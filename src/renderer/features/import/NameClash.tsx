import type { ImportMode, ImportPreview } from '../../../contract'
import { formatCount, namespaceLabel } from '../../lib/format'

/**
 * The name is taken: said at the top of the sheet (where it is seen, not below the schema), with what can be done —
 * Append when the file's columns match the table's, Overwrite, or another name.
 */
export function NameClash({ name, namespace, existing, setMode }: { name: string; namespace: readonly string[]; existing: NonNullable<ImportPreview['existing']>; setMode: (mode: ImportMode) => void }) {
  const matches = existing.schemaDiff === null
  return (
    <div className="import-clash" role="alert" aria-label="Name taken">
      <div>
        A table named <strong>“{name}”</strong> already exists in {namespaceLabel(namespace)} ({formatCount(existing.rowCount)} rows).{' '}
        {matches ? 'Its columns match the file’s: the rows can be appended to it.' : 'Its columns differ from the file’s (see Mode), so rows cannot be appended to it.'} Or type another name.
      </div>
      <div className="import-clash-actions">
        {matches && (
          <button type="button" className="button small primary" onClick={() => setMode('append')}>
            Append to “{name}”
          </button>
        )}
        <button type="button" className="button small" onClick={() => setMode('overwrite')}>
          Overwrite…
        </button>
      </div>
    </div>
  )
}
