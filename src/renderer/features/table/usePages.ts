import type { Table } from 'apache-arrow'
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { AppErrorData, TableRef, TableViewSpec } from '../../../contract'
import { isAbort, readPage } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { PageCache } from './pageCache'

/** Rows per `tables/page` request. */
export const PAGE_ROWS = 100
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
}

/** A request for page 0 started before the table's size was known (in parallel with `tables/describe`). */
export interface PageSeed {
  promise: Promise<Table>
  controller: AbortController
}

/**
 * Fetches the pages covering the visible rows `[first, end)` and only those: jumping to the end
 * of a table fetches the last page directly. Requests for pages scrolled past are cancelled with
 * `requests/cancel`, and their late answers ignored.
 */
export function usePages(ref: TableRef, rowCount: number, first: number, end: number, seed?: PageSeed, initialPage?: Table, view?: TableViewSpec): PageStore {
  // Mutable, but its identity never changes; `version` tells React when it gained a page.
  const [cache] = useState(() => {
    const pages = new PageCache(CACHE_PAGES)
    // Page 0 already here: the first render shows rows, no second render needed.
    if (initialPage) pages.set(0, initialPage)
    return pages
  })
  const inFlight = useRef(new Map<number, AbortController>())
  const [version, setVersion] = useState(0)
  const [error, setError] = useState<AppErrorData | null>(null)
  const [attempt, setAttempt] = useState(0)
  const seedUsed = useRef(false)

  // A layout effect: the visible page is requested in the same task as the scroll that needs it, not after
  // the next paint (a passive effect after a scroll waits for the frame; issue 13).
  useLayoutEffect(() => {
    if (rowCount === 0 || end <= first) return
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
    for (const [page, controller] of inFlight.current) {
      if (!wanted.includes(page)) {
        controller.abort()
        inFlight.current.delete(page)
      }
    }
    // The pages around the window wait until the visible ones are here: they would compete with them.
    const visibleMissing = wanted.slice(0, visibleLast - visibleFirst + 1).some((page) => !cache.has(page))
    for (const page of wanted) {
      if (cache.has(page) || inFlight.current.has(page)) continue
      if (visibleMissing && (page < visibleFirst || page > visibleLast)) continue
      const useSeed = page === 0 && seed !== undefined && !seedUsed.current && !seed.controller.signal.aborted
      if (useSeed) seedUsed.current = true
      const controller = useSeed ? seed.controller : new AbortController()
      inFlight.current.set(page, controller)
      const offset = page * PAGE_ROWS
      const request = useSeed ? seed.promise : readPage(ref, offset, Math.min(PAGE_ROWS, rowCount - offset), controller.signal, view)
      request
        .then((table) => {
          if (controller.signal.aborted) return
          cache.set(page, table)
          setError(null)
          setVersion((v) => v + 1)
        })
        .catch((e: unknown) => {
          if (controller.signal.aborted || isAbort(e)) return
          setError(errorData(e))
        })
        .finally(() => {
          if (inFlight.current.get(page) === controller) inFlight.current.delete(page)
        })
    }
  }, [ref, rowCount, first, end, attempt, version, cache, seed, view])

  useEffect(() => {
    const pending = inFlight.current
    return () => {
      pending.forEach((controller) => controller.abort())
      pending.clear()
    }
  }, [])

  const pageOf = useCallback((row: number) => cache.get(Math.floor(row / PAGE_ROWS)), [cache])
  const retry = useCallback(() => {
    setError(null)
    setAttempt((a) => a + 1)
  }, [])

  let loading = false
  for (let page = Math.floor(first / PAGE_ROWS); page <= Math.floor(Math.max(first, end - 1) / PAGE_ROWS); page += 1) {
    if (!cache.has(page)) loading = true
  }
  return { pageOf, version, loading: loading && rowCount > 0 && error === null, error, retry }
}
