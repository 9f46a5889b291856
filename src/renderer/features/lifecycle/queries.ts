import { queryOptions } from '@tanstack/react-query'
import type { OptimizeOptions, TableRef } from '../../../contract'
import { call } from '../../api'
import { keys } from '../../queries/keys'

const plain = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })

// Reads the lifecycle panels ask for on a click, filed with their table (a write to it makes them stale). Each is
// asked afresh on every click (staleTime 0) and not kept once nothing shows it.

/** What Optimize would do with these options (the confirmation lists it). */
export function optimizePreviewQuery(ref: TableRef, options: OptimizeOptions) {
  return queryOptions({
    queryKey: [...keys.table(ref), 'optimizePreview', options],
    queryFn: () => call('tables/optimizePreview', { ...plain(ref), ...options }),
    staleTime: 0,
    gcTime: 0,
  })
}

/** How two versions differ in rows and schema (the Versions panel's Compare). */
export function compareQuery(ref: TableRef, from: number, to: number) {
  return queryOptions({
    queryKey: [...keys.table(ref), 'compare', from, to],
    queryFn: () => call('versions/compare', { ...plain(ref), from, to }),
    staleTime: 0,
    gcTime: 0,
  })
}

/**
 * The table's data file format (`tables/dataFormat`): a build or Optimize on a legacy-format table is confirmed first.
 * A failed read shows nothing (the core still refuses a legacy write without the user's consent), so no retry.
 */
export function tableFormatQuery(ref: TableRef) {
  return queryOptions({
    queryKey: [...keys.table(ref), 'dataFormat'],
    queryFn: () => call('tables/dataFormat', plain(ref)),
    retry: false,
  })
}
