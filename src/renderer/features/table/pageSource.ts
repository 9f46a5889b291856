import { useQueryClient } from '@tanstack/react-query'
import type { Table } from 'apache-arrow'
import { useMemo } from 'react'
import type { TableRef, TableViewSpec } from '../../../contract'
import { readPage } from '../../api'
import { contractFetch, type RowSource } from './copy'
import { firstPageQuery } from './queries'

/**
 * Where a grid's rows come from: a table's view (`tables/page`) or a query's result (`sql/page`). The grid pages,
 * copies and inspects through this alone, so a query result is a view like any other.
 */
export interface PageSource {
  /** The rows' identity: a new key starts a fresh page cache, scroll offset, active cell and selection. */
  readonly key: string
  /** Page 0 when it is already here as the rows start (the grid fits its columns to it in its first render). */
  initialPage(): Table | undefined
  /** Rows `[offset, offset + limit)`, decoded; aborting `signal` stops the work where the host can. */
  page(offset: number, limit: number, signal: AbortSignal): Promise<Table>
  /** Rows for a copy: at least `columns` of rows `[offset, offset + limit)`. */
  rows: RowSource['fetch']
}

/**
 * A table's view as a page source. Page 0 comes through the query cache (`firstPageQuery`), where opening the
 * table or trying the view already put it (or its request): one request, shared; the later pages are the grid's.
 */
export function useTablePageSource(ref: TableRef, view: TableViewSpec = {}, viewKey = ''): PageSource {
  const client = useQueryClient()
  return useMemo<PageSource>(
    () => ({
      key: viewKey,
      initialPage: () => client.getQueryData(firstPageQuery(ref, view).queryKey),
      page: (offset, limit, signal) => {
        if (offset !== 0) return readPage(ref, offset, limit, signal, view)
        const options = firstPageQuery(ref, view)
        // Scrolled past or left: the shared request is cancelled too.
        signal.addEventListener('abort', () => void client.cancelQueries({ queryKey: options.queryKey, exact: true }), { once: true })
        return client.fetchQuery(options)
      },
      rows: contractFetch(ref, view),
    }),
    [client, viewKey, ref, view],
  )
}
