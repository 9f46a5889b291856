import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'

const FOCUSABLE =
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], summary, [tabindex]:not([tabindex="-1"])'

/** The dialog's tabbable elements in document order (rendered ones only). */
function tabbables(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => {
    if (element.getClientRects().length === 0) return false
    // A radio group is one stop, at its checked radio (as the browser's own Tab does).
    if (element instanceof HTMLInputElement && element.type === 'radio' && !element.checked) {
      return !dialog.querySelector(`input[type="radio"][name="${CSS.escape(element.name)}"]:checked`)
    }
    return true
  })
}

/**
 * The element Tab (or Shift+Tab) moves to from `from`, wrapping around the dialog. `from` may be outside
 * the list (the focused error panel, or <body>): the next one after it in document order is taken.
 */
function nextTabbable(dialog: HTMLElement, from: Element | null, backwards: boolean): HTMLElement | undefined {
  const items = tabbables(dialog)
  if (items.length === 0) return undefined
  const inside = from !== null && dialog.contains(from)
  if (!inside) return backwards ? items[items.length - 1] : items[0]
  const after = (item: HTMLElement) => (from.compareDocumentPosition(item) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0
  if (backwards) {
    const before = items.filter((item) => item !== from && !after(item))
    return before[before.length - 1] ?? items[items.length - 1]
  }
  return items.find((item) => item !== from && after(item)) ?? items[0]
}

/**
 * A modal dialog: role="dialog" labelled by its title, focus moved in on open and given back on
 * close, Tab kept inside, Escape closes (unless `onClose` is absent, e.g. while work is running).
 */
export function Modal({ labelledBy, onClose, className, children, role = 'dialog' }: { labelledBy: string; onClose?: () => void; className?: string; children: ReactNode; role?: 'dialog' | 'alertdialog' }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    // An action that waits for a check (Restore's) is disabled at first: focus cannot land there, so the first
    // enabled control takes it (else the focus stays behind the dialog, where Escape and Tab never reach it).
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus]:not(:disabled)') ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE)
    first?.focus()
    return () => previous?.focus?.()
  }, [])
  // A button that disables itself while work runs drops the focus to <body>, where the dialog's own
  // key handler never sees Escape or Tab. Catch those keys there and bring the focus back in.
  const onCloseRef = useRef(onClose)
  useEffect(() => {
    onCloseRef.current = onClose
  })
  useEffect(() => {
    const onDocumentKeyDown = (event: globalThis.KeyboardEvent) => {
      const dialog = ref.current
      if (!dialog || dialog.contains(document.activeElement)) return
      if (document.activeElement !== document.body && document.activeElement !== null) return
      if (event.key === 'Escape' && onCloseRef.current) {
        event.preventDefault()
        onCloseRef.current()
      } else if (event.key === 'Tab') {
        event.preventDefault()
        nextTabbable(dialog, null, event.shiftKey)?.focus()
      }
    }
    document.addEventListener('keydown', onDocumentKeyDown)
    return () => document.removeEventListener('keydown', onDocumentKeyDown)
  }, [])
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && onClose) {
      event.stopPropagation()
      onClose()
    } else if (event.key === 'Tab' && ref.current) {
      // Tab order is ours inside a modal: it wraps, and starts right from a focused non-tabbable (the error).
      event.preventDefault()
      nextTabbable(ref.current, document.activeElement, event.shiftKey)?.focus()
    }
  }
  return (
    <div className="modal-backdrop">
      <div ref={ref} role={role} aria-modal="true" aria-labelledby={labelledBy} className={`modal ${className ?? ''}`} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  )
}
