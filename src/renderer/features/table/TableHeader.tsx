import type { ReactNode } from 'react'
import type { TableInfo, TableRef } from '../../../contract'
import { TableIcon } from '../../components/Icons'
import { formatCount } from '../../lib/format'
import type { TableQueries } from './useTableQueries'

/** The table view's header: the table's name and namespace, its counts and version, a version badge and the toolbar (its children). */
export function TableHeader({ tableRef, connectionLabel, info, q, badge, share, children }: { tableRef: TableRef; connectionLabel: string; info: TableInfo | null; q: TableQueries; badge: ReactNode; share?: ReactNode; children: ReactNode }) {
  const path = [connectionLabel, ...tableRef.namespace]
  return (
    <header className="table-header">
      <TableIcon className="table-header-icon" />
      <div className="table-title">
        {/* Copy link to this view sits by the name it links to (the toolbar is full at 1280 px). */}
        <div className="table-name-line">
          <h1 className="table-name">{tableRef.name}</h1>
          {share}
        </div>
        <div className="table-path" aria-label="Namespace">
          {path.map((part, i) => (
            <span key={i} className="path-part">
              {part}
            </span>
          ))}
        </div>
      </div>
      <dl className="table-facts">
        <div>
          <dt data-testid="row-count-label">{q.stale ? `${q.countLabel} (previous result)` : q.countLabel}</dt>
          <dd
            data-testid="row-count"
            className={q.stale ? 'stale-count' : undefined}
            title={
              q.narrowed && info
                ? q.gridProps.view.search
                  ? `${formatCount(q.count)} results (limit ${formatCount(q.gridProps.view.search.k)}) in a table of ${formatCount(info.rowCount)} rows`
                  : `${formatCount(q.count)} of ${formatCount(info.rowCount)} rows`
                : undefined
            }
          >
            {info ? formatCount(q.count) : '—'}
          </dd>
        </div>
        <div>
          <dt>Columns</dt>
          <dd>{info ? info.schema.length : '—'}</dd>
        </div>
        <div>
          <dt>Version</dt>
          <dd data-testid="table-version">{info ? info.version : '—'}</dd>
        </div>
      </dl>
      {badge}
      {children}
    </header>
  )
}
