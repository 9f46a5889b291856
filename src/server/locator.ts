import type { TableId } from '../core/namespace'

export interface Located {
  /** Where the table's Lance dataset lives (a local path or an object-store URI). */
  location: string
  /** False for a declared table not yet written. */
  hasData: boolean
  /** Listed in `__manifest` (as opposed to found by its `{name}.lance` directory). */
  inManifest: boolean
}

/** Where a served catalog keeps its tables, and what the REST contract needs beyond our `dir` client. */
export interface Locator {
  locate(id: TableId): Promise<Located | null>
  forget(id: TableId): void
  /** Reserve a location for a new table (DeclareTable); the caller has checked the namespace. */
  declare(id: TableId): Promise<string>
  /** Remove a root table that exists only as its directory; false when that is not the case. */
  dropUnlisted(id: TableId): Promise<boolean>
  /** Remove a listed table that cannot be opened; false when there is nothing to remove. */
  dropDamaged(id: TableId): Promise<boolean>
  close(): Promise<void>
}
