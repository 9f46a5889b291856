import { readFile } from 'node:fs/promises'
import { z } from 'zod'
import type { RecentDirectory, SavedTabs, SqlHistoryEntry } from '../contract'
import { AtomicFile } from './atomicFile'
import type { RecentsStore } from './connections/openConnections'
import type { SqlHistoryStore } from './sql/history'

const settingsSchema = z.object({
  recents: z.array(z.object({ path: z.string(), openedAt: z.number() })).default([]),
  /** The Read-only switch per saved connection / directory (src/core/connections/readOnly.ts). */
  readOnly: z.record(z.string(), z.boolean()).optional(),
  /** The workbench's tabs per catalog, kept as written and parsed per tab when read (connections/tabsStore.ts). */
  tabs: z.record(z.string(), z.unknown()).optional(),
  /** Each catalog's SQL query history, by the catalog's location (src/core/sql/history.ts). */
  sqlHistory: z.record(z.string(), z.array(z.object({ sql: z.string(), ranAt: z.number(), ok: z.boolean(), rowCount: z.number().optional(), elapsedMs: z.number().optional() }))).optional(),
  window: z
    .object({ width: z.number().int().min(400), height: z.number().int().min(300), x: z.number().int().optional(), y: z.number().int().optional(), maximized: z.boolean().optional() })
    .optional(),
})
export type Settings = z.infer<typeof settingsSchema>

const MAX_RECENTS = 10

/**
 * Settings in one JSON file. Written atomically (temp file + rename) so a crash never leaves
 * half a file; an unreadable or invalid file is treated as empty rather than blocking start-up.
 */
export class SettingsFile implements RecentsStore, SqlHistoryStore {
  private cache: Settings | null = null
  private readonly file: AtomicFile

  constructor(private readonly path: string) {
    this.file = new AtomicFile(path)
  }

  async read(): Promise<Settings> {
    if (this.cache) return this.cache
    let parsed: Settings = { recents: [] }
    try {
      const result = settingsSchema.safeParse(JSON.parse(await readFile(this.path, 'utf8')))
      if (result.success) parsed = result.data
    } catch {
      // missing or unreadable: start empty
    }
    this.cache = parsed
    return parsed
  }

  async update(change: (settings: Settings) => Settings): Promise<void> {
    const next = change(await this.read())
    this.cache = next
    return this.file.write(JSON.stringify(next, null, 2))
  }

  async readOnlyOf(key: string): Promise<boolean | undefined> {
    return (await this.read()).readOnly?.[key]
  }

  async setReadOnly(key: string, value: boolean): Promise<void> {
    await this.update((s) => ({ ...s, readOnly: { ...(s.readOnly ?? {}), [key]: value } }))
  }

  async tabsOf(key: string): Promise<unknown> {
    return (await this.read()).tabs?.[key]
  }

  async setTabs(key: string, value: SavedTabs): Promise<void> {
    await this.update((s) => ({ ...s, tabs: { ...(s.tabs ?? {}), [key]: value } }))
  }

  async sqlHistoryOf(key: string): Promise<SqlHistoryEntry[]> {
    return [...((await this.read()).sqlHistory?.[key] ?? [])]
  }

  async setSqlHistory(key: string, entries: SqlHistoryEntry[]): Promise<void> {
    await this.update((s) => ({ ...s, sqlHistory: { ...(s.sqlHistory ?? {}), [key]: entries } }))
  }

  async list(): Promise<RecentDirectory[]> {
    return (await this.read()).recents
  }

  async add(path: string): Promise<void> {
    await this.update((s) => ({
      ...s,
      recents: [{ path, openedAt: Date.now() }, ...s.recents.filter((r) => r.path !== path)].slice(0, MAX_RECENTS),
    }))
  }
}
