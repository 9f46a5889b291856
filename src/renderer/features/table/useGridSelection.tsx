import type { Table as ArrowTable } from 'apache-arrow'
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type RefObject } from 'react'
import type { FieldInfo, TextFormat } from '../../../contract'
import { isAbort } from '../../api'
import { Modal } from '../../components/Modal'
import { ContextMenu } from '../../components/ContextMenu'
import { CellInspector } from './CellInspector'
import type { CellMenuItem } from './CellMenu'
import { useEscapeLayer } from './panelStack'
import { COPY_FORMATS, copyText, LARGE_COPY_ROWS, writeClipboard, type RowSource } from './copy'
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
  type CellRange,
  type Selection,
} from './selection'
import { formatCount } from '../../lib/format'

const FORMAT_NAMES: Record<TextFormat, string> = { tsv: 'TSV', csv: 'CSV', json: 'JSON', jsonl: 'JSON lines', markdown: 'Markdown' }

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
type CopyState = { state: 'confirm'; range: CellRange; format: TextFormat } | { state: 'running'; done: number; total: number; controller: AbortController } | null

/**
 * Selection, copy and the cell inspector for the data grid. DataGrid calls the handlers from its
 * events and renders {@link overlays} and {@link inspector}; everything else lives here.
 */
export function useGridSelection(options: GridSelectionOptions) {
  const { rowCount, columns, active, moveTo, pageOf, pageRows, gridRef, viewKey = '' } = options
  // Selected cells, the open menu and the inspector are about rows of one view: kept with its key, so a new
  // view shows none of them without a render to clear them (a running copy goes on with the rows it read).
  const [selected, setSelected] = useState<{ viewKey: string; selection: Selection | null }>({ viewKey, selection: null })
  const selection = selected.viewKey === viewKey ? selected.selection : null
  const setSelection = useCallback(
    (next: Selection | null | ((previous: Selection | null) => Selection | null)) =>
      setSelected((s) => {
        const previous = s.viewKey === viewKey ? s.selection : null
        return { viewKey, selection: typeof next === 'function' ? next(previous) : next }
      }),
    [viewKey],
  )
  const [inspectingIn, setInspectingIn] = useState<string | null>(null)
  const inspecting = inspectingIn === viewKey
  const setInspecting = useCallback((open: boolean) => setInspectingIn(open ? viewKey : null), [viewKey])
  const [menuState, setMenuState] = useState<{ viewKey: string; menu: MenuState }>({ viewKey, menu: null })
  const menu = menuState.viewKey === viewKey ? menuState.menu : null
  const setMenu = useCallback((next: MenuState) => setMenuState({ viewKey, menu: next }), [viewKey])
  const [copy, setCopy] = useState<CopyState>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)
  const confirmTitle = useId()
  const optionsRef = useRef(options)
  useEffect(() => {
    optionsRef.current = options
  })

  const range = selection ? rangeOf(selection) : active ? rangeOf(cellSelection(active)) : null
  const lastCol = columns.length - 1

  const focusGrid = useCallback(() => gridRef.current?.focus({ preventScroll: true }), [gridRef])
  const inspectorLayer = useEscapeLayer(inspecting && active !== null, () => {
    setInspecting(false)
    focusGrid()
  })

  /** The grid moved its active cell; `extend` keeps the anchor (Shift). */
  const moved = useCallback(
    (at: CellPosition, extend: boolean) => {
      setSelection((previous) => (extend ? extendTo(previous, at) : cellSelection(at)))
    },
    [setSelection],
  )

  const runCopy = useCallback(
    async (target: CellRange, format: TextFormat) => {
      const controller = new AbortController()
      const total = rangeSize(target).rows
      setNotice(null)
      setCopy({ state: 'running', done: 0, total, controller })
      const o = optionsRef.current
      try {
        const text = await copyText(
          target,
          o.columns,
          format,
          {
            cached: (row) => {
              const page = o.pageOf(row)
              return page ? { page, pageRow: row % o.pageRows } : undefined
            },
            fetch: o.fetch,
          },
          controller.signal,
          (done) => setCopy((c) => (c?.state === 'running' ? { ...c, done } : c)),
        )
        await writeClipboard(text)
        const size = rangeSize(target)
        setNotice({ text: `Copied ${formatCount(size.rows)} × ${formatCount(size.columns)} as ${FORMAT_NAMES[format]}`, error: false })
      } catch (error) {
        if (!isAbort(error) && !controller.signal.aborted) setNotice({ text: `Could not copy: ${error instanceof Error ? error.message : String(error)}`, error: true })
      } finally {
        setCopy(null)
      }
    },
    [],
  )

  const copySelection = useCallback(
    (format: TextFormat = 'tsv') => {
      if (!range || columns.length === 0 || rowCount === 0) return
      if (rangeSize(range).rows > LARGE_COPY_ROWS) setCopy({ state: 'confirm', range, format })
      else void runCopy(range, format)
    },
    [range, columns.length, rowCount, runCopy],
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

  const columnMenuButton = (col: number, name: string) => (
    <button
      type="button"
      className="header-menu-button"
      aria-label={`Column menu for ${name}`}
      aria-haspopup="menu"
      title="Column menu"
      onMouseDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.stopPropagation()
        const box = event.currentTarget.getBoundingClientRect()
        openMenu('column', box.left, box.bottom + 2, col)
      }}
    >
      ⋮
    </button>
  )

  const menuItems =
    menu?.kind === 'column'
      ? [
          { id: 'select-column', label: 'Select column', disabled: rowCount === 0 },
          { id: 'copy-column', label: 'Copy column', disabled: rowCount === 0 },
        ]
      : cellMenuItems().map((item) => ({ id: item.label, label: item.label, disabled: item.disabled !== undefined, reason: item.disabled, run: item.run }))

  const choose = (item: (typeof menuItems)[number]) => {
    const col = menu?.col ?? 0
    setMenu(null)
    focusGrid()
    if ('run' in item) item.run()
    else if (item.id === 'select-column') selectColumn(col)
    else if (item.id === 'copy-column') {
      const target = rangeOf(columnSelection(col, rowCount))
      setSelection(columnSelection(col, rowCount))
      if (rangeSize(target).rows > LARGE_COPY_ROWS) setCopy({ state: 'confirm', range: target, format: 'tsv' })
      else void runCopy(target, 'tsv')
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

  const overlays = (
    <>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          label={menu.kind === 'column' ? `Column ${columns[menu.col] ?? ''}` : 'Cell actions'}
          items={menuItems}
          onChoose={choose}
          onClose={closeMenu}
        />
      )}
      {copy?.state === 'confirm' && (
        <Modal labelledBy={confirmTitle} onClose={() => setCopy(null)} className="action-dialog" role="alertdialog">
          <div className="dialog-form">
            <header className="dialog-header">
              <h2 id={confirmTitle}>Copy {formatCount(rangeSize(copy.range).rows)} rows?</h2>
            </header>
            <div className="dialog-body">
              <p>
                That is {formatCount(rangeSize(copy.range).rows * rangeSize(copy.range).columns)} values, every one whole, as {FORMAT_NAMES[copy.format]}. Rows the grid
                has not loaded are read from the table first; you can cancel while it runs.
              </p>
            </div>
            <footer className="dialog-footer">
              <div className="dialog-footer-left" />
              <div className="dialog-footer-right">
                <button type="button" className="button" onClick={() => setCopy(null)}>
                  Cancel
                </button>
                <button type="button" className="button primary" data-autofocus onClick={() => void runCopy(copy.range, copy.format)}>
                  Copy
                </button>
              </div>
            </footer>
          </div>
        </Modal>
      )}
      {(copy?.state === 'running' || notice) && (
        <div className={`copy-toast${notice?.error ? ' error' : ''}`} role="status" aria-label="Copy">
          {copy?.state === 'running' ? (
            <>
              <span>
                Copying… {formatCount(copy.done)} of {formatCount(copy.total)} rows
              </span>
              <progress max={copy.total} value={copy.done} aria-label="Copy progress" />
              <button type="button" className="button small" onClick={() => copy.controller.abort()}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <span>{notice?.text}</span>
              <button type="button" className="link-button small" onClick={() => setNotice(null)}>
                Dismiss
              </button>
            </>
          )}
        </div>
      )}
    </>
  )

  const activeColumn = active ? columns[active.col] : undefined
  const field = activeColumn ? options.fields.find((f) => f.name === activeColumn) : undefined
  const page = active ? pageOf(active.row) : undefined
  const inspector =
    inspecting && active && activeColumn ? (
      <CellInspector
        cell={{ row: active.row, column: activeColumn, typeLabel: field ? (field.vectorDimension ? `vector · ${field.vectorDimension}-d · ${field.type}` : field.type) : '', vector: page?.getChild(activeColumn) ?? undefined, pageRow: active.row % pageRows }}
        onClose={() => {
          setInspecting(false)
          focusGrid()
        }}
      />
    ) : null

  return { selection, moved, onKeyDown, onCellMouseDown, onCellDoubleClick, openCellMenu, cellMenuItems, onRowHeaderMouseDown, columnMenuButton, isSelected, overlays, inspector }
}
