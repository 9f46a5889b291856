import { savedTabSchema, savedTabsSchema, type RememberedTabs, type SavedTabs } from '../../contract'
import type { Handlers } from '../handlers'

/**
 * Where the workbench's tabs are remembered, per catalog (the key its Read-only switch has: the saved connection,
 * else the directory). The value is kept as it came and read back leniently: a tab that no longer parses (an older
 * version, a hand-edited file) is skipped and counted, never a reason to lose the others or the settings.
 */
export interface TabsStore {
  tabsOf(key: string): Promise<unknown>
  setTabs(key: string, value: SavedTabs): Promise<void>
}

export class MemoryTabsStore implements TabsStore {
  private readonly values = new Map<string, SavedTabs>()
  async tabsOf(key: string): Promise<unknown> {
    return this.values.get(key)
  }
  async setTabs(key: string, value: SavedTabs): Promise<void> {
    this.values.set(key, value)
  }
}

export function isTabsStore(value: unknown): value is TabsStore {
  return !!value && typeof (value as TabsStore).tabsOf === 'function' && typeof (value as TabsStore).setTabs === 'function'
}

/** The remembered tabs that still parse; `skipped` counts the rest. Nothing remembered (or nothing readable) is no tabs. */
export function readRememberedTabs(value: unknown): RememberedTabs {
  if (value === undefined || value === null) return { tabs: [], skipped: 0 }
  if (typeof value !== 'object' || !Array.isArray((value as { tabs?: unknown }).tabs)) return { tabs: [], skipped: 1 }
  const raw = (value as { tabs: unknown[] }).tabs
  const tabs = raw.flatMap((tab) => {
    const parsed = savedTabSchema.safeParse(tab)
    return parsed.success ? [parsed.data] : []
  })
  const active = savedTabsSchema.shape.active.safeParse((value as { active?: unknown }).active)
  const index = active.success && active.data !== undefined && active.data < tabs.length ? active.data : undefined
  return { tabs, ...(index !== undefined ? { active: index } : {}), skipped: raw.length - tabs.length }
}

/** `workbench/tabs` and `workbench/saveTabs`, over `store`; `keyOf` names an open connection's key (or throws). */
export function tabsHandlers(store: TabsStore, keyOf: (connectionId: string) => string) {
  return {
    'workbench/tabs': async ({ connectionId }: { connectionId: string }) => readRememberedTabs(await store.tabsOf(keyOf(connectionId)).catch(() => undefined)),
    'workbench/saveTabs': async ({ connectionId, saved }: { connectionId: string; saved: SavedTabs }) => {
      await store.setTabs(keyOf(connectionId), saved)
      return null
    },
  } satisfies Partial<Handlers>
}
