import { useEffect, useMemo, useRef, useState } from 'react'
import type { SortKey } from '../../../contract'
import { contributions, type DockSide } from '../../components/dock/registry'
import { useShown } from '../../components/shown'
import type { GridStatusStore } from './GridStatusBar'

/** How long the grid rests (no scroll, no new active cell) before its place is reported: one report per stop, not one a frame. */
const PLACE_REST_MS = 400

/**
 * Where the user is in a table view, as a tab remembers it over a restart (SavedTab): the grid's first visible row
 * and active cell, the open dock panels with each dock's tab, and whether the gallery is on.
 */
export interface ViewPlace {
  first?: number
  cell?: { row: number; column: string }
  panels?: string[]
  dockTabs?: Partial<Record<DockSide, string>>
  gallery?: boolean
}

/** What the grid is asked to show once (Grid's `place`): a first row at the top and an active cell. */
export interface GridPlace {
  first: number
  cell?: { row: number; column: string }
  nonce: number
}

interface PlaceState {
  /** Where the view started (a restored tab): its filter and sort, and the place to go back to in that view. */
  start: { filter?: string; sort?: SortKey[]; first?: number; cell?: { row: number; column: string }; gallery?: boolean } | undefined
  /** The view on screen: its filter and sort. */
  shown: { filter?: string; sort?: SortKey[] } | undefined
  /** The view's rows are counted and on screen (not a previous result). */
  ready: boolean
  count: number
  dock: { open: readonly string[]; active: Partial<Record<DockSide, string>> }
  gallery: boolean
  /** Where the view reports what it shows (its tab), with its pinned version (and the latest then), filter and sort. */
  report?: (view: { version?: number; latest?: number; filter?: string; sort?: SortKey[] } & ViewPlace) => void
  pinned: number | undefined
  latest: number | undefined
  filter: string | undefined
  sort: SortKey[] | undefined
}

/**
 * The view's place, reported for its tab to remember (with its version, filter and sort), and the start's place
 * given back to the grid. The grid's part
 * is read from its status (the store the status bar reads) once it has rested; while the start's place is not yet
 * on screen — the tab is hidden (its grid has no size to scroll), its filter not yet applied, the gallery over the
 * grid — the start's place is what is reported, so a tab never shown in a session keeps its place for the next.
 */
export function useViewPlace(status: GridStatusStore, s: PlaceState): { place: ViewPlace; grid: GridPlace | undefined } {
  const onScreen = useShown()
  const { start, shown, ready, count, dock, gallery } = s
  const [startPart] = useState(() => gridPartOf(start))
  // The start's place until the grid has been given it (null: given, or there was none), then the first row given
  // until the grid's status shows it (a loaded machine renders the scroll a while after it is asked for).
  const waiting = useRef(startPart.first !== undefined ? startPart : null)
  const given = useRef<{ first: number; from: number } | null>(null)
  const [gridPart, setGridPart] = useState(startPart)
  const [grid, setGrid] = useState<GridPlace | undefined>(undefined)

  // The start's view is the one on screen (the first render shows the table before its filter applies).
  const startShown = (shown?.filter ?? '') === (start?.filter ?? '') && JSON.stringify(shown?.sort ?? []) === JSON.stringify(start?.sort ?? [])
  useEffect(() => {
    const want = waiting.current
    if (!want || !onScreen || !ready || !startShown || gallery || count === 0) return
    waiting.current = null
    const first = Math.min(want.first ?? 0, count - 1)
    given.current = { first, from: status.get()?.first ?? 0 }
    setGrid({ first, ...(want.cell && want.cell.row < count ? { cell: want.cell } : {}), nonce: 1 })
  }, [onScreen, ready, startShown, gallery, count, status])

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = () => {
      // The gallery reports its own thumbnails into the same store: the grid's place is the one it had.
      const now = status.get()
      // Still where it was before the place was given (the grid clamps a row near the end: another first row).
      const unmoved = given.current !== null && now?.first !== given.current.first && now?.first === given.current.from
      if (waiting.current || gallery || !now || unmoved) return
      given.current = null
      setGrid(undefined) // given once: a grid mounted again (a reload) starts at its top, as before
      setGridPart((was) => {
        const cell = now.active && now.active.column ? { row: now.active.row, column: now.active.column } : undefined
        return was.first === now.first && was.cell?.row === cell?.row && was.cell?.column === cell?.column ? was : { first: now.first, ...(cell ? { cell } : {}) }
      })
    }
    const unsubscribe = status.subscribe(() => {
      clearTimeout(timer)
      timer = setTimeout(read, PLACE_REST_MS)
    })
    return () => {
      clearTimeout(timer)
      unsubscribe()
    }
  }, [status, gallery])

  // Panels are remembered by id, the registered ones only (an id of a panel no longer contributed is dropped).
  const { open, active } = dock
  const place = useMemo<ViewPlace>(() => {
    const known = new Set(contributions.panels().map((p) => p.id))
    const panels = open.filter((id) => known.has(id))
    const dockTabs = Object.fromEntries(Object.entries(active).filter(([, id]) => id !== undefined && panels.includes(id)))
    // The gallery shows once its images are found: until the view is read, the start's wish stands.
    const galleryOn = gallery || (!ready && !!start?.gallery)
    return { ...gridPart, ...(panels.length ? { panels } : {}), ...(Object.keys(dockTabs).length ? { dockTabs } : {}), ...(galleryOn ? { gallery: true } : {}) }
  }, [gridPart, open, active, gallery, ready, start?.gallery])

  const { report, pinned, latest, filter, sort } = s
  useEffect(() => {
    report?.({ ...(pinned !== undefined ? { version: pinned, latest } : {}), ...(filter?.trim() ? { filter } : {}), ...(sort?.length ? { sort } : {}), ...place })
  }, [report, pinned, latest, filter, sort, place])
  return { place, grid }
}

/** The grid's part of a start: its first row (0 when only a cell is given) and active cell. */
function gridPartOf(start: PlaceState['start']): Pick<ViewPlace, 'first' | 'cell'> {
  if (start?.first === undefined && start?.cell === undefined) return {}
  return { first: start.first ?? 0, ...(start.cell ? { cell: start.cell } : {}) }
}
