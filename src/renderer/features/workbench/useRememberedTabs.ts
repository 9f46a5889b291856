import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { saveTabs } from './mutations'
import { dropConnectionTabs, restoreTabs, savedTabsOf } from './tabs'
import type { Workbench } from './Workbench'

/**
 * How long the tabs rest unchanged before they are written (a filter typed, tabs dragged: one write). A view reports
 * its scroll and active cell once its grid has rested 400 ms (table/useViewPlace.ts), so scrolling writes once,
 * about a second after it stops, never on every frame.
 */
const SAVE_DELAY_MS = 600

/**
 * Each catalog's tabs, remembered in the settings (`workbench/saveTabs`, never in the catalog) and opened again when
 * the catalog is open in a new session (`workbench/tabs`). Tabs of a catalog that closes close with it (remembered
 * as they were). Answers what could not be restored, in words, for the window to say.
 */
export function useRememberedTabs(workbench: Workbench, connections: readonly ConnectionInfo[]): { notes: string[]; dismiss(): void } {
  const { state, update } = workbench
  const restored = useRef(new Set<string>())
  const written = useRef(new Map<string, string>())
  const [notes, setNotes] = useState<string[]>([])
  const { mutateAsync: save } = useMutation(saveTabs)
  // One write at a time, in order: two in flight could land out of order (an older list over a newer one).
  const queue = useRef<Promise<unknown>>(Promise.resolve())

  useEffect(() => {
    const open = new Set(connections.map((c) => c.id))
    for (const id of restored.current) {
      if (open.has(id)) continue
      restored.current.delete(id)
      written.current.delete(id)
      update((s) => dropConnectionTabs(s, id))
    }
    for (const connection of connections) {
      if (restored.current.has(connection.id)) continue
      restored.current.add(connection.id)
      call('workbench/tabs', { connectionId: connection.id }).then(
        (remembered) => {
          written.current.set(connection.id, JSON.stringify({ tabs: remembered.tabs, ...(remembered.active !== undefined ? { active: remembered.active } : {}) }))
          if (remembered.tabs.length > 0) update((s) => restoreTabs(s, connection.id, remembered))
          if (remembered.skipped > 0) setNotes((n) => [...n, `${remembered.skipped} remembered tab${remembered.skipped === 1 ? '' : 's'} of ${connection.label} could not be read (an older or edited settings file) and did not open.`])
          const partial = remembered.partial ?? 0
          if (partial > 0) setNotes((n) => [...n, `${partial} remembered tab${partial === 1 ? '' : 's'} of ${connection.label} opened without part of ${partial === 1 ? 'its' : 'their'} place (scroll, selected cell, panels or gallery): it could not be read (an older or edited settings file).`])
        },
        (error: unknown) => {
          written.current.set(connection.id, '')
          setNotes((n) => [...n, `The tabs of ${connection.label} could not be restored: ${errorData(error).message}`])
        },
      )
    }
  }, [connections, update])

  useEffect(() => {
    const timer = setTimeout(() => {
      for (const [connectionId, before] of written.current) {
        const saved = savedTabsOf(state, connectionId)
        const text = JSON.stringify(saved)
        if (text === before) continue
        written.current.set(connectionId, text)
        // A failed write is tried again with the next change (unless a newer one was written since).
        const retry = () => {
          if (written.current.get(connectionId) === text) written.current.set(connectionId, before)
        }
        queue.current = queue.current.then(() => save({ connectionId, saved }).catch(retry))
      }
    }, SAVE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state, save])

  return { notes, dismiss: () => setNotes([]) }
}
