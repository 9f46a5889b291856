import type { Table as ArrowTable } from 'apache-arrow'
import type { TableInfo, TableRef } from '../../../contract'
import { call, readPage } from '../../api'
import { PAGE_ROWS } from './usePages'

/** What opening a table asks for at once: its description and its first page, in one round trip. */
export interface TableOpening {
  describe: Promise<TableInfo>
  page: Promise<ArrowTable>
  controller: AbortController
}

/** A prefetch not taken by its table view within this time is dropped (the click led elsewhere). */
const PREFETCH_TTL_MS = 1000

let pending: { key: string; opening: TableOpening } | null = null

const keyOf = (ref: TableRef & { version?: number }) => JSON.stringify([ref.connectionId, ref.namespace, ref.name, ref.version ?? null])

function request(ref: TableRef): TableOpening {
  const controller = new AbortController()
  // Through the (empty) view: the latest version read afresh, the same one describe pins (not a cached handle).
  const page = readPage(ref, 0, PAGE_ROWS, controller.signal, {})
  page.catch(() => undefined) // its error, if any, is shown by the grid (or the describe error wins)
  const describe = call('tables/describe', { ...ref, namespace: [...ref.namespace] })
  describe.catch(() => undefined)
  return { describe, page, controller }
}

/**
 * Start opening a table in the click that selects it, before React renders anything: on a cold window the
 * first render of the table view takes longer than the server needs for both answers.
 */
export function prefetchTable(ref: TableRef): void {
  pending?.opening.controller.abort()
  const entry = { key: keyOf(ref), opening: request(ref) }
  pending = entry
  setTimeout(() => {
    if (pending !== entry) return
    pending = null
    entry.opening.controller.abort()
  }, PREFETCH_TTL_MS)
}

/** The table's description and first page: the prefetched ones when they are for this table, else asked now. */
export function openTable(ref: TableRef): TableOpening {
  const key = keyOf(ref)
  if (pending?.key === key) {
    const { opening } = pending
    pending = null
    return opening
  }
  return request(ref)
}
