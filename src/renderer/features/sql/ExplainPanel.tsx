import type { SqlExplain } from '../../../contract'

/** A table's name as the query names it, `ns.sub.table @ version 3`, and the other open catalog it came from. */
const tableName = (scan: { namespace: readonly string[]; name: string; version: number; catalog?: string }) =>
  `${[...scan.namespace, scan.name].join('.')} @ version ${scan.version}${scan.catalog !== undefined ? ` · catalog ${scan.catalog}` : ''}`

/**
 * **Explain**: per catalog table, what was pushed into Lance — the columns read, the filter handed over (or why a
 * predicate was not), the limit — then DuckDB's plan as it printed it.
 */
export function ExplainPanel({ explain, onClose }: { explain: SqlExplain; onClose(): void }) {
  return (
    <section className="sql-explain" aria-label="Plan">
      <button type="button" className="button sql-explain-close" onClick={onClose}>
        Close plan
      </button>
      {explain.scans.length === 0 && <p className="muted">This statement reads no catalog table.</p>}
      {explain.scans.map((scan, i) => (
        <div key={i} className="sql-scan">
          <h3>{tableName(scan)}</h3>
          <dl>
            <dt>Columns read</dt>
            <dd>{scan.columns.length ? scan.columns.join(', ') : 'none (only the row count)'}</dd>
            <dt>Filter handed to Lance</dt>
            <dd>{scan.filter ? <code>{scan.filter}</code> : 'none'}</dd>
            {scan.notPushed.length > 0 && (
              <>
                <dt>Filtered by DuckDB</dt>
                <dd>
                  <ul>
                    {scan.notPushed.map((reason, j) => (
                      <li key={j}>{reason}</li>
                    ))}
                  </ul>
                </dd>
              </>
            )}
            <dt>Limit</dt>
            <dd>{scan.limit === null ? 'none (Lance reads every row that passes its filter)' : `Lance stops after ${scan.limit.toLocaleString('en-US')} rows`}</dd>
          </dl>
        </div>
      ))}
      <h3>DuckDB’s plan</h3>
      <pre className="sql-plan">{explain.plan}</pre>
    </section>
  )
}
