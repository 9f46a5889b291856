import { memo, useEffect, useId, useMemo, useRef, type KeyboardEvent, type MouseEvent } from 'react'
import type { FieldInfo, SortKey } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import type { InspectionStore } from '../../components/dock/inspection'
import type { CellMenuItem } from './CellMenu'
import { useColumnSizing, useLateFit } from './grid/columnFit'
import { useGridTable, type ColumnVisibility, type GridRow } from './grid/gridTable'
import { onGridKeyDown } from './grid/keyboard'
import { GridBody, GridHeader, type HeaderExtra } from './grid/render'
import { useActiveCell } from './grid/useActiveCell'
import { GRID_LAYOUT, HEADER_HEIGHT, ROW_HEIGHT, useViewport, useViewportScrolling } from './grid/viewport'
import type { PageSource } from './pageSource'
import { useGridSelection } from './useGridSelection'
import { SelectionOverlays } from './SelectionOverlays'
import { PAGE_ROWS, usePagesOf } from './usePages'
// The header menu button, the cell menu and the inspector's styles (lost when the grid was split into grid/).
import './inspect.css'

export interface GridProps {
  /** Where the rows come from (a table's view, a query's result); its key is the rows' identity. */
  source: PageSource
  label: string
  rowCount: number
  fields: readonly FieldInfo[]
  /** Controlled: the table view's Columns menu edits it. Only `false` hides a column. */
  columnVisibility: ColumnVisibility
  onColumnVisibilityChange: (updater: ColumnVisibility | ((old: ColumnVisibility) => ColumnVisibility)) => void
  onStatus?: (status: { first: number; end: number; loading: boolean; active: { row: number; column: string } | null }) => void
  /** The view's sort, shown as `aria-sort` on the headers; a header click calls `onSortToggle`. */
  sort?: readonly SortKey[]
  onSortToggle?: (column: string) => void
  /** Right-click (or the Menu key / Shift+F10) on a cell: `valueOf` reads any column of that row. */
  onCellContextMenu?: (target: { row: number; column: string; x: number; y: number; valueOf: (column: string) => unknown; extra?: CellMenuItem[] }) => void
  /** Scroll to this row and select it (a new `nonce` repeats the request): go to row. */
  selectRow?: { row: number; nonce: number }
  /** Show this row first and make this cell active (a tab restored after a restart; a new `nonce` repeats it). */
  place?: { first: number; cell?: { row: number; column: string }; nonce: number }
  /** Drawn under each column's name (header histograms); the header grows by its height. Header only: rows never read it. */
  headerExtra?: HeaderExtra
  /** Shown over an empty grid. */
  emptyText?: string
  /** Where the inspected cell goes (a table view's right dock); without it the grid draws the inspector itself. */
  inspect?: InspectionStore
}

/**
 * The data grid: a virtualized body over all the rows of its source (the scrollbar stands for every row), pages
 * fetched as the user scrolls. ARIA grid pattern: `aria-rowcount` counts the header row too (rows + 1, as the
 * ARIA spec defines it); the header row has `aria-rowindex` 1 and data row i (0-based) has `aria-rowindex` i + 2.
 * The active cell is `aria-activedescendant`. Memoized: its host re-renders for its status bar; the grid need not.
 * Its pieces live in ./grid (viewport, column fit, table model, keyboard, render, active cell); this file wires
 * them with the pages, the selection and the menus. A new source key keeps the grid, its widths and its DOM rows
 * (a remount cost ~25 ms per view change): the scroll offset and the active cell are stored with the key.
 */
export const Grid = memo(function Grid(props: GridProps) {
  const { source, label, rowCount, fields, onCellContextMenu, selectRow, headerExtra } = props
  const viewKey = source.key
  const gridId = useId()
  const headerHeight = HEADER_HEIGHT + (headerExtra?.height ?? 0)
  const viewport = useViewport(rowCount, viewKey, GRID_LAYOUT, headerHeight)
  const { g, rows: window_ } = viewport
  const pages = usePagesOf(source, rowCount, window_.first, window_.end)

  const data = useMemo(() => {
    const rows: GridRow[] = []
    for (let index = window_.first; index < window_.end; index += 1) rows.push({ index, page: pages.pageOf(index) ?? null, pageRow: index % PAGE_ROWS })
    return rows
    // pages.version: a page arrived, so rows of the window may now have data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [window_.first, window_.end, pages.version, pages.pageOf])

  const sizing = useColumnSizing(fields, viewKey, pages.initialPage)
  const table = useGridTable(fields, data, props.columnVisibility, props.onColumnVisibilityChange, sizing.columnSizing, sizing.onColumnSizingChange)
  useLateFit(sizing, fields, viewKey, pages)
  const visibleColumns = table.getVisibleLeafColumns()
  const gutterWidth = Math.max(56, String(rowCount).length * 8 + 24)
  const { scrollRef, offsetRef, scrollToOffset, onScroll } = useViewportScrolling(viewport, pages.prefetch)
  const { active, setActive, moveActive } = useActiveCell({ viewKey, rowCount, columns: visibleColumns, gutterWidth, g, scrollRef, offsetRef, scrollToOffset })

  // Selection, copy and the cell inspector (useGridSelection.ts, shown by SelectionOverlays.tsx); rows it lacks come from the source.
  const selection = useGridSelection({
    rowCount,
    columns: visibleColumns.map((c) => c.id),
    fields,
    active,
    moveTo: moveActive,
    pageOf: pages.pageOf,
    pageRows: PAGE_ROWS,
    fetch: source.rows,
    gridRef: scrollRef,
    viewKey,
  })

  /** Move the active cell; `extend` (Shift) grows the selection instead of collapsing it. */
  const moveTo = (row: number, col: number, extend = false, centre = false) => {
    const at = moveActive(row, col, centre)
    if (at) selection.moved(at, extend)
  }
  const cellId = (row: number, col: number) => `${gridId}-r${row}-c${col}`
  /** A cell's menu, the same whether a right-click or the Menu key / Shift+F10 opened it. */
  const openCellMenu = (row: number, col: number, x: number, y: number) => {
    const column = visibleColumns[col]?.id
    if (column === undefined) return
    if (!onCellContextMenu) return selection.openCellMenu(col, x, y)
    onCellContextMenu({ row, column, x, y, valueOf: (name) => pages.pageOf(row)?.getChild(name)?.get(row % PAGE_ROWS) as unknown, extra: selection.cellMenuItems() })
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) =>
    onGridKeyDown(event, {
      active,
      firstRow: window_.first,
      pageRows: Math.max(1, Math.floor(g.viewportHeight / ROW_HEIGHT) - 1),
      rowCount,
      columnCount: visibleColumns.length,
      moveTo,
      selectionKey: selection.onKeyDown,
      openMenu: (cell) => {
        const box = document.getElementById(cellId(cell.row, cell.col))?.getBoundingClientRect()
        openCellMenu(cell.row, cell.col, box ? box.left + 8 : 100, box ? box.bottom : 100)
      },
    })

  // Go to row: scroll so the row stands in the middle of the grid (not at an edge, where the eye does not
  // look), select its cell, and give the grid the focus.
  const selectedNonce = useRef<number | null>(null)
  useEffect(() => {
    if (!selectRow || selectedNonce.current === selectRow.nonce) return
    selectedNonce.current = selectRow.nonce
    moveTo(selectRow.row, active?.col ?? 0, false, true)
    scrollRef.current?.focus()
  })

  usePlace(props.place, (place) => {
    scrollToOffset(place.first * ROW_HEIGHT)
    if (place.cell && place.cell.row < rowCount) setActive({ row: place.cell.row, col: Math.max(0, visibleColumns.findIndex((c) => c.id === place.cell!.column)) })
  })

  const onCellMouseDown = (event: MouseEvent, row: number, col: number) => {
    setActive({ row, col })
    selection.onCellMouseDown(event, row, col)
  }
  const onCellContext = (event: MouseEvent, row: number, col: number) => {
    // One menu: the table view's query items (filters, similar rows) and the grid's copy items.
    event.preventDefault()
    setActive({ row, col })
    openCellMenu(row, col, event.clientX, event.clientY)
  }

  // The inspected cell, for the dock's inspector: it follows the active cell and its page as they change.
  const { inspect } = props
  useEffect(() => inspect?.report(selection.inspected ? { cell: selection.inspected, close: selection.closeInspector } : null))
  useEffect(() => () => inspect?.report(null), [inspect])

  useEffect(() => {
    props.onStatus?.({ first: window_.first, end: window_.end, loading: pages.loading, active: active ? { row: active.row, column: visibleColumns[active.col]?.id ?? '' } : null })
  })

  const activeRendered = active && active.row >= window_.first && active.row < window_.end
  return (
    <div className="grid-frame">
      <div
        ref={scrollRef}
        className="grid-scroll"
        role="grid"
        aria-label={label}
        aria-rowcount={rowCount + 1}
        aria-colcount={visibleColumns.length + 1}
        aria-busy={pages.loading || undefined}
        aria-activedescendant={activeRendered && active ? cellId(active.row, active.col) : undefined}
        tabIndex={0}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
        data-row-count={rowCount}
      >
        <div className="grid-sizer" style={{ width: gutterWidth + table.getTotalSize() }}>
          <GridHeader table={table} gutterWidth={gutterWidth} sort={props.sort} onSortToggle={props.onSortToggle} selection={selection} extra={headerExtra} />
          <GridBody
            table={table}
            rows={window_}
            viewportHeight={g.viewportHeight}
            headerHeight={headerHeight}
            gutterWidth={gutterWidth}
            active={active}
            cellId={cellId}
            selection={selection}
            onCellMouseDown={onCellMouseDown}
            onCellContextMenu={onCellContext}
          />
          <div className="grid-spacer" style={{ height: Math.max(0, g.scrollHeight - g.viewportHeight) }} />
        </div>
      </div>
      {pages.error && (
        <div className="grid-error">
          <ErrorPanel error={pages.error} title="Could not read these rows" actions={[{ label: 'Retry', run: pages.retry }]} compact />
        </div>
      )}
      {rowCount === 0 && <div className="grid-empty">{props.emptyText ?? 'This table has no rows'}</div>}
      <SelectionOverlays selection={selection} inline={!inspect} />
    </div>
  )
})

/** A remembered place, applied once per `nonce`: its row at the top (not centred: where the user left it) and its cell active, unfocused. */
function usePlace(place: GridProps['place'], apply: (place: NonNullable<GridProps['place']>) => void): void {
  const placedNonce = useRef<number | null>(null)
  useEffect(() => {
    if (!place || placedNonce.current === place.nonce) return
    placedNonce.current = place.nonce
    apply(place)
  })
}
