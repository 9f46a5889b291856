import { z } from 'zod'
import { componentSchema, namespacePathSchema } from './component'
import { sortKeySchema } from './view'

/**
 * One tab of the workbench as the settings remember it (per catalog, never in the catalog): which table, which
 * version when one is pinned, and the filter and sort the user chose. Other kinds (a query) name their own `kind`.
 */
export const savedTabSchema = z.object({
  kind: z.string().regex(/^[a-z][a-z-]{0,31}$/),
  namespace: namespacePathSchema,
  name: componentSchema,
  version: z.number().int().min(1).optional(),
  filter: z.string().max(10_000).optional(),
  sort: z.array(sortKeySchema).max(8).optional(),
})
export type SavedTab = z.infer<typeof savedTabSchema>

/** At most this many tabs are remembered per catalog (the ones after it are not saved). */
export const MAX_SAVED_TABS = 50

export const savedTabsSchema = z.object({
  tabs: z.array(savedTabSchema).max(MAX_SAVED_TABS),
  /** The index of the tab shown. */
  active: z.number().int().min(0).optional(),
})
export type SavedTabs = z.infer<typeof savedTabsSchema>

/** What `workbench/tabs` answers: the tabs that still parse, and how many remembered ones did not (a hand-edited file). */
export interface RememberedTabs extends SavedTabs {
  skipped: number
}
