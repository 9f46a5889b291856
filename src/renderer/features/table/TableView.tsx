import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import type { SortKey, TableInfo, TableRef } from '../../../contract'
import { DockLayout, type DockedPanel } from '../../components/dock/DockLayout'
import { contributions, type PanelContext, type PanelContribution } from '../../components/dock/registry'
import { useDockState, useMeasuredNarrow } from '../../components/dock/useDockState'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { useShownOnce } from '../../components/shown'
import { Spinner } from '../../components/Spinner'
import { GridStatusBar, useGridStatusStore } from './GridStatusBar'
import { DataGrid, type ColumnVisibility } from './DataGrid'
import { describeQuery } from './queries'
import { useTableQueries } from './useTableQueries'
import { QueryBars, QueryOverlays, queryTools } from './QueryParts'
import { useEscapeLayer } from './panelStack'
import { Gallery, GalleryButton, useGallery } from './gallery'
import { TableHeader } from './TableHeader'
import { switchTools, TableToolbar } from './TableToolbar'
import { useTableScope } from './useTableScope'
import { useViewVersion, type ViewStart } from './useViewVersion'
import { useViewPlace, type ViewPlace } from './useViewPlace'
import { VersionBadge } from './VersionBadge'
import { useLinkedView, useLinkItem } from './useViewLink'
import { useOpenedPanels } from './useOpenedPanels'
import { CopyLinkButton } from '../links'

/** Narrower than this, the table body shows its panels in one drawer over the grid (a 900 px window, a split). */
const DRAWER_BELOW = 760

/** What a tab (features/workbench) gives the view it holds: where it starts, and where it reports what it shows. */
export interface TableViewTabProps {
  /** A pinned version, a filter and sort to start from (a tab opened again, a split) and a diff (What changed); a
   * restored tab's place too (its first row, active cell, panels, gallery: useViewPlace.ts). */
  start?: ViewStart & { filter?: string; sort?: SortKey[]; row?: number } & ViewPlace
  /** The view's version, filter, sort and place as they change (the tab's label, the remembered tabs). */
  onViewChange?: (view: { version?: number; latest?: number; filter?: string; sort?: SortKey[] } & ViewPlace) => void
  /** Close the tab: offered when the table cannot be opened (dropped elsewhere). */
  onCloseTab?: () => void
}

/**
 * The right pane for one table: header, filter bar, the grid (or gallery) with its docked panels, status bar.
 * Why long: it is the wiring of those parts (each its own module: TableHeader, QueryParts, DataGrid, Gallery,
 * DockLayout, GridStatusBar) — the props between them read best in one place.
 * The panels, sheets and the header strip are contributions (components/dock/registry.ts); this view imports none
 * of the features behind them. Everything here is this view's own: two views side by side keep their own panels.
 */
export function TableView({ tableRef: latestRef, connectionLabel, writeBlock, start, onViewChange, onCloseTab }: { tableRef: TableRef; connectionLabel: string; writeBlock?: string } & TableViewTabProps) {
  // The version being read: the latest unless Versions opened one (`tableRef` below).
  const version = useViewVersion(latestRef, start)
  const tableRef = version.viewRef
  const client = useQueryClient()
  // The description (and, with it, the first page: queries.ts), usually already asked for by the tree's click.
  // Another version of the same table keeps showing the one on screen until its description is here.
  const described = useQuery({ ...describeQuery(client, tableRef), placeholderData: (previous) => previous })
  const [visibility, setVisibility] = useState<ColumnVisibility>({})
  const status = useGridStatusStore()
  const [sheet, setSheet] = useState<string | null>(null)
  const dock = useDockState(start && { open: start.panels, active: start.dockTabs })
  const body = useRef<HTMLDivElement>(null)
  const measured = useMeasuredNarrow(body, DRAWER_BELOW)
  const narrow = measured ?? false
  const { reload } = useTableScope(latestRef)
  // A tab restored hidden computes no Summary, Map or histograms until it is first shown (components/shown.ts); its
  // panels then mount once its width is known, straight into the dock or the drawer (a move would remount them).
  const shownOnce = useShownOnce()
  const panelsMount = shownOnce && measured !== null

  // A table (or version) gone since it was last read says so even when an earlier description is still cached:
  // a tab closed and reopened at once finds the old description, and its refetch answers not_found.
  const gone = described.isError && errorData(described.error).code === 'not_found'
  const info = gone ? null : (described.data ?? null)
  // Filter, sort, go to row, similar rows, text search, version hint (useTableQueries.ts, drawn by QueryParts.tsx).
  const [initialChoice] = useState(() => (start?.filter || start?.sort ? { filter: start.filter, sort: start.sort } : undefined))
  const link = useLinkItem(latestRef)
  const q = useTableQueries(tableRef, connectionLabel, info, reload, version.diffKeys, initialChoice, link.linkItem)
  const view = q.gridProps.view
  const [pinned, latest] = [version.opened?.version, version.opened?.latest]
  // What Copy link to this view names, and a link's selected row once its view is on screen (links feature).
  useLinkedView(link.viewForLink, { pinned, filter: q.filter, sort: q.gridProps.sort, activeRow: () => status.get()?.active?.row, start, shown: view, ready: info !== null && !q.stale, viewKey: q.gridProps.viewKey, count: q.count, goToRow: q.goToRow })
  // Image columns shown as thumbnails over the same view (table/gallery/); the grid stays mounted behind it.
  const gallery = useGallery(tableRef, info, view?.version, start?.gallery)
  // The view's version, filter, sort and place, reported to its tab (useViewPlace.ts); a start's place given back.
  const place = useViewPlace(status, { start, shown: view, ready: info !== null && !q.stale, count: q.count, dock, gallery: gallery.open, report: onViewChange, pinned, latest, filter: q.filter, sort: q.gridProps.sort })
  // A strip in each column header (the profile's histograms, contributed); the grid only draws it.
  const strip = contributions.headerStrip()
  const stripState = strip.use(tableRef, info && shownOnce ? (view?.version ?? info.version) : undefined, q.filter, view?.rowSet, q.addFilter)
  const stripHeight = strip.height(stripState)
  const headerExtra = useMemo(() => stripHeight === undefined ? undefined : { height: stripHeight, render: (name: string) => <strip.Cell state={stripState} column={name} /> }, [strip, stripState, stripHeight])

  // Panels keep the last description while the table is read afresh (a reload, a write's reset): they stay mounted
  // with their state (an optimize's result, a form) instead of closing and opening again.
  const [held, setHeld] = useState<{ ref: TableRef; info: TableInfo } | null>(null)
  if (info && held?.info !== info) setHeld({ ref: latestRef, info })
  const panelInfo = info ?? (held?.ref === latestRef ? held.info : null)
  const panels = contributions.panels().filter((p) => (panelInfo ? !p.available || p.available(panelInfo) : !p.available))
  // The inspector and Similar rows, opened by the grid's state rather than the toolbar (useOpenedPanels.ts).
  const opened = useOpenedPanels(panels, gallery.open, q.similar, dock.select)
  const context = (panel: PanelContribution): PanelContext | null =>
    panelInfo && {
      tableRef: latestRef,
      viewRef: tableRef,
      info: panelInfo,
      version: view?.version ?? panelInfo.version,
      filter: q.filter,
      rowSet: view?.rowSet,
      searching: !!view?.search,
      narrowed: q.narrowed || (q.gridProps.sort?.length ?? 0) > 0,
      writeBlock,
      addFilter: q.addFilter,
      goToRow: q.goToRow,
      lasso: q.lasso,
      versions: version.control,
      inspection: opened.inspection,
      similar: q.similar,
      close: () => opened.close(panel) || dock.close(panel.id),
    }
  const docked: DockedPanel[] = [...dock.open, ...opened.ids].flatMap((id) => {
    const panel = panels.find((p) => p.id === id)
    const ctx = panel && context(panel)
    return panel && ctx ? [{ id, title: panel.title, dock: panel.dock, node: panelsMount ? panel.render(ctx) : null }] : []
  })
  const openSheet = info && contributions.sheets().find((s) => s.id === sheet)
  const shownColumns = info ? info.schema.filter((f) => visibility[f.name] !== false) : []

  const main = (
    <div className="table-main">
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
      {info && gallery.open && <Gallery tableRef={tableRef} rowCount={q.count} fields={q.fields} view={view} viewKey={q.gridProps.viewKey} columns={gallery.columns} onStatus={status.report} onClose={() => gallery.setOpen(false)} inspect={opened.stores.gallery} />}
      {/* Dimmed while the rows answer an earlier question (the note above says which); a class, not a grid render. */}
      {info && (
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
            headerExtra={headerExtra}
            inspect={opened.stores.grid}
            place={place.grid}
            {...q.gridProps}
          />
        </div>
      )}
    </div>
  )

  return (
    <section className="table-view" aria-label={`Table ${tableRef.name}`}>
      <TableHeader tableRef={tableRef} connectionLabel={connectionLabel} info={info} q={q} badge={<VersionBadge version={version} />} share={<CopyLinkButton tableRef={latestRef} view={() => link.viewForLink.current()} disabled={!info} />}>
        <TableToolbar
          ready={info !== null}
          fields={info?.schema ?? null}
          panels={panels}
          open={dock.open}
          onToggle={(p) => dock.toggle(p.id, p.dock)}
          sheets={contributions.sheets()}
          onSheet={setSheet}
          visibility={visibility}
          onVisibility={setVisibility}
          queries={queryTools(q)}
          switches={{
            bar: (
              <>
                <GalleryButton gallery={gallery} disabled={!info} />
                <strip.Toggle state={stripState} disabled={!info} />
              </>
            ),
            menu: switchTools(gallery, strip.tool(stripState), !info),
          }}
          onReload={reload}
        />
      </TableHeader>
      <QueryBars q={q} pinned={pinned !== undefined} />
      <div className="table-body" ref={body}>
        <DockLayout main={main} panels={docked} active={dock.active} onSelect={dock.select} narrow={narrow} />
        {openSheet &&
          openSheet.render({
            tableRef,
            // The view the grid shows (version, filter, sort, search) with its visible columns.
            view: { ...(view ?? { version: info.version }), ...(shownColumns.length < info.schema.length ? { columns: shownColumns.map((f) => f.name) } : {}) },
            // The view's count (what the file will hold), not the table's.
            rowCount: q.count,
            tableRows: info.rowCount,
            columnCount: shownColumns.length,
            totalColumns: info.schema.length,
            close: () => setSheet(null),
          })}
      </div>
      <GridStatusBar store={status} count={q.count} ready={info !== null} stale={q.stale} />
      <QueryOverlays q={q} />
      <DockEscapes open={docked.map((p) => p.id).filter((id) => !opened.ids.includes(id))} narrow={narrow} close={dock.close} closeAll={() => opened.closeAll(dock.closeAll)} />
    </section>
  )
}

function EscapeLayer({ close }: { close(): void }) {
  useEscapeLayer(true, close)
  return null
}

/** Escape closes the panel opened last (panelStack.ts); in the drawer, it closes the drawer. */
function DockEscapes({ open, narrow, close, closeAll }: { open: readonly string[]; narrow: boolean; close(id: string): void; closeAll(): void }) {
  if (narrow) return open.length > 0 ? <EscapeLayer key="drawer" close={closeAll} /> : null
  return (
    <>
      {open.map((id) => (
        <EscapeLayer key={id} close={() => close(id)} />
      ))}
    </>
  )
}
