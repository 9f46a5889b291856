import { useEffect } from 'react'
import { onHostEvent } from '../../api'
import type { Workbench } from './Workbench'

/**
 * The window's tab keys: Ctrl+Tab / Ctrl+Shift+Tab (and Ctrl+PageDown / PageUp) the next and previous tab,
 * Ctrl/Cmd+W closes the active tab, Ctrl/Cmd+Shift+T opens the last closed again, Ctrl/Cmd+1…8 a tab by place and
 * 9 the last, Ctrl/Cmd+\\ splits right, Ctrl+Shift+PageUp / PageDown move the active tab. The View menu's items (desktop) do the same; their
 * accelerators are shown there but not registered, so a key is handled once, here.
 */
export function useTabKeys(workbench: Workbench): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return
      const mod = event.ctrlKey || event.metaKey
      if (!mod) return
      const { state, active } = workbench
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key
      let handled = true
      if (key === 'Tab' && event.ctrlKey) workbench.cycle(event.shiftKey ? -1 : 1)
      else if ((key === 'PageUp' || key === 'PageDown') && event.ctrlKey && event.shiftKey) {
        if (active) workbench.move(active.id, state.tabs.indexOf(active) + (key === 'PageUp' ? -1 : 1))
      } else if ((key === 'PageUp' || key === 'PageDown') && event.ctrlKey) workbench.cycle(key === 'PageUp' ? -1 : 1)
      else if (key === 'w' && !event.shiftKey) {
        // With no tab shown (a namespace, the start screen) the key does nothing rather than close a hidden tab.
        if (active && state.shown) workbench.close(active.id)
        else handled = false
      } else if (key === 't' && event.shiftKey) workbench.reopen()
      else if (key === '\\' && !event.shiftKey) workbench.splitRight()
      else if (/^[1-9]$/.test(event.key) && !event.shiftKey) workbench.selectNumber(Number(event.key))
      else handled = false
      if (handled) event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [workbench])

  useEffect(
    () =>
      onHostEvent('app/command', ({ command }) => {
        if (command === 'close-tab' && workbench.active && workbench.state.shown) workbench.close(workbench.active.id)
        else if (command === 'reopen-tab') workbench.reopen()
        else if (command === 'split-right') workbench.splitRight()
        else if (command === 'next-tab') workbench.cycle(1)
        else if (command === 'previous-tab') workbench.cycle(-1)
      }),
    [workbench],
  )
}
