import { useCallback, useEffect, useRef } from 'react'
import type { SortKey, TableRef } from '../../../contract'
import { copyViewLink, type LinkedView } from '../links'
import { useConnections } from '../../queries/connections'
import type { CellMenuItem } from './CellMenu'

/**
 * **Copy link to this view** (links feature) for one table view: what a link names — the pinned version, filter,
 * sort and selected row (the active cell's, or the row whose context menu was opened) — kept current after each
 * render and read when the user copies; and the cell menu's item. Asked for before the view's queries exist (the
 * menu is built by them), so `viewForLink` is a ref the view fills in (`useLinkedView`).
 */
export function useLinkItem(latestRef: TableRef) {
  const connections = useConnections()
  const viewForLink = useRef<(row?: number) => LinkedView>(() => ({}))
  const linkItem = useCallback(
    (row: number): CellMenuItem => ({ label: 'Copy link to this view', run: () => void copyViewLink(connections, latestRef, viewForLink.current(row)).catch(() => undefined) }),
    [connections, latestRef],
  )
  return { viewForLink, linkItem }
}

interface LinkedState {
  pinned: number | undefined
  filter: string | undefined
  sort: SortKey[] | undefined
  activeRow(): number | undefined
  /** Where the view started (a link's view: its filter, sort and selected row). */
  start: { filter?: string; sort?: SortKey[]; row?: number } | undefined
  /** The view on screen: its filter and sort, whether it is counted (not stale), its key and count. */
  shown: { filter?: string; sort?: SortKey[] } | undefined
  ready: boolean
  viewKey: string | undefined
  count: number
  goToRow(row: number): void
}

/** Keeps what a link names current, and selects a link's starting row once its view is the one on screen. */
export function useLinkedView(viewForLinkRef: ReturnType<typeof useLinkItem>['viewForLink'], s: LinkedState) {
  const { pinned, filter, sort, activeRow } = s
  useEffect(() => {
    viewForLinkRef.current = (row = activeRow()) => ({
      ...(pinned !== undefined ? { version: pinned } : {}),
      ...(filter?.trim() ? { filter } : {}),
      ...(sort?.length ? { sort } : {}),
      ...(row !== undefined ? { row } : {}),
    })
  })
  // The grid's active cell belongs to one view (viewKey), so a row selected before the start's filter and sort
  // apply would be dropped with it: the first render shows the table unfiltered.
  const startRow = useRef(s.start?.row)
  const startShown = (s.shown?.filter ?? '') === (s.start?.filter ?? '') && JSON.stringify(s.shown?.sort ?? []) === JSON.stringify(s.start?.sort ?? [])
  const { ready, viewKey, count, goToRow } = s
  useEffect(() => {
    if (startRow.current === undefined || !ready || !viewKey || !startShown || startRow.current >= count) return
    goToRow(startRow.current)
    startRow.current = undefined
  }, [ready, goToRow, viewKey, startShown, count])
}
