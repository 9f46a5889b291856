import { queryOptions, skipToken } from '@tanstack/react-query'
import { tableFromIPC } from 'apache-arrow'
import type { Input } from '../../../contract'
import { call } from '../../api'

// What the import sheet reads before anything is written, through the cache and keyed by every choice it reads.
// Asked afresh each time (staleTime 0) and dropped once read (gcTime 0): the file may change on disk meanwhile.

/** The preview of a file as the choices read it (`import/preview`); nothing is asked while `input` is null. */
export function importPreviewQuery(input: Input<'import/preview'> | null) {
  return queryOptions({
    queryKey: ['import', 'preview', input] as const,
    queryFn: input ? ({ signal }) => call('import/preview', input, signal) : skipToken,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })
}

/** Its first rows, in the schema that will be written (`import/sample`), decoded; nothing is asked while `input` is null. */
export function importSampleQuery(input: Input<'import/sample'> | null) {
  return queryOptions({
    queryKey: ['import', 'sample', input] as const,
    queryFn: input ? async ({ signal }) => tableFromIPC(await call('import/sample', input, signal)) : skipToken,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  })
}
