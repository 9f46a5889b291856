import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
/** One entry of a menu; `reason` says why it is disabled. */
export interface MenuEntry {
  id: string
  label: string
  disabled: boolean
  reason?: string
}

export interface ContextMenuProps<T extends MenuEntry> {
  /** Viewport position (the pointer, or the focused item for the keyboard). */
  x: number
  y: number
  label: string
  items: readonly T[]
  onChoose(item: T): void
  onClose(): void
}

/**
 * A context menu (WAI-ARIA menu pattern; the tree's, the grid's, the Add menu): arrows move, Enter chooses,
 * Escape closes and gives focus back. A disabled item stays focusable (aria-disabled) so its reason can be read.
 */
export function ContextMenu<T extends MenuEntry>({ x, y, label, items, onChoose, onClose }: ContextMenuProps<T>) {
  const ref = useRef<HTMLDivElement>(null)
  const [active, setActive] = useState(() => Math.max(0, items.findIndex((i) => !i.disabled)))
  const [position, setPosition] = useState({ left: x, top: y })
  // Read while rendering, before the first item takes the focus (an effect would read the item itself).
  const [opener] = useState(() => document.activeElement as HTMLElement | null)

  // Keep the menu inside the window.
  useLayoutEffect(() => {
    const box = ref.current?.getBoundingClientRect()
    if (!box) return
    setPosition({ left: Math.max(4, Math.min(x, window.innerWidth - box.width - 4)), top: Math.max(4, Math.min(y, window.innerHeight - box.height - 4)) })
  }, [x, y])

  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]?.focus()
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
          role="menuitem"
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
