import { useRef, type ReactNode } from 'react'
import type { SqlQueryInfo } from '../../../contract'
import { DockLayout, type DockedPanel } from '../../components/dock/DockLayout'
import { useNarrow } from '../../components/dock/useDockState'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { PanelHeader } from '../../components/PanelHeader'
import { Spinner } from '../../components/Spinner'
import { useEscapeLayer } from '../table'
import type { ResultViews } from './useResultViews'

/** Under this width the docks become one drawer over the result (as the table view's). */
const DRAWER_BELOW = 760

/**
 * The result grid with the docks of its panels (Summary, Map) and its sheet (Export…), read from the result opened
 * as a table: while it is copied a panel says so, a refusal (a result too long) shows in its place in words.
 */
export function ResultDock({ views, info, grid }: { views: ResultViews; info: SqlQueryInfo; grid: ReactNode }) {
  const body = useRef<HTMLDivElement>(null)
  const narrow = useNarrow(body, DRAWER_BELOW)
  const { table, dock } = views
  const opened = table.data?.queryId === info.queryId ? table.data : null
  const waiting = (title: string, id: string) => (
    <section className="side-panel" aria-label={title}>
      <PanelHeader title={title} onClose={() => dock.close(id)} />
      <div className="placeholder">
        {table.isError ? (
          <ErrorPanel error={errorData(table.error)} title={`Could not open the result for the ${title}`} />
        ) : views.ready ? (
          <>
            <Spinner label="Opening the result" /> Opening the result as a table…
          </>
        ) : (
          'The query has no result to open.'
        )}
      </div>
    </section>
  )
  const docked: DockedPanel[] = dock.open.flatMap((id) => {
    const panel = views.panels.find((p) => p.id === id)
    if (!panel) return []
    return [{ id, title: panel.title, dock: panel.dock, node: opened ? panel.render(views.context(panel, opened)) : waiting(panel.title, id) }]
  })
  const sheet = views.sheets.find((s) => s.id === views.sheet)
  const rows = opened?.info.rowCount ?? 0
  const columns = opened?.info.schema.length ?? 0
  return (
    <div className="query-result" ref={body}>
      {(views.note || opened?.renamed || (sheet && (table.isError || !opened))) && (
        <div className="sql-note" role="note">
          {views.note && (
            <>
              {views.note}{' '}
              <button type="button" className="button small" onClick={views.clearNote}>
                Dismiss
              </button>
            </>
          )}
          {opened?.renamed && <div>Named for Lance in the Summary, the Map and exports (a dot is not allowed in a column name there): {opened.renamed.map((r) => `${r.from} → ${r.to}`).join(', ')}</div>}
          {sheet && table.isError && <ErrorPanel error={errorData(table.error)} title="Could not open the result for Export…" compact actions={[{ label: 'Close', run: views.closeSheet }]} />}
          {sheet && !table.isError && !opened && (
            <>
              <Spinner label="Opening the result" /> Opening the result as a table for {sheet.label}
            </>
          )}
        </div>
      )}
      <DockLayout main={<div className="table-main">{grid}</div>} panels={docked} active={dock.active} onSelect={dock.select} narrow={narrow} />
      {sheet && opened && sheet.render({ tableRef: opened.tableRef, view: { version: opened.info.version }, rowCount: rows, tableRows: rows, columnCount: columns, totalColumns: columns, close: views.closeSheet })}
      {narrow ? docked.length > 0 && <EscapeLayer key="drawer" close={dock.closeAll} /> : docked.map((p) => <EscapeLayer key={p.id} close={() => dock.close(p.id)} />)}
    </div>
  )
}

/** Escape closes the panel opened last (the layers stack in opening order); in the drawer, every panel. */
function EscapeLayer({ close }: { close(): void }) {
  useEscapeLayer(true, close)
  return null
}
