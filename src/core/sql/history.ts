import { MAX_SQL_HISTORY, type SqlHistoryEntry } from '../../contract'

/**
 * Where each catalog's query history is kept: the app's settings (src/core/settings.ts), never the catalog, keyed by
 * the catalog's location (so it survives a restart, when connection ids change).
 */
export interface SqlHistoryStore {
  sqlHistoryOf(key: string): Promise<SqlHistoryEntry[]>
  setSqlHistory(key: string, entries: SqlHistoryEntry[]): Promise<void>
}

export function isSqlHistoryStore(value: unknown): value is SqlHistoryStore {
  return !!value && typeof (value as SqlHistoryStore).sqlHistoryOf === 'function' && typeof (value as SqlHistoryStore).setSqlHistory === 'function'
}

/** This process only (the harness, tests). */
export class MemorySqlHistoryStore implements SqlHistoryStore {
  private readonly entries = new Map<string, SqlHistoryEntry[]>()
  async sqlHistoryOf(key: string): Promise<SqlHistoryEntry[]> {
    return [...(this.entries.get(key) ?? [])]
  }
  async setSqlHistory(key: string, entries: SqlHistoryEntry[]): Promise<void> {
    this.entries.set(key, entries)
  }
}

/** The history with `entry` on top: the same text again moves up rather than repeating; the oldest drop off. */
export function withEntry(history: readonly SqlHistoryEntry[], entry: SqlHistoryEntry): SqlHistoryEntry[] {
  return [entry, ...history.filter((e) => e.sql !== entry.sql)].slice(0, MAX_SQL_HISTORY)
}
