import type { TableRef } from '../../../contract'

const MAX_RECENT = 10

function key(ref: TableRef & { connectionLabel?: string }): string {
  return `lcb.recentFilters:${ref.connectionLabel ?? ref.connectionId}:${[...ref.namespace, ref.name].join('/')}`
}

/** The filters last applied to this table, newest first (localStorage; nothing when it is unavailable). */
export function recentFilters(ref: TableRef & { connectionLabel?: string }): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(key(ref)) ?? '[]')
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, MAX_RECENT) : []
  } catch {
    return []
  }
}

export function rememberFilter(ref: TableRef & { connectionLabel?: string }, filter: string): string[] {
  const next = [filter, ...recentFilters(ref).filter((f) => f !== filter)].slice(0, MAX_RECENT)
  try {
    localStorage.setItem(key(ref), JSON.stringify(next))
  } catch {
    // Storage full or disabled: the list is a convenience.
  }
  return next
}
