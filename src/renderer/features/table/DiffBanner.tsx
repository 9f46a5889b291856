import type { DiffResult } from '../../../contract'
import { formatCount } from '../../lib/format'

export type DiffSide = 'added' | 'deleted' | 'changed'

const SIDES: { side: DiffSide; label: string }[] = [
  { side: 'added', label: 'Added' },
  { side: 'deleted', label: 'Deleted' },
  { side: 'changed', label: 'Changed' },
]

/**
 * The header of the changes between two versions: both versions, the three counts (each a button that shows
 * those rows in the grid) and what the comparison read. Deleted rows are rows of the older version; added and
 * changed ones of the newer, so the grid, its filter and Export read that version.
 */
export function DiffBanner({ result, side, onSide, onClose }: { result: DiffResult; side: DiffSide; onSide(side: DiffSide): void; onClose(): void }) {
  const summary = `Changes from version ${result.from} to version ${result.to}: ${formatCount(result.added)} added, ${formatCount(result.deleted)} deleted, ${formatCount(result.changed)} changed`
  const schemaNotes = [
    ...result.schema.added.map((f) => `+${f.name}`),
    ...result.schema.removed.map((f) => `−${f.name}`),
    ...result.schema.changed.map((c) => `~${c.name}`),
  ]
  return (
    <div className="diff-banner" role="region" aria-label={summary}>
      <div className="diff-banner-title">
        <span>
          Changes v{result.from} → v{result.to}
        </span>
        <span className="muted small"> by {result.key}</span>
      </div>
      <div className="diff-banner-sides" role="group" aria-label="Rows shown">
        {SIDES.map(({ side: s, label }) => (
          <button key={s} type="button" className={`button small diff-side diff-side-${s}`} aria-pressed={side === s} onClick={() => onSide(s)}>
            {label} <span data-testid={`diff-${s}`}>{formatCount(result[s])}</span>
          </button>
        ))}
      </div>
      <div className="diff-banner-notes muted small" data-testid="diff-notes">
        rows of v{side === 'deleted' ? result.from : result.to}
        {result.readAllColumns ? ` · read every row of both versions (${formatCount(result.rows.from + result.rows.to)} rows)` : ' · read the key column of both versions, and whole only the rows Lance had rewritten'}
        {schemaNotes.length > 0 ? ` · schema changed: ${schemaNotes.join(', ')} (compared: ${result.compared.join(', ') || 'the key only'})` : ''}
        {result[side] > result.keys[side].length ? ` · the grid shows ${formatCount(result.keys[side].length)} of these ${formatCount(result[side])} rows (a view names at most ${formatCount(result.keys[side].length)} keys)` : ''}
      </div>
      <button type="button" className="link-button" onClick={onClose}>
        Close changes
      </button>
    </div>
  )
}
