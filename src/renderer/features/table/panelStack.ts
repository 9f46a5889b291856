import { useEffect, useRef } from 'react'

/**
 * Side panels (Schema, Cell inspector, Versions, Indexes, Stats) as a stack: **Escape** closes the one
 * opened last and gives the focus back to the grid. One window listener serves every panel; keys another
 * control already handled (the filter box, a dialog, a menu) or typed into a text field are left alone.
 */
interface Layer {
  id: number
  close: () => void
}

const layers: Layer[] = []
let nextId = 1
let listening = false

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' || (target.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes((target as HTMLInputElement).type))
}

function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== 'Escape' || event.defaultPrevented || layers.length === 0) return
  if (isTextField(event.target)) return
  // A modal dialog or a menu has the Escape key for itself.
  if (document.querySelector('[aria-modal="true"], [role="menu"], [role="listbox"]')) return
  const top = layers[layers.length - 1]!
  event.preventDefault()
  top.close()
  document.querySelector<HTMLElement>('.table-view [role="grid"]')?.focus()
}

/** Register an open side panel; `isTop()` says whether Escape would close it now. */
export function useEscapeLayer(open: boolean, close: () => void): { isTop(): boolean } {
  const closeRef = useRef(close)
  const idRef = useRef(0)
  useEffect(() => {
    closeRef.current = close
  })
  useEffect(() => {
    if (!open) return
    const layer: Layer = { id: nextId++, close: () => closeRef.current() }
    idRef.current = layer.id
    layers.push(layer)
    if (!listening) {
      window.addEventListener('keydown', onKeyDown)
      listening = true
    }
    return () => {
      const at = layers.indexOf(layer)
      if (at >= 0) layers.splice(at, 1)
      idRef.current = 0
    }
  }, [open])
  return { isTop: () => idRef.current !== 0 && layers[layers.length - 1]?.id === idRef.current }
}
