import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { SortKey, TableRef } from '../../../contract'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { RefreshIcon, SchemaIcon, TableIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { GridStatusBar, useGridStatusStore } from './GridStatusBar'
import { ColumnsMenu } from './ColumnsMenu'
import { ExportSheet } from '../export'
import { DataGrid, type ColumnVisibility } from './DataGrid'
import { SchemaPanel } from './SchemaPanel'
import { describeQuery, tableScope } from './queries'
import { useTableQueries } from './useTableQueries'
import { useEscapeLayer } from './panelStack'
import { SummaryPanel, useHeaderHistograms } from '../profile'
import { MapPanel } from '../map'
import { Gallery, GalleryButton, useGallery } from './gallery'
import { LifecycleButtons, LifecyclePanelView, ReadOnlyBadge, useTableLifecycle, type LifecycleStart } from '../lifecycle'
import { formatCount } from '../../lib/format'
import { CopyLinkButton, copyViewLink, type LinkedView } from '../links'
import { useConnections } from '../../queries/connections'


/** What a tab (features/workbench) gives the view it holds: where it starts, and where it reports what it shows. */
export interface TableViewTabProps {
  /** A pinned version, a filter and sort to start from (a tab opened again, a split) and a diff (What changed). */
  start?: LifecycleStart & { filter?: string; sort?: SortKey[]; row?: number }
  /** The view's version, filter and sort as they change (the tab's label, the remembered tabs). */
  onViewChange?: (view: { version?: number; latest?: number; filter?: string; sort?: SortKey[] }) => void
  /** Close the tab: offered when the table cannot be opened (dropped elsewhere). */
  onCloseTab?: () => void
}

/** The right pane for one table: header, schema panel, data grid, status bar. */
export function TableView({ tableRef: latestRef, connectionLabel, writeBlock, start, onViewChange, onCloseTab }: { tableRef: TableRef; connectionLabel: string; writeBlock?: string } & TableViewTabProps) {
  // Versions, Indexes and Stats panels; `tableRef` below is the version being read (the latest unless one is open).
  const lifecycle = useTableLifecycle(latestRef, start)
  const tableRef = lifecycle.viewRef
  const client = useQueryClient()
  // The description (and, with it, the first page: queries.ts), usually already asked for by the tree's click.
  // Another version of the same table keeps showing the one on screen until its description is here.
  const described = useQuery({ ...describeQuery(client, tableRef), placeholderData: (previous) => previous })
  const [schemaOpen, setSchemaOpen] = useState(false)
  const [visibility, setVisibility] = useState<ColumnVisibility>({})
  const status = useGridStatusStore()
  const [exporting, setExporting] = useState(false)
  const [summaryOpen, setSummaryOpen] = useState(false)
  const [mapOpen, setMapOpen] = useState(false)
  // Escape closes the side panel opened last (panelStack.ts), whichever it is.
  useEscapeLayer(schemaOpen, () => setSchemaOpen(false))
  useEscapeLayer(summaryOpen, () => setSummaryOpen(false))
  useEscapeLayer(mapOpen, () => setMapOpen(false))
  useEscapeLayer(lifecycle.panel !== null, () => lifecycle.setPanel(null))

  // Read the table afresh (Reload, Try again): everything cached about it is dropped, so the view shows "Opening…"
  // again. A write's own staleness is its rule's (queries/invalidate.ts).
  const reload = useCallback(() => void client.resetQueries({ queryKey: tableScope(latestRef) }), [client, latestRef])
  // Leaving the table drops what was read of it: opening it again reads it afresh, as "open" promises. After the
  // unmount, and only when nothing shows it any more (a remount in development keeps it).
  const scope = JSON.stringify(tableScope(latestRef))
  useEffect(
    () => () => {
      const queryKey = JSON.parse(scope) as unknown[]
      setTimeout(() => {
        if (!client.getQueryCache().findAll({ queryKey }).some((query) => query.getObserversCount() > 0)) client.removeQueries({ queryKey })
      })
    },
    [client, scope],
  )

  const path = [connectionLabel, ...tableRef.namespace]
  const info = described.data ?? null
  // Filter, sort, go to row, similar rows, text search, version hint (useTableQueries.tsx).
  const [initialChoice] = useState(() => (start?.filter || start?.sort ? { filter: start.filter, sort: start.sort } : undefined))
  const connections = useConnections()
  // What a link to this view names (Copy link to this view): the pinned version, filter, sort and the selected row
  // (the active cell's, or the row whose context menu was opened). Set after each render: read when the user copies.
  const viewForLink = useRef<(row?: number) => LinkedView>(() => ({}))
  const linkItem = useCallback(
    (row: number) => ({ label: 'Copy link to this view', run: () => void copyViewLink(connections, latestRef, viewForLink.current(row)).catch(() => undefined) }),
    [connections, latestRef],
  )
  const q = useTableQueries(tableRef, connectionLabel, info, reload, lifecycle.diffKeys, initialChoice, linkItem)
  const [pinned, latest] = [lifecycle.opened?.version, lifecycle.opened?.latest]
  useEffect(() => {
    viewForLink.current = (row = status.get()?.active?.row) => ({
      ...(pinned !== undefined ? { version: pinned } : {}),
      ...(q.filter?.trim() ? { filter: q.filter } : {}),
      ...(q.gridProps.sort?.length ? { sort: q.gridProps.sort } : {}),
      ...(row !== undefined ? { row } : {}),
    })
  })
  // A link's selected row, selected once its view (filter, sort, version) is the one on screen and counted: the
  // grid's active cell belongs to one view (viewKey), so a row selected earlier would be dropped with it.
  const startRow = useRef(start?.row)
  const { goToRow, stale, count } = q
  const viewKey = q.gridProps.viewKey
  // The first render shows the table unfiltered; the start's filter and sort are applied after it.
  const startShown = (q.gridProps.view?.filter ?? '') === (start?.filter ?? '') && JSON.stringify(q.gridProps.view?.sort ?? []) === JSON.stringify(start?.sort ?? [])
  useEffect(() => {
    if (startRow.current === undefined || !info || stale || !viewKey || !startShown || startRow.current >= count) return
    goToRow(startRow.current)
    startRow.current = undefined
  }, [info, goToRow, stale, viewKey, startShown, count])
  useEffect(() => {
    onViewChange?.({ ...(pinned !== undefined ? { version: pinned, latest } : {}), ...(q.filter?.trim() ? { filter: q.filter } : {}), ...(q.gridProps.sort?.length ? { sort: q.gridProps.sort } : {}) })
  }, [onViewChange, pinned, latest, q.filter, q.gridProps.sort])
  // Image columns shown as thumbnails over the same view (table/gallery/); the grid stays mounted behind it.
  const gallery = useGallery(tableRef, info, q.gridProps.view?.version)
  // A histogram in each column header from the view's profile (profile feature); the grid only draws the strip.
  const histograms = useHeaderHistograms(tableRef, info ? (q.gridProps.view?.version ?? info.version) : undefined, q.filter, q.gridProps.view?.rowSet, q.addFilter)

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
        <ReadOnlyBadge lifecycle={lifecycle} />
        <div className="toolbar">
          {q.toolbar}
          <LifecycleButtons lifecycle={lifecycle} disabled={!info} />
          {info && <ColumnsMenu fields={info.schema} visibility={visibility} onChange={setVisibility} />}
          <button type="button" className="button" disabled={!info} onClick={() => setExporting(true)}>
            Export…
          </button>
          <GalleryButton gallery={gallery} disabled={!info} />
          {histograms.button(!info)}
          <button type="button" className="button" aria-pressed={summaryOpen} disabled={!info} onClick={() => setSummaryOpen(!summaryOpen)}>
            Summary
          </button>
          {info?.schema.some((f) => f.vectorDimension !== undefined) && (
            <button type="button" className="button" aria-pressed={mapOpen} onClick={() => setMapOpen(!mapOpen)}>
              Map
            </button>
          )}
          <button type="button" className="button" aria-pressed={schemaOpen} disabled={!info} onClick={() => setSchemaOpen(!schemaOpen)}>
            <SchemaIcon />
            Schema
          </button>
          <CopyLinkButton tableRef={latestRef} view={() => viewForLink.current()} disabled={!info} />
          <button type="button" className="icon-button" aria-label="Reload table" title="Reload table" onClick={reload}>
            <RefreshIcon />
          </button>
        </div>
      </header>
      {q.bars}
      <div className="table-body">
        {described.isPending && (
          <div className="placeholder">
            <Spinner label="Opening table" /> Opening {tableRef.name}…
          </div>
        )}
        {described.isError && !info && (
          <div className="placeholder">
            <ErrorPanel error={errorData(described.error)} title={`Could not open ${tableRef.name}`} actions={[{ label: 'Try again', run: reload }, ...(onCloseTab ? [{ label: 'Close tab', run: onCloseTab }] : [])]} />
          </div>
        )}
        {info && gallery.open && (
          <Gallery tableRef={tableRef} rowCount={q.count} fields={q.fields} view={q.gridProps.view} viewKey={q.gridProps.viewKey} columns={gallery.columns} onStatus={status.report} onClose={() => gallery.setOpen(false)} />
        )}
        {info && (
          // Dimmed while the rows answer an earlier question (the note above says which); a class, not a grid render.
          <div className={q.stale ? 'grid-host grid-stale' : 'grid-host'} hidden={gallery.open}>
            <DataGrid
              // One grid per description read (a reload, a write) and version: a filter or sort is a new view of the
              // same grid (it resets itself).
              key={`${described.dataUpdatedAt}:${info.version}`}
              tableRef={tableRef}
              label={tableRef.name}
              rowCount={q.count}
              fields={q.fields}
              columnVisibility={visibility}
              onColumnVisibilityChange={setVisibility}
              onStatus={gallery.open ? undefined : status.report}
              headerExtra={histograms.extra}
              {...q.gridProps}
            />
          </div>
        )}
        {info && summaryOpen && <SummaryPanel tableRef={tableRef} version={q.gridProps.view?.version ?? info.version} filter={q.filter} rowSet={q.gridProps.view?.rowSet} searching={!!q.gridProps.view?.search} onFilter={q.addFilter} onClose={() => setSummaryOpen(false)} />}
        {info && mapOpen && (
          <MapPanel
            tableRef={tableRef}
            version={q.gridProps.view?.version ?? info.version}
            fields={info.schema}
            gridNarrowed={q.narrowed || (q.gridProps.sort?.length ?? 0) > 0}
            onSelectRow={q.goToRow}
            onLasso={q.lasso}
            onClose={() => setMapOpen(false)}
          />
        )}
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
        <LifecyclePanelView lifecycle={lifecycle} tableRef={latestRef} fields={info?.schema ?? []} writeBlock={writeBlock} />
      </div>
      <GridStatusBar store={status} count={q.count} ready={info !== null} stale={q.stale} />
      {q.overlays}
    </section>
  )
}
