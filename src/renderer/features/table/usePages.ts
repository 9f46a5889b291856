import type { Table } from 'apache-arrow'
import { useCallback, useLayoutEffect, useMemo, useState } from 'react'
import type { AppErrorData, TableRef, TableViewSpec } from '../../../contract'
import { isAbort } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { PageCache } from './pageCache'
import { useTablePageSource, type PageSource } from './pageSource'
import { PAGE_ROWS } from './queries'

export { PAGE_ROWS }
/** Decoded pages kept in memory (LRU). */
const CACHE_PAGES = 40
/** Rows beyond the visible window that are fetched ahead. */
const OVERSCAN_ROWS = 40

export interface PageStore {
  /** The page holding `row`, if loaded. */
  pageOf(row: number): Table | undefined
  /** Changes whenever a page arrives (a render key for the visible rows). */
  version: number
  loading: boolean
  error: AppErrorData | null
  retry(): void
  /** Ask for the pages of rows [first, end) now (a scroll handler, before the render that shows them). */
  prefetch(first: number, end: number): void
  /** Page 0 when it was already here as the view started (the grid fits its columns to it in its first render). */
  initialPage: Table | undefined
}

/** One view's pages: its decoded pages, the requests still running, and page 0 if it was here at once. */
interface ViewPages {
  cache: PageCache
  inFlight: Map<number, AbortController>
  /** The row count when each page was asked for (a page read before the count grew is read again). */
  askedAt: Map<number, number>
  initialPage: Table | undefined
}

/** A table view's pages (the Gallery's): `usePagesOf` over the view's page source. */
export function usePages(ref: TableRef, rowCount: number, first: number, end: number, view: TableViewSpec = {}, viewKey = ''): PageStore {
  return usePagesOf(useTablePageSource(ref, view, viewKey), rowCount, first, end)
}

/**
 * Fetches the pages covering the visible rows `[first, end)` and only those: jumping to the end
 * of a table fetches the last page directly. Requests for pages scrolled past are aborted (the source asks the
 * host to stop: `requests/cancel`), and their late answers ignored. A new source key (a filter, a sort, another
 * query) starts a fresh page cache and cancels the old one's requests: the grid stays mounted (a remount cost
 * ~25 ms). Page 0 comes through the source, which may share it (a table's comes through the query cache).
 */
export function usePagesOf(source: PageSource, rowCount: number, first: number, end: number): PageStore {
  // Mutable, but its identity only changes with the view; `version` tells React when it gained a page.
  const store = useMemo<ViewPages>(() => {
    const cache = new PageCache(CACHE_PAGES)
    // Page 0 already here: the first render shows rows, no second render needed.
    const initialPage = source.initialPage()
    if (initialPage) cache.set(0, initialPage)
    return { cache, inFlight: new Map(), askedAt: new Map(), initialPage }
    // Only a new source key starts a new cache (the key is the rows' identity).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source.key])
  const cache = store.cache
  const [version, setVersion] = useState(0)
  const [failed, setError] = useState<{ store: ViewPages; error: AppErrorData } | null>(null)
  const error = failed?.store === store ? failed.error : null
  const [attempt, setAttempt] = useState(0)

  // A page is here when it holds every row it should, or the row count has not grown since it was asked for: a
  // running query's last page, read while its rows were still arriving, is read again once there are more (a
  // table's short page under a stale count is not: that would ask for it again and again).
  const complete = useCallback(
    (page: number) => {
      const rows = cache.get(page)?.numRows
      if (rows === undefined) return false
      return rows >= Math.min(PAGE_ROWS, rowCount - page * PAGE_ROWS) || (store.askedAt.get(page) ?? 0) >= rowCount
    },
    [cache, rowCount, store],
  )

  // Requests the pages of rows [first, end) that are missing; cancels those of rows no longer wanted.
  const request = useCallback(
    (first: number, end: number) => {
      if (rowCount === 0 || end <= first) return
      const inFlight = store.inFlight
      const from = Math.max(0, first - OVERSCAN_ROWS)
      const to = Math.min(rowCount, end + OVERSCAN_ROWS)
      const wanted: number[] = []
      // Visible pages first, then the ones ahead and behind.
      const visibleFirst = Math.floor(first / PAGE_ROWS)
      const visibleLast = Math.floor((end - 1) / PAGE_ROWS)
      for (let page = visibleFirst; page <= visibleLast; page += 1) wanted.push(page)
      for (let page = Math.floor(from / PAGE_ROWS); page <= Math.floor((to - 1) / PAGE_ROWS); page += 1) {
        if (!wanted.includes(page)) wanted.push(page)
      }
      for (const [page, controller] of inFlight) {
        if (!wanted.includes(page)) {
          controller.abort()
          inFlight.delete(page)
        }
      }
      // The pages around the window wait until the visible ones are here: they would compete with them.
      const visibleMissing = wanted.slice(0, visibleLast - visibleFirst + 1).some((page) => !complete(page))
      for (const page of wanted) {
        if (complete(page) || inFlight.has(page)) continue
        if (visibleMissing && (page < visibleFirst || page > visibleLast)) continue
        const controller = new AbortController()
        inFlight.set(page, controller)
        store.askedAt.set(page, rowCount)
        const offset = page * PAGE_ROWS
        source
          .page(offset, Math.min(PAGE_ROWS, rowCount - offset), controller.signal)
          .then((table) => {
            if (controller.signal.aborted) return
            cache.set(page, table)
            setError(null)
            setVersion((v) => v + 1)
          })
          .catch((e: unknown) => {
            if (controller.signal.aborted || isAbort(e)) return
            setError({ store, error: errorData(e) })
          })
          .finally(() => {
            if (inFlight.get(page) === controller) inFlight.delete(page)
          })
      }
    },
    [source, rowCount, cache, store, complete],
  )

  // A layout effect: the visible page is requested in the same task as the render that needs it, not after
  // the next paint (a passive effect after a scroll waits for the frame). A scroll asks earlier
  // still, through `prefetch`, before React renders the new window.
  useLayoutEffect(() => request(first, end), [request, first, end, attempt, version])

  // Leaving a view (or the grid): its requests are cancelled, their answers ignored.
  useLayoutEffect(
    () => () => {
      store.inFlight.forEach((controller) => controller.abort())
      store.inFlight.clear()
    },
    [store],
  )

  const pageOf = useCallback((row: number) => cache.get(Math.floor(row / PAGE_ROWS)), [cache])
  const retry = useCallback(() => {
    setError(null)
    setAttempt((a) => a + 1)
  }, [])

  let loading = false
  for (let page = Math.floor(first / PAGE_ROWS); page <= Math.floor(Math.max(first, end - 1) / PAGE_ROWS); page += 1) {
    if (!cache.has(page)) loading = true
  }
  return { pageOf, version, loading: loading && rowCount > 0 && error === null, error, retry, prefetch: request, initialPage: store.initialPage }
}
