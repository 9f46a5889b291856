import type { z } from 'zod'
import { MAX_SAVED_TABS, savedTabSchema, savedTabsSchema, type RememberedTabs, type SavedTab, type SavedTabs } from '../../contract'
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

/** The parts a tab cannot open without: a tab missing one of them is skipped. */
const REQUIRED = new Set(['kind', 'namespace', 'name'])

/**
 * One remembered tab read field by field: null when what names its table does not parse; else the tab with the
 * parts that parse (`partial` when one was left out: a scroll or a panel list an older version wrote otherwise).
 */
function readTab(raw: unknown): { tab: SavedTab; partial: boolean } | null {
  const whole = savedTabSchema.safeParse(raw)
  if (whole.success) return { tab: whole.data, partial: false }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null
  const fields = raw as Record<string, unknown>
  const tab: Record<string, unknown> = {}
  let partial = false
  for (const [key, schema] of Object.entries(savedTabSchema.shape)) {
    if (fields[key] === undefined) continue
    const parsed = (schema as z.ZodType).safeParse(fields[key])
    if (parsed.success) tab[key] = parsed.data
    else if (REQUIRED.has(key)) return null
    else partial = true
  }
  const checked = savedTabSchema.safeParse(tab)
  return checked.success ? { tab: checked.data, partial } : null
}

/**
 * The remembered tabs that still parse; `skipped` counts the rest, `partial` the ones that open without a part of
 * their view that did not parse. Nothing remembered (or nothing readable) is no tabs.
 */
export function readRememberedTabs(value: unknown): RememberedTabs {
  if (value === undefined || value === null) return { tabs: [], skipped: 0 }
  if (typeof value !== 'object' || !Array.isArray((value as { tabs?: unknown }).tabs)) return { tabs: [], skipped: 1 }
  const raw = (value as { tabs: unknown[] }).tabs
  // Past the most that are saved, the rest are counted as not opened (saving them back would be refused).
  const read = raw.slice(0, MAX_SAVED_TABS).map(readTab)
  const tabs = read.flatMap((r) => (r ? [r.tab] : []))
  const partial = read.filter((r) => r?.partial).length
  const active = savedTabsSchema.shape.active.safeParse((value as { active?: unknown }).active)
  const index = active.success && active.data !== undefined && active.data < tabs.length ? active.data : undefined
  return { tabs, ...(index !== undefined ? { active: index } : {}), skipped: raw.length - tabs.length, ...(partial > 0 ? { partial } : {}) }
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
