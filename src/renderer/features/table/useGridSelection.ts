import type { Table as ArrowTable } from 'apache-arrow'
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react'
import type { FieldInfo, TextFormat } from '../../../contract'
import type { InspectedCell } from './CellInspector'
import type { CellMenuItem } from './CellMenu'
import { useEscapeLayer } from './panelStack'
import { COPY_FORMATS, type RowSource } from './copy'
import { useGridCopy } from './useGridCopy'
import {
  allSelection,
  cellSelection,
  columnSelection,
  extendTo,
  inRange,
  rangeOf,
  rangeSize,
  rowsSelection,
  type CellPosition,
  type Selection,
} from './selection'

export interface GridSelectionOptions {
  rowCount: number
  /** Visible column ids, in order. */
  columns: readonly string[]
  fields: readonly FieldInfo[]
  active: CellPosition | null
  /** Move the active cell (and scroll to it) without touching the selection. */
  moveTo(row: number, col: number): void
  /** The loaded page holding `row` (no fetch). */
  pageOf(row: number): ArrowTable | undefined
  pageRows: number
  fetch: RowSource['fetch']
  gridRef: RefObject<HTMLDivElement | null>
  /** The grid's view (filter, sort, search): a new one drops the selection, the menu and the inspector. */
  viewKey?: string
}

type MenuState = { kind: 'cell' | 'column'; x: number; y: number; col: number } | null

/**
 * Selection, copy (useGridCopy) and the cell inspector for the data grid: state and handlers. DataGrid calls the
 * handlers from its events; SelectionOverlays.tsx renders the menu, the copy's question and toast, and the inspector.
 */
export function useGridSelection(options: GridSelectionOptions) {
  const { rowCount, columns, active, moveTo, gridRef, viewKey = '' } = options
  // Selected cells, the open menu and the inspector are about rows of one view (useKeyedToView); a running copy
  // goes on with the rows it read.
  const [selection, setSelection] = useKeyedToView<Selection | null>(viewKey, null)
  const [inspecting, setInspecting] = useKeyedToView(viewKey, false)
  const [menu, setMenu] = useKeyedToView<MenuState>(viewKey, null)
  const optionsRef = useRef(options)
  useEffect(() => {
    optionsRef.current = options
  })
  const { copy, notice, runCopy, startCopy, cancelConfirm, dismissNotice } = useGridCopy(optionsRef)

  const range = selection ? rangeOf(selection) : active ? rangeOf(cellSelection(active)) : null
  const lastCol = columns.length - 1

  const focusGrid = useCallback(() => gridRef.current?.focus({ preventScroll: true }), [gridRef])
  const closeInspector = () => {
    setInspecting(false)
    focusGrid()
  }
  const inspectorLayer = useEscapeLayer(inspecting && active !== null, closeInspector)

  /** The grid moved its active cell; `extend` keeps the anchor (Shift). */
  const moved = useCallback(
    (at: CellPosition, extend: boolean) => {
      setSelection((previous) => (extend ? extendTo(previous, at) : cellSelection(at)))
    },
    [setSelection],
  )

  const copySelection = useCallback(
    (format: TextFormat = 'tsv') => {
      if (!range || columns.length === 0 || rowCount === 0) return
      startCopy(range, format)
    },
    [range, columns.length, rowCount, startCopy],
  )

  const openMenu = (kind: 'cell' | 'column', x: number, y: number, col: number) => setMenu({ kind, x, y, col })

  /** Keys the selection owns; returns true when handled (DataGrid then stops). */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>, current: CellPosition): boolean => {
    const ctrl = event.ctrlKey || event.metaKey
    const key = event.key
    if (ctrl && key.toLowerCase() === 'a') {
      if (rowCount === 0 || columns.length === 0) return false
      setSelection(allSelection(rowCount, columns.length))
      return true
    }
    if (ctrl && key.toLowerCase() === 'c') {
      copySelection('tsv')
      return true
    }
    if (!ctrl && (key === 'Enter' || key === ' ') && active) {
      setInspecting(true)
      return true
    }
    if (key === 'Escape') {
      // The inspector closes when it is the panel opened last; otherwise the window's panel stack closes that one.
      if (inspecting && !inspectorLayer.isTop()) return false
      if (inspecting) setInspecting(false)
      else if (selection && rangeSize(rangeOf(selection)).rows * rangeSize(rangeOf(selection)).columns > 1) setSelection(cellSelection(current))
      else return false
      return true
    }
    // The Menu key and Shift+F10 are the grid's (grid/keyboard.ts): they open the same menu a right-click does.
    return false
  }

  const onCellMouseDown = (event: MouseEvent, row: number, col: number) => {
    if (event.button === 2 && range && inRange(range, row, col)) return // right-click inside the selection keeps it
    const at = { row, col }
    if (event.shiftKey) {
      event.preventDefault()
      setSelection((previous) => extendTo(previous ?? (active ? cellSelection(active) : null), at))
      moveTo(row, col)
    } else {
      setSelection(cellSelection(at))
    }
  }

  const onCellDoubleClick = () => setInspecting(true)

  /** The grid's own cell menu (copy and inspect: {@link cellMenuItems}), for a grid whose view adds no items. */
  const openCellMenu = (col: number, x: number, y: number) => openMenu('cell', x, y, col)

  const onRowHeaderMouseDown = (event: MouseEvent, row: number) => {
    event.preventDefault()
    const from = event.shiftKey && selection ? selection.anchor.row : row
    setSelection(rowsSelection(from, row, lastCol))
    moveTo(row, active?.col ?? 0)
    focusGrid()
  }

  const selectColumn = (col: number) => {
    setSelection(columnSelection(col, rowCount))
    moveTo(active?.row ?? 0, col)
    focusGrid()
  }

  const isSelected = (row: number, col: number) => inRange(range, row, col)

  /** The column header's ⋮ button (SelectionOverlays.tsx: ColumnMenuButton) opens the column's menu at x, y. */
  const openColumnMenu = (col: number, x: number, y: number) => openMenu('column', x, y, col)

  const menuItems = menu?.kind === 'column' ? columnMenuItems(rowCount) : cellMenuItems().map((item) => ({ id: item.label, label: item.label, disabled: item.disabled !== undefined, reason: item.disabled, run: item.run }))

  const choose = (item: (typeof menuItems)[number]) => {
    const col = menu?.col ?? 0
    setMenu(null)
    focusGrid()
    if (item.run) item.run()
    else if (item.id === 'select-column') selectColumn(col)
    else if (item.id === 'copy-column') {
      setSelection(columnSelection(col, rowCount))
      startCopy(rangeOf(columnSelection(col, rowCount)), 'tsv')
    }
  }

  const closeMenu = useCallback(() => setMenu(null), [setMenu])

  /**
   * The copy and inspect items of a cell's menu: the one list, shown by the table view's menu after its query items
   * (right-click, the Menu key and Shift+F10 alike: DataGrid's openCellMenu) or alone by the grid's own menu.
   */
  function cellMenuItems(): CellMenuItem[] {
    return [
      ...COPY_FORMATS.map((f) => ({
        label: f.label,
        run: () => {
          focusGrid()
          copySelection(f.format)
        },
        disabled: range ? undefined : 'Select cells first',
      })),
      { label: 'Inspect cell', run: () => setInspecting(true), disabled: active ? undefined : 'Select a cell first' },
    ]
  }

  const inspected = inspecting && active ? inspectedCell(active, options) : null
  const menuLabel = menu?.kind === 'column' ? `Column ${columns[menu.col] ?? ''}` : 'Cell actions'

  return {
    ...{ selection, moved, onKeyDown, onCellMouseDown, onCellDoubleClick, openCellMenu, openColumnMenu, cellMenuItems, onRowHeaderMouseDown, isSelected },
    ...{ menu, menuLabel, menuItems, choose, closeMenu, copy, notice, runCopy, cancelConfirm, dismissNotice, inspected, closeInspector },
  }
}

/**
 * State about the rows of one view: kept with the view's key, so a new view shows `empty` without a render to clear
 * it. The setter takes a value or an updater of the value shown.
 */
function useKeyedToView<T>(viewKey: string, empty: T) {
  const [kept, setKept] = useState<{ viewKey: string; value: T }>({ viewKey, value: empty })
  const value = kept.viewKey === viewKey ? kept.value : empty
  const set = useCallback(
    (next: T | ((previous: T) => T)) =>
      setKept((k) => {
        const previous = k.viewKey === viewKey ? k.value : empty
        return { viewKey, value: typeof next === 'function' ? (next as (previous: T) => T)(previous) : next }
      }),
    // `empty` is a constant of each call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [viewKey],
  )
  return [value, set] as const
}

/** A column menu's items (SelectionOverlays shows them; `choose` runs them). */
function columnMenuItems(rowCount: number): { id: string; label: string; disabled: boolean; run?: () => void }[] {
  return [
    { id: 'select-column', label: 'Select column', disabled: rowCount === 0 },
    { id: 'copy-column', label: 'Copy column', disabled: rowCount === 0 },
  ]
}

/** The active cell as the inspector shows it (its whole value from the loaded page), or null without a column. */
function inspectedCell(active: CellPosition, { columns, fields, pageOf, pageRows }: GridSelectionOptions): InspectedCell | null {
  const column = columns[active.col]
  if (!column) return null
  const field = fields.find((f) => f.name === column)
  const typeLabel = field ? (field.vectorDimension ? `vector · ${field.vectorDimension}-d · ${field.type}` : field.type) : ''
  return { row: active.row, column, typeLabel, vector: pageOf(active.row)?.getChild(column) ?? undefined, pageRow: active.row % pageRows }
}
