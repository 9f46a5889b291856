import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { TableRef } from '../../../contract'
import { useNavigation, type Selection } from '../navigation'
import * as model from './tabs'
import type { Tab, TabsState, TabView } from './tabs'

/**
 * The open tabs of the window and what moves them. The tree, the lifecycle's What changed and the shell open tabs
 * through `useWorkbench()`; the shell draws them (`TabStrip`, `TabPanes`) and maps each kind to its view.
 */
export interface Workbench extends TabActions {
  state: TabsState
  active: Tab | null
  /** The same actions as one stable object (for memoized views). */
  actions: TabActions
}

export interface TabActions {
  openTable(ref: TableRef, options?: { newTab?: boolean }): void
  /** A tab of another kind (What changed, a query), after the active one. */
  openTab(tab: Omit<Tab, 'id'>): void
  select(id: string): void
  close(id: string): void
  reopen(): void
  move(id: string, to: number): void
  cycle(delta: number): void
  selectNumber(n: number): void
  splitRight(id?: string): void
  unsplit(): void
  /** Which pane has the focus (the user clicked or tabbed into it). */
  focusPane(pane: 0 | 1): void
  setView(id: string, view: TabView): void
  /** Change the whole state (restoring remembered tabs). */
  update(change: (state: TabsState) => TabsState): void
  /** The tree's selection changed (the provider calls it). */
  followSelection(selection: Selection): void
}

const WorkbenchContext = createContext<Workbench | null>(null)

export function useWorkbench(): Workbench {
  const workbench = useContext(WorkbenchContext)
  if (!workbench) throw new Error('useWorkbench needs a WorkbenchProvider')
  return workbench
}

export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<TabsState>(model.emptyTabs)
  const { selection, reveal } = useNavigation()
  const active = model.activeTab(state)
  // The state as the last change left it: every change goes through `apply`, which reads and writes it, so two
  // changes in one event (a tab closed, then its neighbour selected in the tree) never see a stale state.
  const latest = useRef(state)

  const actions = useMemo<TabActions>(() => {
    const apply = (change: (s: TabsState) => TabsState, follow = true) => {
      const before = latest.current
      const next = change(before)
      if (next === before) return
      latest.current = next
      setState(next)
      // The tab the user turned to shows its table in the tree, selected, its namespaces expanded (the selection
      // then finds it shown: no change).
      const shown = next.shown ? model.activeTab(next) : null
      if (follow && shown?.ref && shown.id !== (before.shown ? before.panes[before.focus] : null)) reveal(shown.ref)
    }
    return {
      openTable: (ref, options) => apply((s) => model.openTable(s, ref, options), false),
      openTab: (tab) => apply((s) => model.addTab(s, tab)),
      select: (id) => apply((s) => model.selectTab(s, id)),
      close: (id) => apply((s) => model.closeTab(s, id)),
      reopen: () => apply(model.reopenTab),
      move: (id, to) => apply((s) => model.moveTab(s, id, to)),
      cycle: (delta) => apply((s) => model.cycleTab(s, delta)),
      selectNumber: (n) => apply((s) => model.selectNumber(s, n)),
      splitRight: (id) => apply((s) => model.splitRight(s, id ?? undefined)),
      unsplit: () => apply(model.unsplit),
      focusPane: (pane) => apply((s) => (s.focus === pane || s.panes[pane] === null ? s : { ...s, focus: pane })),
      setView: (id, view) => apply((s) => model.setTabView(s, id, view), false),
      update: (change) => apply(change),
      followSelection: (next) => apply((s) => (next?.kind === 'table' ? model.openTable(s, next.ref) : s.shown ? { ...s, shown: false } : s), false),
    }
  }, [reveal])

  // The tree's selection leads: a table selected there (a click, an import's reveal, a rename followed) shows in the
  // active tab; a namespace selected puts the tabs aside until a tab is chosen.
  const { followSelection } = actions
  useEffect(() => followSelection(selection), [selection, followSelection])

  const value = useMemo<Workbench>(() => ({ ...actions, actions, state, active }), [actions, state, active])
  return <WorkbenchContext.Provider value={value}>{children}</WorkbenchContext.Provider>
}
