import {
  columnResizingFeature,
  columnSizingFeature,
  columnVisibilityFeature,
  createColumnHelper,
  tableFeatures,
  useTable,
  type ReactTable,
} from '@tanstack/react-table'
import type { Table as ArrowTable } from 'apache-arrow'
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { cellValue, type FieldInfo, type SortKey, type TableRef, type TableViewSpec } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { formatCell } from './formatCell'
import './inspect.css'
import { geometry, isScaled, offsetForScrollTop, offsetToCenter, offsetToReveal, scrollTopForOffset, visibleRows } from './gridGeometry'
import { PAGE_ROWS, usePages } from './usePages'
import { contractFetch } from './copy'
import { useGridSelection } from './useGridSelection'
import type { CellMenuItem } from './CellMenu'

export const ROW_HEIGHT = 24
/** The size the last grid measured: a new grid in this window starts with it. */
let lastViewport: { height: number; width: number } | null = null
const HEADER_HEIGHT = 40

/** One rendered row: its index in the whole table and the page that holds it (null while loading). */
export interface GridRow {
  index: number
  page: ArrowTable | null
  pageRow: number
}

export const gridFeatures = tableFeatures({ columnSizingFeature, columnResizingFeature, columnVisibilityFeature })
const helper = createColumnHelper<typeof gridFeatures, GridRow>()
export type GridTable = ReactTable<typeof gridFeatures, GridRow>

function initialWidth(field: FieldInfo): number {
  const type = field.type.toLowerCase()
  if (field.vectorDimension) return 250
  // 64-bit integers need up to 20 characters: never elide digits by default.
  if (type === 'int64' || type === 'uint64') return 170
  if (type.startsWith('int') || type.startsWith('uint')) return 100
  if (type.startsWith('float') || type.startsWith('decimal')) return 120
  if (type.startsWith('bool')) return 80
  if (type.startsWith('timestamp') || type.startsWith('date')) return 215
  if (type.includes('binary')) return 190
  return 200
}

const CHAR_WIDTH = 7.2
/** The header's type line (10.5px monospace) per character, and its padding, sort mark and menu button. */
const TYPE_CHAR_WIDTH = 6.4
const HEADER_CONTROLS_WIDTH = 48
const MAX_FIT_WIDTH = 380
/**
 * Around the header's name: the label's padding (2 × 8), the column-menu button (18 + 6), room for the sort
 * mark (an arrow 10 px from the edge) and the border, so a fitted name is never elided.
 */
const HEADER_NAME_EXTRA = 16 + 24 + 16 + 2

let measureContext: CanvasRenderingContext2D | null | undefined
/** The width of a header's name as the browser draws it (600 weight, the UI font at 13 px); an estimate without a canvas. */
function headerNameWidth(name: string): number {
  if (measureContext === undefined) {
    measureContext = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null
    if (measureContext) measureContext.font = `600 13px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`
  }
  return measureContext ? Math.ceil(measureContext.measureText(name).width) : name.length * 8.5
}

/** Widths that show the first rows' values and the header names without eliding (capped). */
function fitColumns(fields: readonly FieldInfo[], page: ArrowTable): Record<string, number> {
  const sizing: Record<string, number> = {}
  const rows = Math.min(page.numRows, 50)
  for (const field of fields) {
    const vector = page.getChild(field.name)
    if (!vector) continue
    let chars = 0
    for (let i = 0; i < rows; i += 1) chars = Math.max(chars, formatCell(cellValue(vector, i), vector.type).text.length)
    // The header too: its name (measured as drawn) and its type line (smaller monospace), beside the sort mark
    // and the column-menu button. The name is never elided by a fit, whatever the first rows hold.
    const header = Math.max(headerTypeLabel(field).length * TYPE_CHAR_WIDTH + HEADER_CONTROLS_WIDTH, headerNameWidth(field.name) + HEADER_NAME_EXTRA)
    sizing[field.name] = Math.round(Math.max(Math.min(header, MAX_FIT_WIDTH), Math.min(MAX_FIT_WIDTH, Math.max(64, chars * CHAR_WIDTH + 24))))
  }
  return sizing
}

function CellContent({ row, name }: { row: GridRow; name: string }) {
  const vector = row.page?.getChild(name)
  if (!vector) return <span className="cell-pending" aria-hidden="true" />
  const display = formatCell(cellValue(vector, row.pageRow), vector.type)
  return (
    <span className={`cell-text cell-${display.kind}`} title={display.title ?? display.text}>
      {display.text}
    </span>
  )
}

function headerTypeLabel(field: FieldInfo): string {
  return field.vectorDimension ? `vector · ${field.vectorDimension}-d` : field.type
}

function HeaderContent({ field }: { field: FieldInfo }) {
  return (
    <span className="header-label" title={`${field.name}: ${field.type}${field.nullable ? '' : ' (not null)'}`}>
      <span className="header-name">{field.name}</span>
      <span className="header-type">{headerTypeLabel(field)}</span>
    </span>
  )
}

export type ColumnVisibility = Record<string, boolean>
type ColumnSizing = Record<string, number>

function useGridTable(
  fields: readonly FieldInfo[],
  data: GridRow[],
  columnVisibility: ColumnVisibility,
  onColumnVisibilityChange: (updater: ColumnVisibility | ((old: ColumnVisibility) => ColumnVisibility)) => void,
  columnSizing: ColumnSizing,
  onColumnSizingChange: (updater: ColumnSizing | ((old: ColumnSizing) => ColumnSizing)) => void,
): GridTable {
  const columns = useMemo(
    () =>
      helper.columns(
        fields.map((field) =>
          helper.accessor((row) => row.page?.getChild(field.name)?.get(row.pageRow) as unknown, {
            id: field.name,
            header: () => <HeaderContent field={field} />,
            cell: (context) => <CellContent row={context.row.original} name={field.name} />,
            size: initialWidth(field),
            minSize: 48,
            maxSize: 2000,
          }),
        ),
      ),
    [fields],
  )
  return useTable({
    features: gridFeatures,
    columns,
    data,
    getRowId: (row) => String(row.index),
    columnResizeMode: 'onChange',
    state: { columnVisibility, columnSizing },
    onColumnVisibilityChange,
    onColumnSizingChange,
  })
}

const numberFormat = new Intl.NumberFormat('en-US')

/**
 * The data grid: a virtualized body over the whole table (the scrollbar stands for every row),
 * pages fetched as the user scrolls. ARIA grid pattern: `aria-rowcount` counts the header row
 * too (table rows + 1, as the ARIA spec defines it); the header row has `aria-rowindex` 1 and
 * data row i (0-based) has `aria-rowindex` i + 2. The active cell is `aria-activedescendant`.
 * Memoized: the table view re-renders for its status bar; the grid need not.
 */
export const DataGrid = memo(function DataGrid({
  tableRef,
  label,
  rowCount,
  fields,
  columnVisibility,
  onColumnVisibilityChange,
  onStatus,
  view,
  viewKey = '',
  sort,
  onSortToggle,
  onCellContextMenu,
  selectRow,
}: {
  tableRef: TableRef
  label: string
  rowCount: number
  fields: readonly FieldInfo[]
  /** Controlled: the table view's Columns menu edits it. Only `false` hides a column. */
  columnVisibility: ColumnVisibility
  onColumnVisibilityChange: (updater: ColumnVisibility | ((old: ColumnVisibility) => ColumnVisibility)) => void
  onStatus?: (status: { first: number; end: number; loading: boolean; active: { row: number; column: string } | null }) => void
  /** Read every page through this view (version, filter, sort, search); `rowCount` is its count. */
  view?: TableViewSpec
  /** The view's identity (useTableView computes it): a new one starts a fresh page cache, scroll and active cell. */
  viewKey?: string
  /** The view's sort, shown as `aria-sort` on the headers; a header click calls `onSortToggle`. */
  sort?: readonly SortKey[]
  onSortToggle?: (column: string) => void
  /** Right-click (or the Menu key / Shift+F10) on a cell: `valueOf` reads any column of that row. */
  onCellContextMenu?: (target: { row: number; column: string; x: number; y: number; valueOf: (column: string) => unknown; extra?: CellMenuItem[] }) => void
  /** Scroll to this row and select it (a new `nonce` repeats the request): go to row. */
  selectRow?: { row: number; nonce: number }
}) {
  const gridId = useId()
  const scrollRef = useRef<HTMLDivElement>(null)
  // The last grid's size, else a guess no smaller than the grid (the window less the app's chrome): more rows
  // than fit are clipped, fewer would leave a gap until measured.
  const [viewport, setViewport] = useState(() => lastViewport ?? { height: Math.max(200, window.innerHeight - 76), width: Math.max(300, window.innerWidth - 280) })
  // A new view (filter, sort, search) keeps this grid, its column widths and its DOM rows (a remount cost
  // ~25 ms per view change): the scroll offset and the active cell belong to one view, so they are
  // stored with its key and read as their initial values under any other — no second render to reset them.
  const [scrolled, setScrolled] = useState({ viewKey, offset: 0 })
  const offset = scrolled.viewKey === viewKey ? scrolled.offset : 0
  const setOffset = (next: number) => setScrolled({ viewKey, offset: next })
  const offsetRef = useRef(0)
  const expectedScrollTop = useRef<number | null>(null)
  const [activeCell, setActiveCell] = useState<{ viewKey: string; cell: { row: number; col: number } | null }>({ viewKey, cell: null })
  const active = activeCell.viewKey === viewKey ? activeCell.cell : null
  const setActive = (cell: { row: number; col: number } | null) => setActiveCell({ viewKey, cell })

  const bodyHeight = Math.max(ROW_HEIGHT, viewport.height - HEADER_HEIGHT)
  const g = useMemo(() => geometry(rowCount, ROW_HEIGHT, bodyHeight), [rowCount, bodyHeight])
  const window_ = visibleRows(g, offset)
  const pages = usePages(tableRef, rowCount, window_.first, window_.end, view, viewKey)
  const initialPage = pages.initialPage
  const prefetch = pages.prefetch

  const data = useMemo(() => {
    const rows: GridRow[] = []
    for (let index = window_.first; index < window_.end; index += 1) {
      const page = pages.pageOf(index) ?? null
      rows.push({ index, page, pageRow: index % PAGE_ROWS })
    }
    return rows
    // pages.version: a page arrived, so rows of the window may now have data.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [window_.first, window_.end, pages.version, pages.pageOf])

  // Column widths: fitted to each view's first rows, and the widths the user set by dragging, which win and
  // stay across views. The fit is computed in the render that shows the view (its page 0 comes with it), so a
  // filter or sort costs no second render; only a table opened before its first page arrived fits it later.
  const viewFit = useMemo(
    () => (initialPage ? fitColumns(fields, initialPage) : undefined),
    // Once per view: initialPage is the new view's page 0 in the render where viewKey changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [viewKey, fields],
  )
  const [lateFit, setLateFit] = useState<{ viewKey: string; sizes: ColumnSizing } | null>(null)
  const [userSizing, setUserSizing] = useState<ColumnSizing>({})
  const fitted = viewFit ?? (lateFit?.viewKey === viewKey ? lateFit.sizes : undefined)
  const columnSizing = useMemo(() => ({ ...fitted, ...userSizing }), [fitted, userSizing])
  const onColumnSizingChange = useCallback(
    (updater: ColumnSizing | ((old: ColumnSizing) => ColumnSizing)) => {
      const next = typeof updater === 'function' ? updater(columnSizing) : updater
      // What differs from the fit is the user's; a reset (double-click) drops the user's width.
      const user: ColumnSizing = {}
      for (const [name, width] of Object.entries(next)) if (fitted?.[name] !== width) user[name] = width
      setUserSizing(user)
    },
    [columnSizing, fitted],
  )
  const table = useGridTable(fields, data, columnVisibility, onColumnVisibilityChange, columnSizing, onColumnSizingChange)
  useEffect(() => {
    if (fitted) return
    const page = pages.pageOf(0)
    // The first page arrived after the grid mounted (a table opened before it came): fit once, to it.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (page) setLateFit({ viewKey, sizes: fitColumns(fields, page) })
  }, [fitted, pages, pages.version, viewKey, fields])
  const visibleColumns = table.getVisibleLeafColumns()
  const gutterWidth = Math.max(56, String(rowCount).length * 8 + 24)
  const totalWidth = gutterWidth + table.getTotalSize()

  useLayoutEffect(() => {
    const element = scrollRef.current
    if (!element) return
    // Measured when the ResizeObserver reports (after the browser's layout, before its paint), never here:
    // reading clientHeight in the commit forced a layout of the new grid and a second render before the
    // first rows could be painted (seen in the cold open's CPU profile).
    const measure = () => {
      const size = { height: element.clientHeight, width: element.clientWidth }
      if (size.height === 0) return // not laid out (hidden)
      lastViewport = size
      setViewport((previous) => (previous.height === size.height && previous.width === size.width ? previous : size))
    }
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  // The new view starts at its top, before the paint that shows it.
  const shownView = useRef(viewKey)
  useLayoutEffect(() => {
    if (shownView.current === viewKey) return
    shownView.current = viewKey
    offsetRef.current = 0
    const element = scrollRef.current
    if (element && element.scrollTop !== 0) {
      expectedScrollTop.current = 0
      element.scrollTop = 0
    }
  }, [viewKey])

  const scrollToOffset = useCallback(
    (next: number) => {
      const clamped = Math.min(Math.max(next, 0), g.maxOffset)
      offsetRef.current = clamped
      const rows = visibleRows(g, clamped)
      prefetch(rows.first, rows.end)
      setScrolled({ viewKey, offset: clamped })
      const element = scrollRef.current
      if (element) {
        const top = scrollTopForOffset(g, clamped)
        expectedScrollTop.current = top
        element.scrollTop = top
      }
    },
    [g, viewKey, prefetch],
  )

  const onScroll = () => {
    const element = scrollRef.current
    if (!element) return
    const top = element.scrollTop
    // Our own scrollTop writes keep the exact offset (scrollTop is rounded by the browser).
    if (expectedScrollTop.current !== null && Math.abs(top - expectedScrollTop.current) < 1.5) {
      expectedScrollTop.current = null
      return
    }
    expectedScrollTop.current = null
    const next = offsetForScrollTop(g, top)
    offsetRef.current = next
    // The rows now in view are asked for in this event, as a hand-written page would, not after React renders.
    const rows = visibleRows(g, next)
    pages.prefetch(rows.first, rows.end)
    setOffset(next)
  }

  // When scaled, a wheel notch must move the same distance as anywhere else: apply it to the virtual offset.
  useEffect(() => {
    const element = scrollRef.current
    if (!element || !isScaled(g)) return
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return
      event.preventDefault()
      const unit = event.deltaMode === 1 ? ROW_HEIGHT : event.deltaMode === 2 ? g.viewportHeight : 1
      scrollToOffset(offsetRef.current + event.deltaY * unit)
    }
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => element.removeEventListener('wheel', onWheel)
  }, [g, scrollToOffset])

  const revealColumn = (col: number) => {
    const element = scrollRef.current
    const column = visibleColumns[col]
    if (!element || !column) return
    const left = gutterWidth + column.getStart()
    const right = left + column.getSize()
    if (left - gutterWidth < element.scrollLeft) element.scrollLeft = left - gutterWidth
    else if (right > element.scrollLeft + element.clientWidth) element.scrollLeft = right - element.clientWidth
  }

  /** Make (row, col) the active cell and scroll to it: as little as possible, or with the row centred. */
  const moveActive = (row: number, col: number, centre = false) => {
    if (rowCount === 0 || visibleColumns.length === 0) return null
    const r = Math.min(Math.max(row, 0), rowCount - 1)
    const c = Math.min(Math.max(col, 0), visibleColumns.length - 1)
    setActive({ row: r, col: c })
    scrollToOffset(centre ? offsetToCenter(g, r) : offsetToReveal(g, offsetRef.current, r))
    revealColumn(c)
    return { row: r, col: c }
  }

  // Selection, copy and the cell inspector (useGridSelection.tsx); rows it lacks come through the contract.
  const fetchRows = useMemo(() => contractFetch(tableRef, view), [tableRef, view])
  const selection = useGridSelection({
    rowCount,
    columns: visibleColumns.map((c) => c.id),
    fields,
    active,
    moveTo: moveActive,
    pageOf: pages.pageOf,
    pageRows: PAGE_ROWS,
    fetch: fetchRows,
    gridRef: scrollRef,
    viewKey,
  })

  /** Move the active cell; `extend` (Shift) grows the selection instead of collapsing it. */
  const moveTo = (row: number, col: number, extend = false, centre = false) => {
    const at = moveActive(row, col, centre)
    if (at) selection.moved(at, extend)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = active ?? { row: window_.first, col: 0 }
    const pageRows = Math.max(1, Math.floor(g.viewportHeight / ROW_HEIGHT) - 1)
    const ctrl = event.ctrlKey || event.metaKey
    const lastCol = visibleColumns.length - 1
    const extend = event.shiftKey
    const moves: Record<string, () => void> = {
      ArrowDown: () => moveTo(current.row + 1, current.col, extend),
      ArrowUp: () => moveTo(current.row - 1, current.col, extend),
      ArrowRight: () => moveTo(current.row, current.col + 1, extend),
      ArrowLeft: () => moveTo(current.row, current.col - 1, extend),
      PageDown: () => moveTo(current.row + pageRows, current.col, extend),
      PageUp: () => moveTo(current.row - pageRows, current.col, extend),
      Home: () => (ctrl ? moveTo(0, 0, extend) : moveTo(current.row, 0, extend)),
      End: () => (ctrl ? moveTo(rowCount - 1, lastCol, extend) : moveTo(current.row, lastCol, extend)),
    }
    if (selection.onKeyDown(event, current)) {
      event.preventDefault()
      return
    }
    if ((event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) && active) {
      event.preventDefault()
      const cell = document.getElementById(cellId(active.row, active.col))?.getBoundingClientRect()
      openCellMenu(active.row, active.col, cell ? cell.left + 8 : 100, cell ? cell.bottom : 100)
      return
    }
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      move()
    }
  }

  // Go to row: scroll so the row stands in the middle of the grid (not at an edge, where the eye does not
  // look), select its cell, and give the grid the focus.
  const selectedNonce = useRef<number | null>(null)
  useEffect(() => {
    if (!selectRow || selectedNonce.current === selectRow.nonce) return
    selectedNonce.current = selectRow.nonce
    moveTo(selectRow.row, active?.col ?? 0, false, true)
    scrollRef.current?.focus()
  })

  const openCellMenu = (row: number, col: number, x: number, y: number) => {
    const column = visibleColumns[col]?.id
    if (!onCellContextMenu || column === undefined) return
    onCellContextMenu({ row, column, x, y, valueOf: (name) => pages.pageOf(row)?.getChild(name)?.get(row % PAGE_ROWS) as unknown, extra: selection.cellMenuItems() })
  }

  useEffect(() => {
    onStatus?.({
      first: window_.first,
      end: window_.end,
      loading: pages.loading,
      active: active ? { row: active.row, column: visibleColumns[active.col]?.id ?? '' } : null,
    })
  })

  const activeRendered = active && active.row >= window_.first && active.row < window_.end
  const cellId = (row: number, col: number) => `${gridId}-r${row}-c${col}`
  const headerGroup = table.getHeaderGroups()[0]
  // No window holds more rows than this (a partly visible row at each end), so slots never collide.
  const rowSlots = Math.ceil(g.viewportHeight / ROW_HEIGHT) + 1

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
        <div className="grid-sizer" style={{ width: totalWidth }}>
          <div role="rowgroup" className="grid-head" style={{ height: HEADER_HEIGHT }}>
            <div role="row" aria-rowindex={1} className="grid-row grid-header-row" style={{ height: HEADER_HEIGHT }}>
              <div role="columnheader" aria-colindex={1} aria-label="Row number" className="grid-gutter grid-gutter-head" style={{ width: gutterWidth }}>
                #
              </div>
              {headerGroup?.headers.map((header, index) => (
                <div
                  key={header.id}
                  role="columnheader"
                  aria-colindex={index + 2}
                  aria-label={header.column.id}
                  aria-sort={onSortToggle ? sortOf(sort, header.column.id) : undefined}
                  className="grid-header-cell"
                  style={{ width: header.getSize() }}
                  onClick={onSortToggle ? () => onSortToggle(header.column.id) : undefined}
                >
                  <table.FlexRender header={header} />
                  {onSortToggle && sortOf(sort, header.column.id) !== 'none' && (
                    <span className="sort-mark" aria-hidden="true">
                      {sortOf(sort, header.column.id) === 'ascending' ? '▲' : '▼'}
                    </span>
                  )}
                  {selection.columnMenuButton(index, header.column.id)}
                  <div
                    className={`grid-resizer${header.column.getIsResizing() ? ' resizing' : ''}`}
                    role="separator"
                    aria-orientation="vertical"
                    aria-label={`Resize ${header.column.id}`}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    onDoubleClick={() => header.column.resetSize()}
                    onClick={(event) => event.stopPropagation()}
                  />
                </div>
              ))}
            </div>
          </div>
          <div role="rowgroup" className="grid-body" style={{ height: g.viewportHeight, top: HEADER_HEIGHT }}>
            {/* Rows are keyed by slot (index modulo the most rows a window holds), not by index: a jump reuses
                the window's row elements and updates them instead of unmounting and mounting every row and
                cell, twice (placeholders, then the rows); a one-row scroll still keeps every row that stays. */}
            {table.getRowModel().rows.map((row) => {
              const index = row.original.index
              const top = window_.firstTop + (index - window_.first) * ROW_HEIGHT
              const loaded = row.original.page !== null
              return (
                <div
                  key={index % rowSlots}
                  role="row"
                  aria-rowindex={index + 2}
                  aria-busy={!loaded || undefined}
                  className={`grid-row${index % 2 === 1 ? ' odd' : ''}${active?.row === index ? ' active-row' : ''}`}
                  style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
                >
                  <div role="rowheader" aria-colindex={1} className="grid-gutter" style={{ width: gutterWidth }} onMouseDown={(event) => selection.onRowHeaderMouseDown(event, index)}>
                    {numberFormat.format(index + 1)}
                  </div>
                  {row.getVisibleCells().map((cell, col) => {
                    const isActive = active?.row === index && active.col === col
                    const isSelected = isActive || selection.isSelected(index, col)
                    return (
                      <div
                        key={cell.column.id}
                        id={cellId(index, col)}
                        role="gridcell"
                        aria-colindex={col + 2}
                        aria-selected={isSelected}
                        className={`grid-cell${isActive ? ' active' : ''}${isSelected ? ' selected' : ''}`}
                        style={{ width: cell.column.getSize() }}
                        onMouseDown={(event) => {
                          setActive({ row: index, col })
                          selection.onCellMouseDown(event, index, col)
                        }}
                        onDoubleClick={selection.onCellDoubleClick}
                        onContextMenu={(event) => {
                          // One menu: the table view's query items (filters, similar rows) and the grid's copy items.
                          if (!onCellContextMenu) return selection.onCellContextMenu(event, col)
                          event.preventDefault()
                          setActive({ row: index, col })
                          openCellMenu(index, col, event.clientX, event.clientY)
                        }}
                      >
                        <table.FlexRender cell={cell} />
                      </div>
                    )
                  })}
                </div>
              )
            })}
          </div>
          <div className="grid-spacer" style={{ height: Math.max(0, g.scrollHeight - g.viewportHeight) }} />
        </div>
      </div>
      {pages.error && (
        <div className="grid-error">
          <ErrorPanel error={pages.error} title="Could not read these rows" actions={[{ label: 'Retry', run: pages.retry }]} compact />
        </div>
      )}
      {rowCount === 0 && <div className="grid-empty">This table has no rows</div>}
      {selection.overlays}
      {selection.inspector}
    </div>
  )
})

/** The ARIA sort state of a column under `sort` (only the first key is announced as sorted). */
function sortOf(sort: readonly SortKey[] | undefined, column: string): 'ascending' | 'descending' | 'none' {
  const key = sort?.find((s) => s.column === column)
  return key ? (key.direction === 'asc' ? 'ascending' : 'descending') : 'none'
}
