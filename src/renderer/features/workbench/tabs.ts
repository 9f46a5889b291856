import type { SavedTab, SavedTabs, SortKey, TableRef } from '../../../contract'
import { tableKey } from '../../lib/nodeKeys'

/** What a table tab's view reports of itself: enough to label the tab and to open it again after a restart. */
export interface TabView {
  /** A pinned (older) version, with the latest there was when it was pinned. */
  version?: number
  latest?: number
  filter?: string
  sort?: SortKey[]
  /** The row to select when the view opens (a link's selected row; 0-based in the view). Not remembered. */
  row?: number
  /** Where the user was (remembered over a restart): the grid's first visible row and active cell, the open dock
   * panels and each dock's tab, the gallery. */
  first?: number
  cell?: { row: number; column: string }
  panels?: string[]
  dockTabs?: { right?: string; bottom?: string }
  gallery?: boolean
}

/** The parts of a view that are remembered beside its table (SavedTab's). */
const REMEMBERED = ['version', 'filter', 'sort', 'first', 'cell', 'panels', 'dockTabs', 'gallery'] as const

/** The remembered parts of `view` that say something (no empty filter, sort or panel list). */
function rememberedOf(view: TabView): Partial<SavedTab> {
  const kept: Record<string, unknown> = {}
  for (const key of REMEMBERED) {
    const value = view[key]
    // The defaults (the top row, no filter, no panels, the grid) are not written.
    if (value === undefined || value === '' || value === false || (key === 'first' && value === 0) || (Array.isArray(value) && value.length === 0)) continue
    kept[key] = value
  }
  return kept
}

/**
 * One tab of the workbench. `kind` says what it shows and who draws it (the shell maps kinds to views): `table` (a
 * table view), `diff` (What changed between two versions); other features add theirs (`query`). Every kind belongs
 * to one open catalog; those that read one table name it in `ref`.
 */
export interface Tab {
  id: string
  kind: 'table' | 'diff' | (string & {})
  connectionId: string
  ref?: TableRef
  /** The label when there is no table to name it by. */
  title?: string
  view: TabView
  /** What the tab's view starts from (a restored tab's filter and version; a duplicate's view). */
  initial: TabView
  /** A kind's own state that is not saved (a diff's result). */
  payload?: unknown
}

export interface TabsState {
  tabs: Tab[]
  /** The tab in the left pane and, when split, the one in the right. */
  panes: [string | null, string | null]
  /** Which pane has the focus: its tab is the active one. */
  focus: 0 | 1
  /** Whether the tabs are on screen (a namespace or the start screen may be shown instead). */
  shown: boolean
  /** Closed tabs, the last closed last, with where each was (Ctrl/Cmd+Shift+T opens it again there). */
  closed: (Tab & { closedAt: number })[]
  nextId: number
}

export const MAX_CLOSED = 20

export const emptyTabs: TabsState = { tabs: [], panes: [null, null], focus: 0, shown: false, closed: [], nextId: 1 }

export function activeTab(state: TabsState): Tab | null {
  const id = state.panes[state.focus]
  return state.tabs.find((t) => t.id === id) ?? null
}

export function sameTable(a: TableRef | undefined, b: TableRef | undefined): boolean {
  return !!a && !!b && tableKey(a.connectionId, a.namespace, a.name) === tableKey(b.connectionId, b.namespace, b.name)
}

function copyRef(ref: TableRef): TableRef {
  return { connectionId: ref.connectionId, namespace: [...ref.namespace], name: ref.name }
}

/** Add `tab` after the active one and show it in the focused pane. */
export function addTab(state: TabsState, tab: Omit<Tab, 'id'>): TabsState {
  const id = `t${state.nextId}`
  const at = state.tabs.findIndex((t) => t.id === state.panes[state.focus])
  const tabs = [...state.tabs]
  tabs.splice(at < 0 ? tabs.length : at + 1, 0, { ...tab, id })
  return { ...state, tabs, panes: withPane(state.panes, state.focus, id), shown: true, nextId: state.nextId + 1 }
}

function withPane(panes: TabsState['panes'], pane: 0 | 1, id: string | null): TabsState['panes'] {
  return pane === 0 ? [id, panes[1]] : [panes[0], id]
}

/**
 * A table opened from the tree: the active table tab shows it instead (its view starts afresh), unless the user
 * asked for a new tab or no table tab is active. A tab already showing it stays as it is.
 */
export function openTable(state: TabsState, ref: TableRef, options: { newTab?: boolean } = {}): TabsState {
  const active = activeTab(state)
  if (!options.newTab && active && sameTable(active.ref, ref)) return state.shown ? state : { ...state, shown: true }
  if (!options.newTab && active?.kind === 'table') {
    // A new id: the view under the old one unmounts and the new table's view mounts with nothing carried over.
    const id = `t${state.nextId}`
    const tabs = state.tabs.map((t) => (t.id === active.id ? { ...t, id, ref: copyRef(ref), connectionId: ref.connectionId, view: {}, initial: {} } : t))
    return { ...state, tabs, panes: withPane(state.panes, state.focus, id), shown: true, nextId: state.nextId + 1 }
  }
  return addTab(state, { kind: 'table', connectionId: ref.connectionId, ref: copyRef(ref), view: {}, initial: {} })
}

/** **New query** (features/sql): a query tab of its own per key (each New query is a new key); its tab again when it has one. */
export function openQuery(state: TabsState, connectionId: string, key: string): TabsState {
  const known = state.tabs.find((t) => t.kind === 'query' && (t.payload as { key?: string } | undefined)?.key === key)
  if (known) return selectTab(state, known.id)
  const n = /:(\d+)$/.exec(key)?.[1]
  return addTab(state, { kind: 'query', connectionId, title: n ? `Query ${n}` : 'Query', view: {}, initial: {}, payload: { key } })
}

/** Show tab `id`: in the pane that already shows it, else in the focused pane. */
export function selectTab(state: TabsState, id: string): TabsState {
  if (!state.tabs.some((t) => t.id === id)) return state
  const other = state.focus === 0 ? 1 : 0
  if (state.panes[other] === id) return { ...state, focus: other, shown: true }
  return { ...state, panes: withPane(state.panes, state.focus, id), shown: true }
}

/** The next (`delta` 1) or previous (-1) tab, wrapping around. */
export function cycleTab(state: TabsState, delta: number): TabsState {
  if (state.tabs.length === 0) return state
  const at = state.tabs.findIndex((t) => t.id === state.panes[state.focus])
  const next = state.tabs[(((at < 0 ? 0 : at) + delta) % state.tabs.length + state.tabs.length) % state.tabs.length]!
  return selectTab(state, next.id)
}

/** Ctrl/Cmd+1…8 show that tab; 9 the last one (as browsers do). */
export function selectNumber(state: TabsState, n: number): TabsState {
  const tab = n === 9 ? state.tabs.at(-1) : state.tabs[n - 1]
  return tab ? selectTab(state, tab.id) : state
}

export function closeTab(state: TabsState, id: string): TabsState {
  const at = state.tabs.findIndex((t) => t.id === id)
  if (at < 0) return state
  const tabs = state.tabs.filter((t) => t.id !== id)
  const closed = [...state.closed, { ...state.tabs[at]!, closedAt: at }].slice(-MAX_CLOSED)
  const pane = state.panes.indexOf(id)
  if (pane < 0) return { ...state, tabs, closed }
  const other = state.panes[pane === 0 ? 1 : 0]
  // Split: the other pane's tab fills the window. Else the neighbour shows (the next tab, else the previous).
  if (other !== null) return { ...state, tabs, panes: [other, null], focus: 0, closed }
  const next = tabs[at] ?? tabs[at - 1]
  return { ...state, tabs, panes: [next?.id ?? null, null], focus: 0, closed }
}

/** The tabs of a catalog that closed go with it (and cannot be reopened: their catalog is not there). */
export function dropConnectionTabs(state: TabsState, connectionId: string): TabsState {
  let next = state
  for (const tab of state.tabs) if (tab.connectionId === connectionId) next = closeTab(next, tab.id)
  return { ...next, closed: next.closed.filter((t) => t.connectionId !== connectionId) }
}

/** Open the last closed tab again, where it was (or at the end), with the view it had. */
export function reopenTab(state: TabsState): TabsState {
  const last = state.closed.at(-1)
  if (!last) return state
  const id = `t${state.nextId}`
  const { closedAt, ...closed } = last
  const tabs = [...state.tabs]
  tabs.splice(Math.min(closedAt, tabs.length), 0, { ...closed, id, initial: last.view })
  return { ...state, tabs, panes: withPane(state.panes, state.focus, id), shown: true, closed: state.closed.slice(0, -1), nextId: state.nextId + 1 }
}

/** Move tab `id` to position `to` (clamped). */
export function moveTab(state: TabsState, id: string, to: number): TabsState {
  const at = state.tabs.findIndex((t) => t.id === id)
  if (at < 0) return state
  const tabs = state.tabs.filter((t) => t.id !== id)
  tabs.splice(Math.max(0, Math.min(to, tabs.length)), 0, state.tabs[at]!)
  return { ...state, tabs }
}

/** **Split right**: a copy of tab `id` (its view as it is now) shown beside the active tab, and focused. */
export function splitRight(state: TabsState, id = state.panes[state.focus]): TabsState {
  const source = state.tabs.find((t) => t.id === id)
  if (!source) return state
  const copy: Tab = { ...source, id: `t${state.nextId}`, initial: source.view }
  const at = state.tabs.indexOf(source)
  const tabs = [...state.tabs]
  tabs.splice(at + 1, 0, copy)
  const left = state.panes[1] === null ? (state.panes[0] ?? source.id) : state.panes[0]
  return { ...state, tabs, panes: [left, copy.id], focus: 1, shown: true, nextId: state.nextId + 1 }
}

/** One pane again: the focused pane's tab fills the window (the other stays open as a tab). */
export function unsplit(state: TabsState): TabsState {
  return { ...state, panes: [state.panes[state.focus], null], focus: 0 }
}

export function setTabView(state: TabsState, id: string, view: TabView): TabsState {
  // Views report on every change of theirs: an unchanged report changes nothing (no render of the other tabs).
  if (JSON.stringify(state.tabs.find((t) => t.id === id)?.view) === JSON.stringify(view)) return state
  return { ...state, tabs: state.tabs.map((t) => (t.id === id ? { ...t, view } : t)) }
}

/** The tabs to remember for one catalog (kinds that cannot be opened again from a name, like a diff, are left out). */
export function savedTabsOf(state: TabsState, connectionId: string): SavedTabs {
  const kept = state.tabs.filter((t) => t.connectionId === connectionId && t.kind === 'table' && t.ref)
  const active = kept.findIndex((t) => t.id === state.panes[state.focus])
  return {
    tabs: kept.map((t) => ({ kind: 'table', namespace: [...t.ref!.namespace], name: t.ref!.name, ...rememberedOf(t.view) })),
    ...(active >= 0 ? { active } : {}),
  }
}

/** A catalog's remembered tabs, opened after the ones already open; the remembered active one is shown. */
export function restoreTabs(state: TabsState, connectionId: string, saved: { tabs: SavedTab[]; active?: number }): TabsState {
  let next = state
  let show: string | null = null
  saved.tabs.forEach((tab, i) => {
    const view: TabView = { ...rememberedOf(tab), ...(tab.version !== undefined ? { latest: tab.version } : {}) }
    const id = `t${next.nextId}`
    next = { ...next, tabs: [...next.tabs, { id, kind: 'table', connectionId, ref: { connectionId, namespace: tab.namespace, name: tab.name }, view, initial: view }], nextId: next.nextId + 1 }
    if (i === (saved.active ?? 0)) show = id
  })
  return show && !next.panes[next.focus] ? { ...next, panes: withPane(next.panes, next.focus, show), shown: true } : next
}

/** The tab's label: the table's name, with the pinned version (`photos @ v3`). */
export function tabLabel(tab: Tab): string {
  const name = tab.ref?.name ?? tab.title ?? tab.kind
  if (tab.kind === 'diff') return `${name}: what changed`
  return tab.view.version !== undefined ? `${name} @ v${tab.view.version}` : name
}
