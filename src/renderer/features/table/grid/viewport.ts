import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type UIEvent } from 'react'
import { geometry, isScaled, offsetForScrollTop, scrollTopForOffset, visibleRows, type Geometry, type RowWindow } from './geometry'

export const ROW_HEIGHT = 24
export const HEADER_HEIGHT = 40

/** The size the last grid measured: a new grid in this window starts with it. */
let lastViewport: { height: number; width: number } | null = null

/**
 * The grid's viewport: its measured size, the scroll offset into the whole table (a virtual offset, scaled
 * onto the browser's capped scroll height by ./geometry) and the rows it shows. State only; the DOM side
 * (measuring, scroll events, the wheel) is {@link useViewportScrolling}, called once the pages exist.
 */
export interface Viewport {
  viewKey: string
  g: Geometry
  /** The rows in view at the rendered offset. */
  rows: RowWindow
  setOffset(offset: number): void
  setSize(size: { height: number; width: number }): void
}

export function useViewport(rowCount: number, viewKey: string, headerHeight = HEADER_HEIGHT): Viewport {
  // The last grid's size, else a guess no smaller than the grid (the window less the app's chrome): more rows
  // than fit are clipped, fewer would leave a gap until measured.
  const [size, setSizeState] = useState(() => lastViewport ?? { height: Math.max(200, window.innerHeight - 76), width: Math.max(300, window.innerWidth - 280) })
  // A new view (filter, sort, search) keeps this grid, its column widths and its DOM rows (a remount cost
  // ~25 ms per view change): the scroll offset belongs to one view, so it is stored with its key and read as
  // 0 under any other — no second render to reset it.
  const [scrolled, setScrolled] = useState({ viewKey, offset: 0 })
  const offset = scrolled.viewKey === viewKey ? scrolled.offset : 0
  const bodyHeight = Math.max(ROW_HEIGHT, size.height - headerHeight)
  const g = useMemo(() => geometry(rowCount, ROW_HEIGHT, bodyHeight), [rowCount, bodyHeight])
  const setSize = useCallback((next: { height: number; width: number }) => {
    lastViewport = next
    setSizeState((previous) => (previous.height === next.height && previous.width === next.width ? previous : next))
  }, [])
  const setOffset = useCallback((next: number) => setScrolled({ viewKey, offset: next }), [viewKey])
  return { viewKey, g, rows: visibleRows(g, offset), setOffset, setSize }
}

/**
 * The viewport's DOM side: measures the grid, follows its scroll events, applies wheel notches when the
 * scroll height is scaled, and scrolls to an offset. `prefetch` asks for the rows of a new offset in the
 * event itself, as a hand-written page would, before React renders them.
 */
export function useViewportScrolling(viewport: Viewport, prefetch: (first: number, end: number) => void) {
  const { viewKey, g, setOffset, setSize } = viewport
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
      const unit = event.deltaMode === 1 ? ROW_HEIGHT : event.deltaMode === 2 ? g.viewportHeight : 1
      scrollToOffset(offsetRef.current + event.deltaY * unit)
    }
    element.addEventListener('wheel', onWheel, { passive: false })
    return () => element.removeEventListener('wheel', onWheel)
  }, [g, scrollToOffset])

  return { scrollRef, offsetRef, scrollToOffset, onScroll }
}
