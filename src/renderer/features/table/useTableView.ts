import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { AppErrorData, RowSetInfo, Search, SortKey, TableInfo, TableRef, TableViewSpec } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { useShown } from '../../components/shown'
import { countQuery, firstPageQuery, tableKeys, tableScope } from './queries'

/** A new view that takes longer than this shows the filter bar's spinner (a quick one re-renders nothing while it runs). */
const SPINNER_DELAY_MS = 150
/** How often a table on screen asks whether a newer version exists (one cheap version read); a hidden tab asks once when shown again. */
const VERSION_POLL_MS = 4000

/** What the user chose to see; the version comes from the description. */
export interface ViewChoice {
  filter?: string
  sort?: SortKey[]
  search?: Search
  /** Rows chosen on the map (a lasso), kept by core as a row set of this version; the filter ANDs with it. */
  rowSet?: RowSetInfo
}

/**
 * A question asked but not answered: still running (shown only after the spinner's delay) or refused. While there
 * is one, what the grid and the header show answers the *previous* question, and the view says so in words.
 */
export interface PendingView {
  choice: ViewChoice
  state: 'running' | 'failed'
}

export interface TableViewState {
  /** The view every read uses: the described version plus the user's choice. */
  view: TableViewSpec
  choice: ViewChoice
  /** Rows of the view (the table's row count when nothing narrows it). */
  count: number
  /** A key that changes with the view (the grid starts a fresh page cache and scrolls to the top; it is not remounted). */
  viewKey: string
  /** Why the last change was refused (a bad predicate: Lance's message). The view stays as it was. */
  error: AppErrorData | null
  applying: boolean
  /** The newer question the screen does not answer (running or refused); null when the screen answers the last one asked. */
  pending: PendingView | null
  /** Try a new choice: count and first page first; only when both succeed does the grid switch. */
  apply(next: ViewChoice | ((latest: ViewChoice) => ViewChoice)): Promise<boolean>
  clearError(): void
  /** The user went back to the question on screen (the filter box says what is shown again): no refused question remains. */
  settle(): void
  /** The table's latest version, when newer than the view's. */
  newerVersion: number | null
}

function narrows(choice: ViewChoice): boolean {
  return !!choice.search || !!choice.filter?.trim() || !!choice.rowSet
}

/**
 * The table view's state: one view value — version, filter, sort, search — keys the count (TanStack
 * Query, cancelled through its AbortSignal), the grid's pages and the "newer version" check. Pages stay in the
 * grid's own page cache (usePages), the scrolling hot path; a new view gets a fresh cache in the same grid.
 */
export function useTableView(ref: TableRef, info: TableInfo | null, keys?: TableViewSpec['keys'], initial?: ViewChoice): TableViewState {
  const client = useQueryClient()
  const [chosen, setChoice] = useState<ViewChoice>({})
  const version = info?.version
  // A row set names one version's rows: after a reload to another version the whole table shows again.
  const choice = useMemo(() => (chosen.rowSet && version !== undefined && chosen.rowSet.version !== version ? { ...chosen, rowSet: undefined } : chosen), [chosen, version])
  const [error, setError] = useState<AppErrorData | null>(null)
  const [pending, setPending] = useState<PendingView | null>(null)
  // Busy exactly while the newest question shows as running: the spinner's render sets both, its answer clears both.
  const applying = pending?.state === 'running'

  const view = useMemo<TableViewSpec>(
    () => ({
      ...(version !== undefined ? { version } : {}),
      ...(keys ? { keys } : {}),
      ...(choice.filter?.trim() ? { filter: choice.filter } : {}),
      ...(choice.sort?.length ? { sort: choice.sort } : {}),
      ...(choice.search ? { search: choice.search } : {}),
      ...(choice.rowSet ? { rowSet: choice.rowSet.id } : {}),
    }),
    [version, choice, keys],
  )
  const viewKey = useMemo(() => JSON.stringify(view), [view])

  // A key list (a version diff's rows) narrows the view whatever the user chose.
  const narrowed = narrows(choice) || keys !== undefined
  const counted = useQuery({ ...countQuery(ref, view), enabled: info !== null && narrowed })
  const count = info === null ? 0 : narrowed ? (counted.data ?? 0) : info.rowCount

  // The description has just read the latest version: the first check is one interval later, not a request
  // (and the host's work) racing the table's first rows and the user's first scroll.
  const [polling, setPolling] = useState(false)
  useEffect(() => {
    if (info === null) return
    const timer = setTimeout(() => setPolling(true), VERSION_POLL_MS)
    return () => clearTimeout(timer)
  }, [info])
  // Only a view on screen asks (ten tabs: one check, not ten); a tab shown again asks at once (its answer is stale).
  const shown = useShown()
  const latest = useQuery({
    queryKey: tableKeys.latest(ref),
    queryFn: () => call('tables/latestVersion', { ...ref, namespace: [...ref.namespace] }),
    enabled: polling && shown,
    refetchInterval: VERSION_POLL_MS,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  })
  // Dropped (or renamed) by another process: the description is read again, and its not_found is what the view
  // shows (TableView: "Could not open …", with Close tab) instead of rows of a table that is gone.
  const gone = latest.isError && errorData(latest.error).code === 'not_found'
  useEffect(() => {
    if (gone) void client.invalidateQueries({ queryKey: [...tableScope(ref), 'describe'] })
  }, [gone, client, ref])
  const newerVersion = version !== undefined && latest.data !== undefined && latest.data > version ? latest.data : null

  // The choice most recently asked for, and which request asked for it. A step computed from the choice (a header
  // click cycling the sort) starts from what was last asked for, not from what has been shown: two quick clicks are
  // two steps. Only the newest request's answer is shown, so a slow older answer never replaces a newer view.
  const requested = useRef<{ choice: ViewChoice; seq: number }>({ choice, seq: 0 })
  const apply = useCallback(
    async (step: ViewChoice | ((latest: ViewChoice) => ViewChoice)): Promise<boolean> => {
      if (version === undefined) return false
      const before = requested.current
      const next = typeof step === 'function' ? step(before.choice) : step
      const seq = before.seq + 1
      requested.current = { choice: next, seq }
      const candidate: TableViewSpec = {
        version,
        ...(keys ? { keys } : {}),
        ...(next.filter?.trim() ? { filter: next.filter } : {}),
        ...(next.sort?.length ? { sort: next.sort } : {}),
        ...(next.search ? { search: next.search } : {}),
        ...(next.rowSet && next.rowSet.version === version ? { rowSet: next.rowSet.id } : {}),
      }
      // Not at once: that render would compete for the CPU with the host's work on the two requests.
      // The same render marks what is on screen as the previous result (one render for both).
      const spinner = setTimeout(() => setPending({ choice: next, state: 'running' }), SPINNER_DELAY_MS)
      try {
        // Page 0 and the count (when it can differ) together, in this event: a bad predicate fails here, before
        // the grid changes. The page is asked for first: its rows are what the user waits to see.
        // Page 0 stays in the query cache, where the grid's page cache takes it for the new view.
        await Promise.all([client.fetchQuery(firstPageQuery(ref, candidate)), narrows(next) || keys ? client.fetchQuery(countQuery(ref, candidate)) : Promise.resolve(0)])
        if (requested.current.seq !== seq) return false
        setChoice(next)
        setError(null)
        setPending(null)
        return true
      } catch (e) {
        if (requested.current.seq !== seq) return false
        // Refused: the next step starts again from the view on screen.
        requested.current = { choice: before.choice, seq }
        setError(errorData(e))
        // The rows and count on screen stay, marked as the previous result: they do not answer this question.
        setPending({ choice: next, state: 'failed' })
        return false
      } finally {
        clearTimeout(spinner)
      }
    },
    [client, ref, version, keys],
  )

  // A view that starts from a choice (a tab opened again): asked once the version is known, like any choice, so a
  // filter that no longer holds (a column dropped since) is refused in words and the whole table shows.
  const started = useRef(false)
  useEffect(() => {
    if (started.current || version === undefined) return
    started.current = true
    if (initial && (initial.filter?.trim() || initial.sort?.length)) void apply(initial)
  }, [version, initial, apply])

  const clearError = useCallback(() => setError(null), [])
  const settle = useCallback(() => {
    setError(null)
    setPending((current) => (current?.state === 'failed' ? null : current))
  }, [])

  return { view, choice, count, viewKey, error, applying, pending, apply, clearError, settle, newerVersion }
}
