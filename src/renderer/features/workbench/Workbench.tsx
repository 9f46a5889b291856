import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import type { TableRef } from '../../../contract'
import { useNavigation } from '../navigation'
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
  /** Replace the whole state (restoring remembered tabs). */
  update(change: (state: TabsState) => TabsState): void
}

const WorkbenchContext = createContext<Workbench | null>(null)

export function useWorkbench(): Workbench {
  const workbench = useContext(WorkbenchContext)
  if (!workbench) throw new Error('useWorkbench needs a WorkbenchProvider')
  return workbench
}

export function WorkbenchProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<TabsState>(model.emptyTabs)
  const { selection, selectTable } = useNavigation()
  const active = model.activeTab(state)

  // The tree's selection and the tabs follow each other: a table selected in the tree (a click, an import's reveal,
  // a rename followed) shows in the active tab; a namespace selected puts the tabs aside until a tab is chosen.
  // Adjusted while rendering, when the selection changed (React's pattern for state that follows a prop).
  const [seen, setSeen] = useState(selection)
  if (seen !== selection) {
    setSeen(selection)
    setState((s) => (selection?.kind === 'table' ? model.openTable(s, selection.ref) : s.shown ? { ...s, shown: false } : s))
  }
  // …and the tab shown selects its table in the tree (a tab of no table leaves the tree as it is).
  const shownRef = state.shown ? active?.ref : undefined
  useEffect(() => {
    if (shownRef && !(selection?.kind === 'table' && model.sameTable(selection.ref, shownRef))) selectTable(shownRef)
  }, [shownRef, selection, selectTable])

  // The actions only set state: one object for the window's life, so views can hold them without re-rendering.
  const actions = useMemo<TabActions>(
    () => ({
      openTable: (ref, options) => setState((s) => model.openTable(s, ref, options)),
      openTab: (tab) => setState((s) => model.addTab(s, tab)),
      select: (id) => setState((s) => model.selectTab(s, id)),
      close: (id) => setState((s) => model.closeTab(s, id)),
      reopen: () => setState(model.reopenTab),
      move: (id, to) => setState((s) => model.moveTab(s, id, to)),
      cycle: (delta) => setState((s) => model.cycleTab(s, delta)),
      selectNumber: (n) => setState((s) => model.selectNumber(s, n)),
      splitRight: (id) => setState((s) => model.splitRight(s, id ?? undefined)),
      unsplit: () => setState(model.unsplit),
      focusPane: (pane) => setState((s) => (s.focus === pane || s.panes[pane] === null ? s : { ...s, focus: pane })),
      setView: (id, view) => setState((s) => model.setTabView(s, id, view)),
      update: setState,
    }),
    [],
  )
  const value = useMemo<Workbench>(() => ({ ...actions, actions, state, active }), [actions, state, active])
  return <WorkbenchContext.Provider value={value}>{children}</WorkbenchContext.Provider>
}
