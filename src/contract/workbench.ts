import { z } from 'zod'
import { componentSchema, namespacePathSchema } from './component'
import { sortKeySchema } from './view'

/** A dock panel's id (components/dock/registry.ts: `summary`, `map`…). */
const panelIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/)

/**
 * One tab of the workbench as the settings remember it (per catalog, never in the catalog): which table, which
 * version when one is pinned, the filter and sort the user chose, and where the user was — the grid's first visible
 * row, its active cell, the open dock panels with the tab each dock showed, and whether the gallery was on. Other
 * kinds (a query) name their own `kind`. Read field by field (core/connections/tabsStore.ts): a part that no longer
 * parses is left out, not the tab.
 */
export const savedTabSchema = z.object({
  kind: z.string().regex(/^[a-z][a-z-]{0,31}$/),
  namespace: namespacePathSchema,
  name: componentSchema,
  version: z.number().int().min(1).optional(),
  filter: z.string().max(10_000).optional(),
  sort: z.array(sortKeySchema).max(8).optional(),
  /** The grid's first visible row (0-based in the view). */
  first: z.number().int().min(0).optional(),
  /** The grid's active cell: its row (0-based in the view) and column. */
  cell: z.object({ row: z.number().int().min(0), column: z.string().min(1).max(1024) }).optional(),
  /** The open dock panels, in the order they were opened. */
  panels: z.array(panelIdSchema).max(32).optional(),
  /** The panel each dock showed as its tab. */
  dockTabs: z.object({ right: panelIdSchema.optional(), bottom: panelIdSchema.optional() }).optional(),
  /** The gallery was shown instead of the grid. */
  gallery: z.boolean().optional(),
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

/**
 * What `workbench/tabs` answers: the tabs that still parse, how many remembered ones did not (a hand-edited file)
 * and how many opened without a part of their view that did not (`partial`: a scroll, panels… left out).
 */
export interface RememberedTabs extends SavedTabs {
  skipped: number
  partial?: number
}
