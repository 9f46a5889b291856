import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import type { DockSide } from './registry'

/** Panels to start with (a tab restored after a restart, a split): their ids and the tab each dock shows. */
export interface DockStart {
  open?: readonly string[]
  active?: Partial<Record<DockSide, string>>
}

/**
 * Which panels one table view has open (in the order they were opened: Escape closes the last) and which tab
 * each dock shows. Held by the view itself, so two views side by side keep their own. `start` is read once.
 */
export function useDockState(start?: DockStart) {
  const [open, setOpen] = useState<readonly string[]>(() => start?.open ?? [])
  const [active, setActive] = useState<Partial<Record<DockSide, string>>>(() => start?.active ?? {})
  const show = useCallback((id: string, side: DockSide) => {
    setOpen((was) => (was.includes(id) ? was : [...was, id]))
    setActive((was) => ({ ...was, [side]: id }))
  }, [])
  const close = useCallback((id: string) => setOpen((was) => was.filter((p) => p !== id)), [])
  const closeAll = useCallback(() => setOpen([]), [])
  /** A toolbar button: opens the panel (and shows its tab), or closes it when it is open. */
  const toggle = useCallback((id: string, side: DockSide) => {
    setOpen((was) => (was.includes(id) ? was.filter((p) => p !== id) : [...was, id]))
    setActive((was) => ({ ...was, [side]: id }))
  }, [])
  const select = useCallback((side: DockSide, id: string) => setActive((was) => ({ ...was, [side]: id })), [])
  return { open, active, show, close, closeAll, toggle, select }
}

/** Whether the element is narrower than `width` (a small window, or one side of a split): the docks become a drawer.
 * While it is hidden, the answer it last had on screen. */
export function useNarrow(ref: RefObject<HTMLElement | null>, width: number): boolean {
  return useMeasuredNarrow(ref, width) ?? false
}

/** {@link useNarrow}, and null until the element has been on screen to measure (a tab restored hidden). */
export function useMeasuredNarrow(ref: RefObject<HTMLElement | null>, width: number): boolean | null {
  const [narrow, setNarrow] = useState<boolean | null>(null)
  const widthRef = useRef(width)
  // Before the first paint: a view on screen at once knows its layout before its panels draw.
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const measure = () => {
      const box = element.getBoundingClientRect()
      // A hidden view (a tab not shown: display none) measures 0 × 0. It keeps the layout it had: moving its panels
      // into the drawer and back would remount each on every tab switch (a Summary asked again, a Map redrawn).
      if (box.width === 0 && box.height === 0) return
      setNarrow(box.width < widthRef.current)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return narrow
}
