import type { Table as ArrowTable } from 'apache-arrow'
import { useCallback, useEffect, useState } from 'react'
import type { AppErrorData, TableInfo, TableRef } from '../../../contract'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { RefreshIcon, SchemaIcon, TableIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { GridStatusBar, useGridStatusStore } from './GridStatusBar'
import { ColumnsMenu } from './ColumnsMenu'
import { ExportSheet } from '../export'
import { DataGrid, type ColumnVisibility } from './DataGrid'
import { SchemaPanel } from './SchemaPanel'
import { type PageSeed } from './usePages'
import { openTable } from './tableOpening'
import { useTableQueries } from './useTableQueries'
import { useEscapeLayer } from './panelStack'
import { SummaryPanel } from '../profile'
import { LifecycleButtons, LifecyclePanelView, ReadOnlyBadge, useTableLifecycle } from '../lifecycle'
import { formatCount } from '../../lib/format'

/** How long an opened table waits for its first page before showing the grid without rows. */
const SEED_WAIT_MS = 150

type Loaded = { state: 'loading' } | { state: 'error'; error: AppErrorData } | { state: 'ready'; info: TableInfo }

/** The right pane for one table: header, schema panel, data grid, status bar. */
export function TableView({ tableRef: latestRef, connectionLabel, writeBlock }: { tableRef: TableRef; connectionLabel: string; writeBlock?: string }) {
  // Versions, Indexes and Stats panels; `tableRef` below is the version being read (the latest unless one is open).
  const lifecycle = useTableLifecycle(latestRef)
  const tableRef = lifecycle.viewRef
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const [schemaOpen, setSchemaOpen] = useState(false)
  const [visibility, setVisibility] = useState<ColumnVisibility>({})
  const status = useGridStatusStore()
  const [seed, setSeed] = useState<PageSeed | undefined>(undefined)
  const [initialPage, setInitialPage] = useState<ArrowTable | undefined>(undefined)
  const [exporting, setExporting] = useState(false)
  const [summaryOpen, setSummaryOpen] = useState(false)
  // Escape closes the side panel opened last (panelStack.ts), whichever it is.
  useEscapeLayer(schemaOpen, () => setSchemaOpen(false))
  useEscapeLayer(summaryOpen, () => setSummaryOpen(false))
  useEscapeLayer(lifecycle.panel !== null, () => lifecycle.setPanel(null))

  useEffect(() => {
    let live = true
    // The first page is asked for together with the description: opening a table costs one round trip
    // (started by the tree click when it can be: tableOpening.ts).
    const { describe, page: promise, controller } = openTable(tableRef)
    describe
      .then(async (info) => {
        // When the first page follows closely, show the grid with its rows at once (one render, one paint).
        const first = await Promise.race([promise.catch(() => undefined), new Promise<undefined>((resolve) => setTimeout(resolve, SEED_WAIT_MS))])
        if (!live) return
        // Both are set every time: after a reload, neither may be the previous attempt's.
        setInitialPage(first)
        setSeed(first ? undefined : { promise, controller })
        setLoaded({ state: 'ready', info })
      })
      .catch((error: unknown) => {
        controller.abort()
        if (live) setLoaded({ state: 'error', error: errorData(error) })
      })
    return () => {
      live = false
      controller.abort()
    }
  }, [tableRef, attempt])

  const reload = useCallback(() => {
    setLoaded({ state: 'loading' })
    setAttempt((a) => a + 1)
  }, [])

  const path = [connectionLabel, ...tableRef.namespace]
  const info = loaded.state === 'ready' ? loaded.info : null
  // Filter, sort, go to row, similar rows, text search, version hint (useTableQueries.tsx).
  const q = useTableQueries(tableRef, connectionLabel, info, reload)

  return (
    <section className="table-view" aria-label={`Table ${tableRef.name}`}>
      <header className="table-header">
        <TableIcon className="table-header-icon" />
        <div className="table-title">
          <h1 className="table-name">{tableRef.name}</h1>
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
            <dt data-testid="row-count-label">{q.countLabel}</dt>
            <dd
              data-testid="row-count"
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
        <ReadOnlyBadge lifecycle={lifecycle} />
        <div className="toolbar">
          {q.toolbar}
          <LifecycleButtons lifecycle={lifecycle} disabled={!info} />
          {info && <ColumnsMenu fields={info.schema} visibility={visibility} onChange={setVisibility} />}
          <button type="button" className="button" disabled={!info} onClick={() => setExporting(true)}>
            Export…
          </button>
          <button type="button" className="button" aria-pressed={summaryOpen} disabled={!info} onClick={() => setSummaryOpen(!summaryOpen)}>
            Summary
          </button>
          <button type="button" className="button" aria-pressed={schemaOpen} disabled={!info} onClick={() => setSchemaOpen(!schemaOpen)}>
            <SchemaIcon />
            Schema
          </button>
          <button type="button" className="icon-button" aria-label="Reload table" title="Reload table" onClick={reload}>
            <RefreshIcon />
          </button>
        </div>
      </header>
      {q.bars}
      <div className="table-body">
        {loaded.state === 'loading' && (
          <div className="placeholder">
            <Spinner label="Opening table" /> Opening {tableRef.name}…
          </div>
        )}
        {loaded.state === 'error' && (
          <div className="placeholder">
            <ErrorPanel error={loaded.error} title={`Could not open ${tableRef.name}`} actions={[{ label: 'Try again', run: reload }]} />
          </div>
        )}
        {info && (
          <DataGrid
            // One grid per table version: a filter or sort is a new view of the same grid (it resets itself).
            key={`${attempt}:${info.version}`}
            tableRef={tableRef}
            label={tableRef.name}
            rowCount={q.count}
            fields={q.fields}
            columnVisibility={visibility}
            onColumnVisibilityChange={setVisibility}
            onStatus={status.report}
            seed={q.plain ? seed : undefined}
            initialPage={q.firstPage ?? (q.plain ? initialPage : undefined)}
            {...q.gridProps}
          />
        )}
        {info && summaryOpen && <SummaryPanel tableRef={tableRef} version={q.gridProps.view?.version ?? info.version} filter={q.filter} searching={!!q.gridProps.view?.search} onFilter={q.addFilter} onClose={() => setSummaryOpen(false)} />}
        {info && schemaOpen && <SchemaPanel fields={info.schema} onClose={() => setSchemaOpen(false)} />}
        {info && exporting && (
          <ExportSheet
            tableRef={tableRef}
            // The view the grid shows (version, filter, sort, search) with its visible columns.
            view={{ ...(q.gridProps.view ?? { version: info.version }), ...(info.schema.some((f) => visibility[f.name] === false) ? { columns: info.schema.filter((f) => visibility[f.name] !== false).map((f) => f.name) } : {}) }}
            // The view's count (what the file will hold), not the table's.
            rowCount={q.count}
            tableRows={info.rowCount}
            columnCount={info.schema.filter((f) => visibility[f.name] !== false).length}
            totalColumns={info.schema.length}
            onClose={() => setExporting(false)}
          />
        )}
        <LifecyclePanelView lifecycle={lifecycle} tableRef={latestRef} fields={info?.schema ?? []} writeBlock={writeBlock} onChanged={reload} />
      </div>
      <GridStatusBar store={status} count={q.count} ready={info !== null} />
      {q.overlays}
    </section>
  )
}
