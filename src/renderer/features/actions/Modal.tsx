import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react'

const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * A modal dialog: role="dialog" labelled by its title, focus moved in on open and given back on
 * close, Tab kept inside, Escape closes (unless `onClose` is absent, e.g. while work is running).
 */
export function Modal({ labelledBy, onClose, className, children, role = 'dialog' }: { labelledBy: string; onClose?: () => void; className?: string; children: ReactNode; role?: 'dialog' | 'alertdialog' }) {
  const ref = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus]') ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE)
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
        const items = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)]
        ;(event.shiftKey ? items[items.length - 1] : items[0])?.focus()
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
      const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
      const first = items[0]
      const last = items[items.length - 1]
      if (!first || !last) return
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault()
        last.focus()
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault()
        first.focus()
      }
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
