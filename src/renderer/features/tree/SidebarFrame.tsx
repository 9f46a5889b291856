import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react'

const WIDTH_KEY = 'lcb.sidebar.width'
const COLLAPSED_KEY = 'lcb.sidebar.collapsed'
export const SIDEBAR_MIN = 220
export const SIDEBAR_DEFAULT = 260
const SIDEBAR_MAX = 560
const STEP = 16

/** The widest the sidebar may be in this window: it always leaves the content at least 360 px. */
function maxWidth(): number {
  return Math.max(SIDEBAR_MIN, Math.min(SIDEBAR_MAX, window.innerWidth - 360))
}

function clamp(width: number): number {
  return Math.round(Math.max(SIDEBAR_MIN, Math.min(maxWidth(), width)))
}

function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

function store(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value)
  } catch {
    // Private windows may refuse storage: the layout still works, it is just not remembered.
  }
}

/**
 * The sidebar's width and whether it is hidden (both remembered in localStorage), and the pieces the
 * window places around it: a drag handle (role separator: arrows, Shift+arrows, Home/End; double-click
 * resets), a button in the sidebar's header that hides it, and a narrow rail that brings it back.
 */
export function useSidebarLayout() {
  const [width, setWidthState] = useState(() => {
    const saved = Number(stored(WIDTH_KEY))
    return Number.isFinite(saved) && saved > 0 ? clamp(saved) : clamp(SIDEBAR_DEFAULT)
  })
  const [collapsed, setCollapsedState] = useState(() => stored(COLLAPSED_KEY) === 'true')
  const [dragging, setDragging] = useState(false)
  const drag = useRef<{ startX: number; startWidth: number } | null>(null)
  const railButton = useRef<HTMLButtonElement>(null)
  const hideButton = useRef<HTMLButtonElement>(null)
  const toggled = useRef(false)

  const setWidth = useCallback((next: number) => {
    const value = clamp(next)
    setWidthState(value)
    store(WIDTH_KEY, String(value))
  }, [])
  const setCollapsed = useCallback((next: boolean) => {
    toggled.current = true
    setCollapsedState(next)
    store(COLLAPSED_KEY, String(next))
  }, [])
  // A smaller window: keep the content usable.
  useEffect(() => {
    const onResize = () => setWidthState((current) => clamp(current))
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])
  // The button pressed disappears with the change: move the focus to the one that undoes it.
  // (Only after a toggle: on first render the focus stays where the app puts it.)
  useEffect(() => {
    if (!toggled.current) return
    toggled.current = false
    ;(collapsed ? railButton : hideButton).current?.focus()
  }, [collapsed])

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return
    event.preventDefault()
    event.currentTarget.setPointerCapture(event.pointerId)
    drag.current = { startX: event.clientX, startWidth: width }
    setDragging(true)
  }
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setWidth(drag.current.startWidth + event.clientX - drag.current.startX)
  }
  const endDrag = () => {
    drag.current = null
    setDragging(false)
  }
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? STEP * 4 : STEP
    if (event.key === 'ArrowLeft') setWidth(width - step)
    else if (event.key === 'ArrowRight') setWidth(width + step)
    else if (event.key === 'Home') setWidth(SIDEBAR_MIN)
    else if (event.key === 'End') setWidth(maxWidth())
    else return
    event.preventDefault()
  }

  return {
    width,
    collapsed,
    setWidth,
    setCollapsed,
    railButtonRef: railButton,
    hideButtonRef: hideButton,
    /** The drag handle's events: drag, arrows (Shift: larger steps), Home/End, double-click resets. */
    handleEvents: { onPointerDown, onPointerMove, onPointerUp: endDrag, onPointerCancel: endDrag, onDoubleClick: () => setWidth(SIDEBAR_DEFAULT), onKeyDown },
    className: `${collapsed ? ' sidebar-collapsed' : ''}${dragging ? ' resizing' : ''}`,
    style: { '--sidebar-width': `${width}px` } as CSSProperties,
  }
}

type SidebarLayout = ReturnType<typeof useSidebarLayout>

/** The button in the sidebar's header that hides it. */
export function SidebarCollapseButton({ buttonRef, onHide }: { buttonRef: SidebarLayout['hideButtonRef']; onHide(): void }) {
  return (
    <button ref={buttonRef} type="button" className="icon-button" aria-label="Hide sidebar" title="Hide sidebar" onClick={onHide}>
      <SidebarIcon />
    </button>
  )
}

/** The narrow rail that brings a hidden sidebar back. */
export function SidebarRail({ collapsed, buttonRef, onShow }: { collapsed: boolean; buttonRef: SidebarLayout['railButtonRef']; onShow(): void }) {
  if (!collapsed) return null
  return (
    <div className="sidebar-rail">
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Show sidebar"
        title="Show sidebar"
        onClick={onShow}
      >
        <SidebarIcon />
      </button>
    </div>
  )
}

/** The drag handle between the sidebar and the content (role separator), while the sidebar shows. */
export function SidebarHandle({ collapsed, width, events }: { collapsed: boolean; width: number; events: SidebarLayout['handleEvents'] }) {
  if (collapsed) return null
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize sidebar"
      aria-valuemin={SIDEBAR_MIN}
      aria-valuemax={maxWidth()}
      aria-valuenow={width}
      tabIndex={0}
      title="Drag or use the arrow keys to resize; double-click to reset"
      className="sidebar-handle"
      {...events}
    />
  )
}

function SidebarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.4">
      <rect x="2" y="3" width="12" height="10" rx="1.5" />
      <path d="M6.5 3v10" />
    </svg>
  )
}
