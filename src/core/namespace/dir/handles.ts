import type { Table as LanceTable } from '@lancedb/lancedb'
import { formatTableId, type TableId } from '../path'

/**
 * The open Lance table handles of one catalog connection, most recently used last: each holds Lance's metadata
 * caches, so reads do not reopen the table each time. A handle is kept under its table and version — exactly that
 * version, which never changes — or under its table alone: the latest as it was opened (or last refreshed).
 * A handle whose opening fails is not kept. The client drops a table's handles before it changes the table.
 */
export class TableHandles {
  private readonly kept = new Map<string, Promise<LanceTable>>()

  constructor(private readonly limit: number) {}

  /** The kept handle of `id` at `version` (undefined: the latest as kept), now the most recently used. */
  get(id: TableId, version?: number): Promise<LanceTable> | undefined {
    const key = keyOf(id, version)
    const kept = this.kept.get(key)
    if (kept) {
      this.kept.delete(key)
      this.kept.set(key, kept)
    }
    return kept
  }

  /** Keep `opening` as the handle of `id` at `version` (replacing any), and only the last `limit` handles. */
  keep(id: TableId, version: number | undefined, opening: Promise<LanceTable>): Promise<LanceTable> {
    const key = keyOf(id, version)
    this.kept.delete(key)
    this.kept.set(key, opening)
    opening.catch(() => this.drop(id, version, opening))
    while (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!)
    return opening
  }

  /** Stop keeping `handle` as `id` at `version`, if it is still the one kept there. */
  drop(id: TableId, version: number | undefined, handle: Promise<LanceTable>): void {
    const key = keyOf(id, version)
    if (this.kept.get(key) === handle) this.kept.delete(key)
  }

  /** Drop every handle of `id` (it was dropped, renamed or overwritten by us). */
  forget(id: TableId): void {
    const name = formatTableId(id)
    for (const key of [...this.kept.keys()]) if (key === name || key.startsWith(`${name}@`)) this.kept.delete(key)
  }

  clear(): void {
    this.kept.clear()
  }
}

function keyOf(id: TableId, version?: number): string {
  return version === undefined ? formatTableId(id) : `${formatTableId(id)}@${version}`
}
