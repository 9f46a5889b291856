import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
/** One entry of a menu; `reason` says why it is disabled. */
export interface MenuEntry {
  id: string
  label: string
  disabled: boolean
  reason?: string
  /** A toggle (a panel, a view switch): drawn as a `menuitemcheckbox`, checked while on. */
  checked?: boolean
}

export interface ContextMenuProps<T extends MenuEntry> {
  /** Viewport position (the pointer, or the focused item for the keyboard). */
  x: number
  y: number
  label: string
  items: readonly T[]
  onChoose(item: T): void
  onClose(): void
  /** `end`: x is the menu's right edge (a menu button at the end of a toolbar opens leftwards). */
  align?: 'start' | 'end'
  /** Tab closes the menu and moves on from its opener (a menu button's menu); otherwise focus goes back to it. */
  tabLeaves?: boolean
}

/**
 * A context menu (WAI-ARIA menu pattern; the tree's, the grid's, the Add menu): arrows move, Enter chooses,
 * Escape closes and gives focus back. A disabled item stays focusable (aria-disabled) so its reason can be read.
 */
export function ContextMenu<T extends MenuEntry>({ x, y, label, items, onChoose, onClose, align = 'start', tabLeaves = false }: ContextMenuProps<T>) {
  const ref = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(() => Math.max(0, items.findIndex((i) => !i.disabled)))
  const [position, setPosition] = useState({ left: x, top: y })
  // Read while rendering, before the first item takes the focus (an effect would read the item itself).
  const [opener] = useState(() => document.activeElement as HTMLElement | null)

  // Keep the menu inside the window.
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect()
    if (!box) return
    const left = align === 'end' ? x - box.width : x
    setPosition({ left: Math.max(4, Math.min(left, window.innerWidth - box.width - 4)), top: Math.max(4, Math.min(y, window.innerHeight - box.height - 4)) })
  }, [x, y, align])

  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]')[active]?.focus()
  }, [active])

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose()
    }
    const onBlurWindow = () => onClose()
    document.addEventListener('pointerdown', onPointer, true)
    window.addEventListener('blur', onBlurWindow)
    return () => {
      document.removeEventListener('pointerdown', onPointer, true)
      window.removeEventListener('blur', onBlurWindow)
      if (opener?.isConnected && (document.activeElement === document.body || document.activeElement === null)) opener.focus({ preventScroll: true })
    }
  }, [onClose, opener])

  const choose = (item: T | undefined) => {
    if (!item || item.disabled) return
    onChoose(item)
  }

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Tab' && tabLeaves) {
      // The browser's Tab then moves on from the opener, to the control after (or, with Shift, before) it.
      opener?.focus({ preventScroll: true })
      onClose()
      return
    }
    let handled = true
    if (event.key === 'ArrowDown') setActive((i) => (i + 1) % items.length)
    else if (event.key === 'ArrowUp') setActive((i) => (i - 1 + items.length) % items.length)
    else if (event.key === 'Home') setActive(0)
    else if (event.key === 'End') setActive(items.length - 1)
    else if (event.key === 'Escape' || event.key === 'Tab') onClose()
    else if (event.key === 'Enter' || event.key === ' ') choose(items[active])
    else handled = false
    if (handled) {
      event.preventDefault()
      event.stopPropagation()
    }
  }

  return (
    <div ref={ref} role="menu" aria-label={label} className="context-menu" style={position} onKeyDown={onKeyDown} onContextMenu={(e) => e.preventDefault()}>
      {items.map((item, index) => (
        <div
          key={item.id}
          role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
          aria-checked={item.checked}
          tabIndex={index === active ? 0 : -1}
          aria-disabled={item.disabled || undefined}
          aria-description={item.reason}
          title={item.reason}
          className={item.disabled ? 'context-item disabled' : 'context-item'}
          onMouseEnter={() => setActive(index)}
          onClick={() => choose(item)}
        >
          <span>{item.label}</span>
          {item.reason && <span className="context-reason">{item.reason}</span>}
        </div>
      ))}
    </div>
  )
}
