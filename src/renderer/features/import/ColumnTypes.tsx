import type { ImportColumnInfo, ImportColumnType } from '../../../contract'
import { formatCount } from '../../lib/format'

const LABELS: Record<ImportColumnType, string> = {
  text: 'text',
  integer: 'integer (Int64)',
  float: 'number (Float64)',
  boolean: 'true/false',
  date: 'date',
  timestamp: 'date-time',
  timestamptz: 'date-time with zone (UTC)',
}

/**
 * The columns of a CSV or JSON file as inferred from its first rows: the type (changeable before import),
 * why it was chosen where that is not obvious, and how many sampled cells are empty (they become nulls).
 */
export function ColumnTypes({ columns, onChange }: { columns: readonly ImportColumnInfo[]; onChange(column: string, type: ImportColumnType | null): void }) {
  const sampled = columns[0]?.sampledRows ?? 0
  return (
    <section className="import-section" aria-label="Column types">
      <h3>
        Column types <span className="muted small">inferred from the first {formatCount(sampled)} rows; change any before importing</span>
      </h3>
      <table className="import-columns">
        <thead>
          <tr>
            <th scope="col">Column</th>
            <th scope="col">Import as</th>
            <th scope="col">Why / empty cells</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c) => (
            <tr key={c.name}>
              <td>
                <code className="import-field-name">{c.name}</code>
              </td>
              <td>
                <select
                  className="text-input small"
                  aria-label={`Type of ${c.name}`}
                  value={c.choice ?? ''}
                  onChange={(e) => onChange(c.name, e.target.value === '' ? null : (e.target.value as ImportColumnType))}
                >
                  {c.inferred === null && <option value="">{c.type} (as in the file)</option>}
                  {c.choices.map((t) => (
                    <option key={t} value={t}>
                      {LABELS[t]}
                      {t === c.inferred ? ' — inferred' : ''}
                    </option>
                  ))}
                </select>
              </td>
              <td className="small">
                {c.reason && <div className="import-reason">{c.reason}</div>}
                {c.nulls > 0 && (
                  <div className="muted">
                    {formatCount(c.nulls)} of {formatCount(c.sampledRows)} empty → null
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
