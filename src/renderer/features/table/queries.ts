import { queryOptions, type QueryClient } from '@tanstack/react-query'
import type { Table as ArrowTable } from 'apache-arrow'
import type { TableInfo, TableRef, TableViewSpec } from '../../../contract'
import { call, cancellable, readPage } from '../../api'
import { keys } from '../../queries/keys'

/** Rows per `tables/page` request. */
export const PAGE_ROWS = 100
/** How long an opened table waits for its first page before showing the grid without rows. */
const SEED_WAIT_MS = 150
/**
 * A description or first page nobody shows is dropped after this: a prefetch whose click led elsewhere, or a
 * table closed (opening it again reads it afresh, as the user expects of "open").
 */
const UNUSED_MS = 1000

/** The table as read: a version number pins an older version (the Versions panel). */
export type VersionedRef = TableRef & { version?: number }

/** Every key about one table starts with this: invalidating it covers its description, pages and counts. */
export const tableScope = keys.table

export const tableKeys = {
  describe: (ref: VersionedRef) => [...tableScope(ref), 'describe', ref.version ?? null] as const,
  /** Page 0 of a view; the grid's page cache takes it from here (later pages stay in that cache only). */
  firstPage: (ref: TableRef, view: TableViewSpec) => [...tableScope(ref), 'page0', view] as const,
  count: (ref: TableRef, view: TableViewSpec) => [...tableScope(ref), 'count', view] as const,
  latest: (ref: TableRef) => [...tableScope(ref), 'latestVersion'] as const,
}

const bare = (ref: TableRef): { connectionId: string; namespace: string[]; name: string } => ({ connectionId: ref.connectionId, namespace: [...ref.namespace], name: ref.name })

/** Page 0 of `view`: asked for when a filter or sort is tried, or when the grid finds it missing. */
export function firstPageQuery(ref: TableRef, view: TableViewSpec) {
  return queryOptions({
    queryKey: tableKeys.firstPage(ref, view),
    queryFn: ({ signal }): Promise<ArrowTable> => readPage(bare(ref), 0, PAGE_ROWS, signal, view),
    gcTime: UNUSED_MS * 10,
  })
}

/**
 * Opening a table: its description, with its first page asked for at the same time (one round trip). The page
 * read through the empty view is of the latest version — the one the description pins — so it is filed under the
 * plain view of that version, where the grid looks for it. The description waits a moment for it: when the page
 * follows closely the grid shows its rows in its first render (one render, one paint).
 */
export function describeQuery(client: QueryClient, ref: VersionedRef) {
  return queryOptions({
    queryKey: tableKeys.describe(ref),
    queryFn: async (): Promise<TableInfo> => {
      const target = bare(ref)
      const pinned = ref.version
      const page = readPage(target, 0, PAGE_ROWS, undefined, pinned !== undefined ? { version: pinned } : {})
      page.catch(() => undefined) // its error, if any, is the grid's to show (or the description's error wins)
      const info = await call('tables/describe', { ...target, ...(pinned !== undefined ? { version: pinned } : {}) })
      // Resolves once the page is in the cache (never rejects): the grid's first render finds it there.
      const stored = client.prefetchQuery({ ...firstPageQuery(target, { version: info.version }), queryFn: () => page })
      await Promise.race([stored, new Promise((resolve) => setTimeout(resolve, SEED_WAIT_MS))])
      return info
    },
    gcTime: UNUSED_MS,
  })
}

export function countQuery(ref: TableRef, view: TableViewSpec) {
  return queryOptions({
    queryKey: tableKeys.count(ref, view),
    queryFn: ({ signal }): Promise<number> => cancellable('tables/count', { ...bare(ref), view }, signal),
  })
}

/**
 * Start opening a table in the click that selects it, before React renders anything: on a cold window the first
 * render of the table view takes longer than the server needs for both answers.
 */
export function prefetchTable(client: QueryClient, ref: TableRef): void {
  void client.prefetchQuery(describeQuery(client, ref))
}
