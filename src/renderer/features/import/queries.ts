import { queryOptions, type FetchQueryOptions, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { tableFromIPC } from 'apache-arrow'
import type { Input } from '../../../contract'
import { call } from '../../api'

// What the import sheet reads before anything is written, through the cache and keyed by every choice it reads.
// Asked afresh each time (staleTime 0) and dropped once read (gcTime 0): the file may change on disk meanwhile.

/** The preview of a file as the choices read it (`import/preview`). */
export function importPreviewQuery(input: Input<'import/preview'>) {
  return queryOptions({
    queryKey: ['import', 'preview', input] as const,
    queryFn: ({ signal }) => call('import/preview', input, signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })
}

/** Its first rows, in the schema that will be written (`import/sample`), decoded. */
export function importSampleQuery(input: Input<'import/sample'>) {
  return queryOptions({
    queryKey: ['import', 'sample', input] as const,
    queryFn: async ({ signal }) => tableFromIPC(await call('import/sample', input, signal)),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })
}

/** Read `options` through the cache; aborting `signal` cancels the read (the sheet's choices changed). */
export function fetchUntil<T, K extends QueryKey>(client: QueryClient, options: FetchQueryOptions<T, Error, T, K>, signal: AbortSignal): Promise<T> {
  const cancel = () => void client.cancelQueries({ queryKey: options.queryKey, exact: true })
  signal.addEventListener('abort', cancel, { once: true })
  return client.fetchQuery(options).finally(() => signal.removeEventListener('abort', cancel))
}
