import { useCallback, useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react'
import { flushSync } from 'react-dom'
import type { TableRef, TableViewSpec } from '../../../../contract'
import { offsetToReveal } from '../grid/geometry'
import { useViewport, useViewportScrolling, type ViewportLayout } from '../grid/viewport'
import { useEscapeLayer } from '../panelStack'
import { usePages } from '../usePages'
import { ThumbnailDecoder } from './decode'

/** A thumbnail cell: the image box and its caption. */
const CELL_WIDTH = 136
export const CELL_HEIGHT = 156
const THUMB_SIZE = 120
/** Rows of thumbnails rendered (and decoded) beyond the visible ones, above and below. */
const OVERSCAN = 1
/** The grid's viewport, scrolling rows of thumbnails: as many a row as fit the width, no header above them. */
const GALLERY_LAYOUT: ViewportLayout = { rowHeight: CELL_HEIGHT, headerHeight: 0, perRow: (width) => Math.floor(width / CELL_WIDTH), lineHeight: 40 }

export interface GalleryViewOptions {
  tableRef: TableRef
  rowCount: number
  view?: TableViewSpec
  viewKey: string
  columns: string[]
  /** The status bar's report (rows on screen, the active row), as the grid gives it. */
  onStatus?: (status: { first: number; end: number; loading: boolean; active: { row: number; column: string } | null }) => void
  onClose(): void
}

/**
 * The gallery's state: the image column shown, the viewport over rows of thumbnails (as many a row as fit; when
 * that changes — the inspector opened beside it, the window resized — the active thumbnail, else the first visible,
 * stays in view), the pages read for them, the active row and whether the inspector shows it, and the keys.
 */
export function useGalleryView({ tableRef, rowCount, view, viewKey, columns, onStatus, onClose }: GalleryViewOptions) {
  const [picked, setPicked] = useState(columns[0]!)
  const column = columns.includes(picked) ? picked : columns[0]!
  const gridId = useId()
  const key = `${viewKey}\u0000gallery:${column}`
  const [activeState, setActiveState] = useState<{ key: string; row: number | null }>({ key, row: null })
  const active = activeState.key === key ? activeState.row : null
  const [inspectingState, setInspectingState] = useState<string | null>(null)
  const inspecting = inspectingState === key && active !== null
  // Scroll offset, its scaling past the browser's tallest element, the size and the wheel: the grid's viewport.
  const viewport = useViewport(rowCount, key, GALLERY_LAYOUT, GALLERY_LAYOUT.headerHeight, active)
  const { g, rows: shown, perRow: cols } = viewport

  const firstGridRow = Math.max(0, shown.first - OVERSCAN)
  const endGridRow = Math.min(g.rowCount, shown.end + OVERSCAN)
  const first = firstGridRow * cols
  const end = Math.min(rowCount, endGridRow * cols)
  // The grid's view, projected to the image column: the same rows in the same order, only the bytes shown.
  const projected = useMemo<TableViewSpec>(() => ({ ...view, columns: [column] }), [view, column])
  const pages = usePages(tableRef, rowCount, first, end, projected, key)

  // One decoder per column and view: a new view's thumbnails are other rows.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const decoder = useMemo(() => new ThumbnailDecoder(Math.round(THUMB_SIZE * (window.devicePixelRatio || 1))), [key])
  useEffect(() => () => decoder.dispose(), [decoder])

  // The rows of a new offset are asked for in the scroll event, with the overscan, as the grid does.
  const { prefetch } = pages
  const prefetchRows = useCallback(
    (firstRow: number, endRow: number) => prefetch(Math.max(0, firstRow - OVERSCAN) * cols, Math.min(rowCount, (endRow + OVERSCAN) * cols)),
    [prefetch, cols, rowCount],
  )
  const { scrollRef, offsetRef, scrollToOffset, onScroll } = useViewportScrolling(viewport, prefetchRows)

  const moveTo = (row: number) => {
    if (rowCount === 0) return
    const r = Math.min(Math.max(row, 0), rowCount - 1)
    setActiveState({ key, row: r })
    scrollToOffset(offsetToReveal(g, offsetRef.current, Math.floor(r / cols)))
  }

  const focusGallery = () => scrollRef.current?.focus({ preventScroll: true })
  // Opened: the arrows move between thumbnails at once.
  useEffect(() => scrollRef.current?.focus({ preventScroll: true }), [scrollRef])
  const closeInspector = () => {
    setInspectingState(null)
    focusGallery()
  }
  const inspectorLayer = useEscapeLayer(inspecting, closeInspector)
  // Escape (with no inspector above it) leaves the gallery; the grid is shown again before the focus moves to it.
  useEscapeLayer(true, () => flushSync(onClose))

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = active ?? first
    const pageRows = Math.max(1, Math.floor(g.viewportHeight / CELL_HEIGHT))
    const ctrl = event.ctrlKey || event.metaKey
    const moves: Record<string, () => void> = {
      ArrowRight: () => moveTo(current + 1),
      ArrowLeft: () => moveTo(current - 1),
      ArrowDown: () => moveTo(current + cols),
      ArrowUp: () => moveTo(current - cols),
      PageDown: () => moveTo(current + pageRows * cols),
      PageUp: () => moveTo(current - pageRows * cols),
      Home: () => moveTo(ctrl ? 0 : current - (current % cols)),
      End: () => moveTo(ctrl ? rowCount - 1 : current - (current % cols) + cols - 1),
    }
    if ((event.key === 'Enter' || event.key === ' ') && active !== null) {
      event.preventDefault()
      setInspectingState(key)
      return
    }
    if (event.key === 'Escape' && inspecting && inspectorLayer.isTop()) return // the panel stack closes it
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      move()
    }
  }

  // The rows on screen (not the overscan) for the status bar.
  const shownFirst = Math.min(rowCount, shown.first * cols)
  const shownEnd = Math.min(rowCount, shown.end * cols)
  useEffect(() => {
    onStatus?.({ first: shownFirst, end: shownEnd, loading: pages.loading, active: active !== null ? { row: active, column } : null })
  })

  return {
    column,
    setPicked,
    key,
    viewport,
    gridRows: firstGridRow === endGridRow ? [] : Array.from({ length: endGridRow - firstGridRow }, (_, i) => firstGridRow + i),
    /** The rendered rows of thumbnails recycle this many DOM rows (their keys). */
    slots: Math.ceil(g.viewportHeight / CELL_HEIGHT) + 1 + 2 * OVERSCAN,
    cellWidth: Math.floor(viewport.size.width / cols),
    /** Rows of the view rendered: the visible ones and the overscan. */
    first,
    end,
    pages,
    decoder,
    active,
    inspecting,
    cellId: (row: number) => `${gridId}-t${row}`,
    scrollRef,
    onScroll,
    onKeyDown,
    /** A thumbnail pressed: it becomes the active one; clicked: it opens in the inspector. */
    activate: (row: number) => setActiveState({ key, row }),
    inspect: (row: number) => {
      setActiveState({ key, row })
      setInspectingState(key)
    },
    closeInspector,
  }
}
