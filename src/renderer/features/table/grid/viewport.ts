import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react'
import { geometry, isScaled, offsetForScrollTop, scrollTopForOffset, visibleRows, type Geometry, type RowWindow } from './geometry'

export const ROW_HEIGHT = 24
export const HEADER_HEIGHT = 40

/**
 * What a viewport scrolls: rows of one height below a header of another (the grid: table rows under its
 * sticky header; the gallery: rows of thumbnails, several items a row, no header). Callers pass a constant:
 * the last size measured is remembered per layout.
 */
export interface ViewportLayout {
  rowHeight: number
  /** The part of the scroll element above the rows (a sticky header), not scrolled. */
  headerHeight: number
  /** How many items a row holds at a width (thumbnails side by side); one when absent. */
  perRow?: (width: number) => number
  /** The distance a wheel notch counted in lines (Firefox's deltaMode 1) moves. */
  lineHeight: number
}

export const GRID_LAYOUT: ViewportLayout = { rowHeight: ROW_HEIGHT, headerHeight: HEADER_HEIGHT, lineHeight: ROW_HEIGHT }

type Size = { height: number; width: number }

/** The size the last viewport of a layout measured: a new one in this window starts with it. */
const lastSizes = new WeakMap<ViewportLayout, Size>()

/**
 * The grid's viewport: its measured size, the scroll offset into the whole table (a virtual offset, scaled
 * onto the browser's capped scroll height by ./geometry) and the rows it shows. State only; the DOM side
 * (measuring, scroll events, the wheel) is {@link useViewportScrolling}, called once the pages exist.
 */
export interface Viewport {
  viewKey: string
  layout: ViewportLayout
  /** The measured size of the scroll element (or the first guess at it). */
  size: Size
  /** Items a row (the layout's `perRow` at this width); `g` counts rows, `rows` too. */
  perRow: number
  g: Geometry
  /** The rendered offset into the whole content (virtual px, row × rowHeight). */
  offset: number
  /** The rows in view at the rendered offset. */
  rows: RowWindow
  setOffset(offset: number): void
  setSize(size: { height: number; width: number }): void
}

/**
 * `itemCount` items (table rows, thumbnails) laid out `layout.perRow` a row. `headerHeight` overrides the layout's
 * when the header grows (the grid's header with its histogram strip). When the items a row change (the width did),
 * `anchor` — the item the user is on, else the first one visible — stays in view, at the height it was shown.
 */
export function useViewport(itemCount: number, viewKey: string, layout: ViewportLayout = GRID_LAYOUT, headerHeight = layout.headerHeight, anchor: number | null = null): Viewport {
  // The last size of this layout, else a guess no smaller than the grid (the window less the app's chrome):
  // more rows than fit are clipped, fewer would leave a gap until measured.
  const [size, setSizeState] = useState(() => lastSizes.get(layout) ?? { height: Math.max(200, window.innerHeight - 76), width: Math.max(300, window.innerWidth - 280) })
  const { rowHeight, perRow: perRowAt } = layout
  const perRow = Math.max(1, perRowAt ? perRowAt(size.width) : 1)
  const rowCount = Math.ceil(itemCount / perRow)
  const bodyHeight = Math.max(rowHeight, size.height - headerHeight)
  const g = useMemo(() => geometry(rowCount, rowHeight, bodyHeight), [rowCount, rowHeight, bodyHeight])
  // A new view (filter, sort, search) keeps this grid, its column widths and its DOM rows (a remount cost
  // ~25 ms per view change): the scroll offset belongs to one view, so it is stored with its key and read as
  // 0 under any other — no second render to reset it. It is stored with the items a row it was taken at too: the
  // same offset at another width shows other items (7 a row → 4 a row at row 50,000: 150,000 items up).
  const [scrolled, setScrolled] = useState({ viewKey, offset: 0, perRow })
  let offset = scrolled.viewKey === viewKey ? scrolled.offset : 0
  if (scrolled.viewKey === viewKey && scrolled.perRow !== perRow) {
    // Adjusted while rendering (React's pattern for state that follows a prop): the first paint at the new width
    // already shows the anchor; useViewportScrolling moves the scrollbar to match.
    offset = keepInView(g, scrolled.offset, scrolled.perRow, perRow, anchor !== null && anchor < itemCount ? anchor : null)
    setScrolled({ viewKey, offset, perRow })
  }
  const setSize = useCallback(
    (next: Size) => {
      lastSizes.set(layout, next)
      setSizeState((previous) => (previous.height === next.height && previous.width === next.width ? previous : next))
    },
    [layout],
  )
  const setOffset = useCallback((next: number) => setScrolled({ viewKey, offset: next, perRow }), [viewKey, perRow])
  return { viewKey, layout, size, perRow, g, offset, rows: visibleRows(g, offset), setOffset, setSize }
}

/**
 * The offset at `perRow` items a row that shows `anchor` (else the first item visible at `offset`) at the height it
 * had at `oldPerRow` — moved into view if it was not in it — clamped to the content.
 */
export function keepInView(g: Geometry, offset: number, oldPerRow: number, perRow: number, anchor: number | null): number {
  const item = anchor ?? Math.floor(offset / g.rowHeight) * oldPerRow
  const shownAt = Math.floor(item / oldPerRow) * g.rowHeight - offset
  const y = Math.min(Math.max(shownAt, 0), Math.max(0, g.viewportHeight - g.rowHeight))
  return Math.min(Math.max(Math.floor(item / perRow) * g.rowHeight - y, 0), g.maxOffset)
}

/**
 * The viewport's DOM side: measures the grid, follows its scroll events, applies wheel notches when the
 * scroll height is scaled, and scrolls to an offset. `prefetch` asks for the rows of a new offset in the
 * event itself, as a hand-written page would, before React renders them (rows of the layout: a caller with
 * several items a row turns them into items).
 */
export function useViewportScrolling(viewport: Viewport, prefetch: (first: number, end: number) => void) {
  const { viewKey, layout, g, perRow, offset, setOffset, setSize } = viewport
  const scrollRef = useRef<HTMLDivElement>(null)
  /** The offset as last set, ahead of the render that shows it (keys and wheel notches add to it). */
  const offsetRef = useRef(0)
  /** The scrollTop we wrote ourselves: its scroll event keeps the exact offset instead of re-deriving it. */
  const expectedScrollTop = useRef<number | null>(null)

  useLayoutEffect(() => {
    const element = scrollRef.current
    if (!element) return
    // Measured when the ResizeObserver reports (after the browser's layout, before its paint), never here:
    // reading clientHeight in the commit forced a layout of the new grid and a second render before the
    // first rows could be painted (the cold open's profile).
    const measure = () => {
      const size = { height: element.clientHeight, width: element.clientWidth }
      if (size.height === 0) return // not laid out (hidden)
      setSize(size)
    }
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [setSize])

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

  // The items a row changed (the width did): the viewport moved the offset to keep its anchor in view; the
  // scrollbar follows, before the paint (the same scrollTop means another offset now).
  const shownPerRow = useRef(perRow)
  useLayoutEffect(() => {
    if (shownPerRow.current === perRow) return
    shownPerRow.current = perRow
    offsetRef.current = offset
    const element = scrollRef.current
    if (!element) return
    const top = scrollTopForOffset(g, offset)
    expectedScrollTop.current = top
    element.scrollTop = top
  }, [perRow, offset, g])

  const scrollToOffset = useCallback(
    (next: number) => {
      const clamped = Math.min(Math.max(next, 0), g.maxOffset)
      offsetRef.current = clamped
      const rows = visibleRows(g, clamped)
      prefetch(rows.first, rows.end)
      setOffset(clamped)
      const element = scrollRef.current
      if (element) {
        const top = scrollTopForOffset(g, clamped)
        expectedScrollTop.current = top
        element.scrollTop = top
      }
    },
    [g, prefetch, setOffset],
  )

  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop
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
    prefetch(rows.first, rows.end)
    setOffset(next)
  }

  // When scaled, a wheel notch must move the same distance as anywhere else: apply it to the virtual offset.
  useEffect(() => {
    const element = scrollRef.current
    if (!element || !isScaled(g)) return
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return
      event.preventDefault()
      const unit = event.deltaMode === 1 ? layout.lineHeight : event.deltaMode === 2 ? g.viewportHeight : 1
      scrollToOffset(offsetRef.current + event.deltaY * unit)
    }
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => element.removeEventListener('wheel', onWheel)
  }, [g, layout, scrollToOffset])

  return { scrollRef, offsetRef, scrollToOffset, onScroll }
}
