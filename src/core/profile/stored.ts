import type { TableProfile, TableRef } from '../../contract'

/** The side cache's kind for column profiles. */
export const PROFILE_CACHE_KIND = 'profile'
/**
 * Bumped when the stored shape or the statistics change, so older entries are never read as current.
 * 2: vector duplicates keyed by a 64-bit hash (1 counted vectors differing only in two items' signs, and some
 * vectors of one norm, as duplicates).
 * 3: distinct counts carry their exact limit and, when estimated, a range within sure bounds (2 could exceed the
 * rows read); histogram bars over the values' range on a grid anchored at zero (2 could start a bar below the minimum).
 * 4: each top value says whether its count is exact (3 had one flag for the column, so a count known exactly read "≥").
 */
const FORMAT = 4

/**
 * The side-cache key of a profile: where the catalog is (its location, not this session's connection id), the
 * table, the version and what names that version's commit (the client's stamp, or the commit time) — a table
 * dropped and made again restarts at version 1, so the version number alone would name another table's rows —
 * and the filter.
 */
export function storedProfileKey(location: string, table: TableRef, version: number, commit: string | number, filter: string | null): unknown[] {
  return [FORMAT, location, table.namespace, table.name, version, commit, filter]
}

/** A profile as kept: JSON without the session's table reference (it is filled in from the asking view). */
export function encodeProfile(profile: TableProfile): Uint8Array {
  const { table: _table, ...rest } = profile
  return new TextEncoder().encode(JSON.stringify(rest))
}

/** A kept profile for `table`, or null for bytes that are not one (a damaged entry is recomputed, not shown). */
export function decodeProfile(bytes: Uint8Array, table: TableRef): TableProfile | null {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(bytes)) as Omit<TableProfile, 'table'>
    if (typeof parsed !== 'object' || parsed === null || !Array.isArray(parsed.columns) || typeof parsed.rows !== 'number' || typeof parsed.version !== 'number') return null
    return { ...parsed, table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name } }
  } catch {
    return null
  }
}
