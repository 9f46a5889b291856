import { useEffect, useRef, useState, type KeyboardEvent } from 'react'

export interface CellMenuItem {
  label: string
  run: () => void
  /** Why it is disabled, when it is. */
  disabled?: string
  separatorBefore?: boolean
}

/**
 * A cell's context menu (role `menu`): arrows move, Enter runs, Escape or a click elsewhere closes. Closed with
 * the focus inside it, the focus goes back where it was when the menu opened (the grid, on the cell it came from).
 */
export function CellMenu({ x, y, items, onClose }: { x: number; y: number; items: CellMenuItem[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null)
  // Read while rendering, before the menu takes the focus.
  const [opener] = useState(() => document.activeElement as HTMLElement | null)
  useEffect(
    () => () => {
      // A removed menu leaves the focus on <body>; an item that moved it elsewhere (a dialog) keeps its place.
      if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus({ preventScroll: true })
    },
    [opener],
  )
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus()
    const away = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose()
    }
    window.addEventListener('mousedown', away)
    window.addEventListener('blur', onClose)
    return () => {
      window.removeEventListener('mousedown', away)
      window.removeEventListener('blur', onClose)
    }
  }, [onClose])
  const onKeyDown = (event: KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? [])]
    const at = buttons.indexOf(document.activeElement as HTMLElement)
    if (event.key === 'Escape') onClose()
    else if (event.key === 'ArrowDown') buttons[(at + 1) % buttons.length]?.focus()
    else if (event.key === 'ArrowUp') buttons[(at - 1 + buttons.length) % buttons.length]?.focus()
    else return
    event.preventDefault()
    event.stopPropagation()
  }
  // Keep the menu inside the window.
  const left = Math.min(x, window.innerWidth - 230)
  const top = Math.min(y, window.innerHeight - (items.length * 32 + 16))
  return (
    <div ref={ref} role="menu" aria-label="Cell actions" className="cell-menu" style={{ left, top }} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <div key={item.label}>
          {item.separatorBefore && <hr />}
          <button
            type="button"
            role="menuitem"
            disabled={item.disabled !== undefined}
            title={item.disabled}
            onClick={() => {
              onClose()
              item.run()
            }}
          >
            {item.label}
          </button>
        </div>
      ))}
    </div>
  )
}
