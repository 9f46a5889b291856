import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import { ContextMenu, type MenuEntry } from '../ContextMenu'
import { MoreIcon } from '../Icons'
import { overflowing } from './overflow'
import './toolbar.css'

/** One entry of **More tools** for an item that moved there (an item may have several: a group of buttons). */
export interface ToolEntry extends MenuEntry {
  /** What the bar's button does. */
  run?(): void
  /**
   * Instead of `run`: what opens under More tools (Columns' popover), inside `within` (a pointer down outside it
   * closes it), or at `at` (the button's lower right corner, for a menu); `close` closes it and gives the focus
   * back to More tools.
   */
  popup?(close: (focusBack?: boolean) => void, within: RefObject<HTMLElement | null>, at: { x: number; y: number }): ReactNode
}

export interface ToolbarItem {
  id: string
  /** What the bar shows: stays mounted while the item is in the menu (hidden), so its state lives on. */
  bar: ReactNode
  /** Its entries in More tools, in the order they show. */
  menu: readonly ToolEntry[]
}

interface Sizes {
  /** The toolbar's own width. */
  available: number
  /** Each item's width on the bar, measured when it was last shown. */
  widths: Readonly<Record<string, number>>
  more: number
}

/** The More tools button's width until it is first drawn (an icon button's). */
const MORE_WIDTH = 28

/**
 * A toolbar that never wraps: the items that do not fit on its line move into a **More tools** menu button
 * (WAI-ARIA menu button: Enter, Space or ArrowDown opens; arrows move; Escape closes and gives focus back; Tab
 * leaves), in `moveOrder` (the toolbar says which give up their place first and why; the others after, trailing
 * ones first). One ResizeObserver watches the toolbar and its items: an item's width is read when it is drawn (or
 * changes), never while it is hidden, and the split is recomputed only when a width or the set of items changes.
 * The toolbar asks for the width of all its items (flex-basis): so it keeps the line it would take whole, whatever moved.
 */
export function OverflowToolbar({ items, moveOrder, className }: { items: readonly ToolbarItem[]; moveOrder: readonly string[]; className?: string }) {
  const bar = useRef<HTMLDivElement>(null)
  const more = useRef<HTMLButtonElement>(null)
  const anchor = useRef<HTMLDivElement>(null)
  const [sizes, setSizes] = useState<Sizes>({ available: 0, widths: {}, more: MORE_WIDTH })
  const [gap, setGap] = useState(0)
  const [at, setAt] = useState<{ x: number; y: number } | null>(null)
  const [popup, setPopup] = useState<{ id: string; x: number; y: number } | null>(null)

  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            // Drawn before the frame is painted: a toolbar that does not fit is never shown wrapped or cut.
            flushSync(() => setSizes((previous) => measure(previous, entries, bar.current, more.current)))
            // The toolbar's width changed: the menu and what it opened close (they were placed for the old one, and
            // an item back on the bar must not bring its popover back later).
            if (entries.some((entry) => entry.target.classList.contains('overflow-toolbar'))) {
              setAt(null)
              setPopup(null)
            }
          }),
    [],
  )
  useEffect(() => () => observer?.disconnect(), [observer])

  useLayoutEffect(() => {
    if (bar.current) setGap(parseFloat(getComputedStyle(bar.current).columnGap) || 0)
  }, [])

  // Watch the toolbar and each item; a new item is measured on its first draw (it is drawn before it can move).
  const ids = items.map((item) => item.id).join('\n')
  useLayoutEffect(() => {
    const root = bar.current
    if (!root || !observer) return
    observer.observe(root)
    for (const element of root.querySelectorAll<HTMLElement>(':scope > [data-tool]')) observer.observe(element)
  }, [observer, ids])
  const moreRef = useCallback((element: HTMLButtonElement | null) => {
    if (element) observer?.observe(element)
    else if (more.current) observer?.unobserve(more.current)
    more.current = element
  }, [observer])

  const { widths, available } = sizes
  const measured = items.every((item) => widths[item.id] !== undefined)
  const wanted = measured ? items.reduce((sum, item, i) => sum + widths[item.id]! + (i > 0 ? gap : 0), 0) : undefined
  const moved = useMemo(
    () => (measured && available > 0 ? overflowing(items.map((item) => ({ id: item.id, width: widths[item.id]! })), moveOrder, available, gap, sizes.more) : new Set<string>()),
    // The items' ids stand for the items: their bars and menus change on every render, their widths are in `sizes`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ids, moveOrder, measured, gap, sizes],
  )
  const entries = items.filter((item) => moved.has(item.id)).flatMap((item) => item.menu)
  const opened = popup === null ? undefined : entries.find((entry) => entry.id === popup.id)

  const open = () => {
    const box = more.current?.getBoundingClientRect()
    if (box) setAt({ x: box.right, y: box.bottom + 2 })
  }
  const onMoreKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowDown') return
    event.preventDefault()
    open()
  }
  const closePopup = (focusBack = true) => {
    setPopup(null)
    if (focusBack) more.current?.focus()
  }

  return (
    <div ref={bar} className={`toolbar overflow-toolbar${className ? ` ${className}` : ''}`} style={wanted === undefined ? undefined : { flexBasis: Math.ceil(wanted) }} data-measured={measured && available > 0}>
      {items.map((item) => (
        <div key={item.id} className="toolbar-item" data-tool={item.id} hidden={moved.has(item.id)}>
          {item.bar}
        </div>
      ))}
      {moved.size > 0 && (
        <div ref={anchor} className="popover-anchor toolbar-more">
          <button ref={moreRef} type="button" className="icon-button" aria-label="More tools" title="More tools" aria-haspopup="menu" aria-expanded={at !== null} onClick={open} onKeyDown={onMoreKey}>
            <MoreIcon />
          </button>
          {opened?.popup && popup && <Popup open={opened.popup} close={closePopup} within={anchor} at={popup} />}
        </div>
      )}
      {at && (
        <ContextMenu
          x={at.x}
          y={at.y}
          align="end"
          tabLeaves
          label="More tools"
          items={entries}
          onClose={() => setAt(null)}
          onChoose={(entry) => {
            setAt(null)
            if (entry.popup) setPopup({ id: entry.id, ...at })
            else entry.run?.()
          }}
        />
      )}
    </div>
  )
}

/** What an entry opens under More tools (Columns' popover). */
function Popup({ open, close, within, at }: { open: NonNullable<ToolEntry['popup']>; close(focusBack?: boolean): void; within: RefObject<HTMLElement | null>; at: { x: number; y: number } }) {
  return open(close, within, at)
}

/** The sizes after a ResizeObserver's report: the same object when nothing changed (no render). */
function measure(previous: Sizes, entries: readonly ResizeObserverEntry[], bar: HTMLElement | null, more: HTMLElement | null): Sizes {
  let next = previous
  for (const entry of entries) {
    const target = entry.target as HTMLElement
    const width = entry.borderBoxSize[0]?.inlineSize ?? entry.contentRect.width
    if (target === bar) {
      const inner = entry.contentBoxSize[0]?.inlineSize ?? entry.contentRect.width
      if (inner !== next.available) next = { ...next, available: inner }
    } else if (width === 0) {
      // Hidden (moved into the menu): its last width stands.
    } else if (target === more) {
      if (width !== next.more) next = { ...next, more: width }
    } else if (target.dataset.tool !== undefined && next.widths[target.dataset.tool] !== width) {
      next = { ...next, widths: { ...next.widths, [target.dataset.tool]: width } }
    }
  }
  return next
}
