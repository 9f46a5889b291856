/**
 * Scroll geometry of a grid whose scrollbar stands for every row of the table.
 *
 * Browsers cap an element's height (Chromium near 33.5M px, Firefox near 17.9M px), so a 1M-row
 * table at 24 px a row (24M px) cannot be one tall element. Past MAX_SCROLL_HEIGHT the scrollable
 * height is capped and scroll positions are scaled linearly onto the virtual content: the top of
 * the scrollbar is row 0 and its bottom is exactly the last rows. Below the cap the scale is 1
 * and scrolling is pixel-exact.
 */
export const MAX_SCROLL_HEIGHT = 8_000_000

export interface Geometry {
  rowHeight: number
  rowCount: number
  /** Height of the visible body (viewport minus header). */
  viewportHeight: number
  /** Height of the virtual content: every row. */
  contentHeight: number
  /** Height the scrollable body really has (capped). */
  scrollHeight: number
  /** Largest scrollTop / largest virtual offset. */
  maxScrollTop: number
  maxOffset: number
}

export function geometry(rowCount: number, rowHeight: number, viewportHeight: number): Geometry {
  const contentHeight = rowCount * rowHeight
  const scrollHeight = Math.min(contentHeight, MAX_SCROLL_HEIGHT)
  return {
    rowHeight,
    rowCount,
    viewportHeight,
    contentHeight,
    scrollHeight,
    maxScrollTop: Math.max(0, scrollHeight - viewportHeight),
    maxOffset: Math.max(0, contentHeight - viewportHeight),
  }
}

export function isScaled(g: Geometry): boolean {
  return g.contentHeight > g.scrollHeight
}

/** Virtual content offset (px from row 0) for a scrollTop. */
export function offsetForScrollTop(g: Geometry, scrollTop: number): number {
  const top = Math.min(Math.max(scrollTop, 0), g.maxScrollTop)
  if (!isScaled(g) || g.maxScrollTop === 0) return Math.min(top, g.maxOffset)
  // The last scroll position maps to the very end, so the last rows are always reachable.
  return top >= g.maxScrollTop ? g.maxOffset : (top / g.maxScrollTop) * g.maxOffset
}

/** scrollTop that shows a virtual offset. */
export function scrollTopForOffset(g: Geometry, offset: number): number {
  const clamped = Math.min(Math.max(offset, 0), g.maxOffset)
  if (!isScaled(g) || g.maxOffset === 0) return clamped
  return (clamped / g.maxOffset) * g.maxScrollTop
}

export interface RowWindow {
  /** First row (partly) visible. */
  first: number
  /** One past the last row (partly) visible. */
  end: number
  /** Pixel position of row `first` relative to the body's top (≤ 0). */
  firstTop: number
}

export function visibleRows(g: Geometry, offset: number): RowWindow {
  if (g.rowCount === 0) return { first: 0, end: 0, firstTop: 0 }
  const clamped = Math.min(Math.max(offset, 0), g.maxOffset)
  const first = Math.min(Math.floor(clamped / g.rowHeight), g.rowCount - 1)
  const end = Math.min(g.rowCount, Math.ceil((clamped + g.viewportHeight) / g.rowHeight))
  return { first, end, firstTop: first * g.rowHeight - clamped }
}

/** Offset that brings `row` into view, moving as little as possible. */
export function offsetToReveal(g: Geometry, offset: number, row: number): number {
  const top = row * g.rowHeight
  const bottom = top + g.rowHeight
  if (top < offset) return top
  if (bottom > offset + g.viewportHeight) return Math.max(0, bottom - g.viewportHeight)
  return offset
}

/** Offset that puts `row` in the middle of the viewport (clamped at the ends of the table). */
export function offsetToCenter(g: Geometry, row: number): number {
  const centred = row * g.rowHeight - (g.viewportHeight - g.rowHeight) / 2
  return Math.min(Math.max(0, centred), g.maxOffset)
}
