import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual'
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { TreeRow } from './treeModel'

export const ROW_HEIGHT = 24

/**
 * The tree's roving focus over a virtualized list: which item is tabbable (the focused one if still shown, else the
 * selected one, else the first), moving focus to an item that may be scrolled out of view, and the virtualizer that
 * keeps the focused item rendered so keyboard focus is never lost.
 */
export function useTreeFocus(rows: readonly TreeRow[], selectedKey: string | null) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [focusedKey, setFocusedKey] = useState<string | null>(null)
  const focusAfterRender = useRef(false)

  const itemIndexes = useMemo(() => {
    const map = new Map<string, number>()
    rows.forEach((row, index) => {
      if (row.type === 'item') map.set(row.key, index)
    })
    return map
  }, [rows])

  const activeKey = useMemo(() => {
    if (focusedKey && itemIndexes.has(focusedKey)) return focusedKey
    if (selectedKey && itemIndexes.has(selectedKey)) return selectedKey
    const first = rows.find((row) => row.type === 'item')
    return first ? first.key : null
  }, [focusedKey, selectedKey, itemIndexes, rows])

  // eslint-disable-next-line react-hooks/incompatible-library -- useVirtualizer returns functions React Compiler cannot memoize; this component is not compiled.
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 12,
    // Keep the focused item rendered even when scrolled out of view, so keyboard focus is never lost.
    rangeExtractor: (range: Range) => {
      const indexes = defaultRangeExtractor(range)
      const focused = activeKey ? itemIndexes.get(activeKey) : undefined
      if (focused === undefined || indexes.includes(focused)) return indexes
      return [...indexes, focused].sort((a, b) => a - b)
    },
  })

  const moveFocus = useCallback(
    (key: string) => {
      focusAfterRender.current = true
      setFocusedKey(key)
      const index = itemIndexes.get(key)
      if (index !== undefined) virtualizer.scrollToIndex(index, { align: 'auto' })
    },
    [itemIndexes, virtualizer],
  )

  // Move DOM focus once the newly focused item is rendered (it may have been virtualized away).
  useLayoutEffect(() => {
    if (!focusAfterRender.current || !activeKey) return
    const element = scrollRef.current?.querySelector<HTMLElement>(`[data-key="${CSS.escape(activeKey)}"]`)
    if (element) {
      focusAfterRender.current = false
      element.focus({ preventScroll: true })
    }
  })

  return { scrollRef, virtualizer, itemIndexes, activeKey, setFocusedKey, moveFocus }
}
