import { describe, expect, it } from 'vitest'
import { activeTab, closeTab, cycleTab, emptyTabs, moveTab, openTable, reopenTab, restoreTabs, savedTabsOf, selectNumber, selectTab, setTabView, splitRight, tabLabel, unsplit, type TabsState } from '../../src/renderer/features/workbench/tabs'

const ref = (name: string, namespace = ['shop']) => ({ connectionId: 'c1', namespace, name })
const names = (s: TabsState) => s.tabs.map((t) => t.ref?.name)
const shown = (s: TabsState) => activeTab(s)?.ref?.name

function three(): TabsState {
  let s = openTable(emptyTabs, ref('a'))
  s = openTable(s, ref('b'), { newTab: true })
  return openTable(s, ref('c'), { newTab: true })
}

describe('workbench tabs', () => {
  it('opening from the tree replaces the active tab’s table; a new tab is asked for', () => {
    let s = openTable(emptyTabs, ref('a'))
    s = setTabView(s, s.tabs[0]!.id, { filter: 'id > 1' })
    s = openTable(s, ref('b'))
    expect(names(s)).toEqual(['b'])
    // The replaced table's view does not carry over.
    expect(s.tabs[0]!.view).toEqual({})
    s = openTable(s, ref('c'), { newTab: true })
    expect(names(s)).toEqual(['b', 'c'])
    expect(shown(s)).toBe('c')
    // The table already shown: nothing changes.
    expect(openTable(s, ref('c'))).toBe(s)
  })

  it('cycles with wrap-around, selects by number (9 is the last), and moves tabs', () => {
    let s = three()
    expect(shown(cycleTab(s, 1))).toBe('a')
    expect(shown(cycleTab(s, -1))).toBe('b')
    expect(shown(selectNumber(s, 1))).toBe('a')
    expect(shown(selectNumber(s, 9))).toBe('c')
    expect(selectNumber(s, 5)).toBe(s)
    s = moveTab(s, s.tabs[2]!.id, 0)
    expect(names(s)).toEqual(['c', 'a', 'b'])
    expect(names(moveTab(s, s.tabs[0]!.id, 99))).toEqual(['a', 'b', 'c'])
  })

  it('closing shows the neighbour; the last closed opens again with its view', () => {
    let s = three()
    s = selectTab(s, s.tabs[1]!.id)
    s = setTabView(s, s.tabs[1]!.id, { filter: 'x = 1', version: 2, latest: 5 })
    s = closeTab(s, s.tabs[1]!.id)
    expect(names(s)).toEqual(['a', 'c'])
    expect(shown(s)).toBe('c')
    s = closeTab(s, s.tabs[1]!.id)
    expect(shown(s)).toBe('a')
    s = reopenTab(s)
    expect(shown(s)).toBe('c')
    s = reopenTab(s)
    expect(shown(s)).toBe('b')
    // Each where it was.
    expect(names(s)).toEqual(['a', 'b', 'c'])
    expect(activeTab(s)!.initial).toEqual({ filter: 'x = 1', version: 2, latest: 5 })
    expect(reopenTab(reopenTab(s))).toEqual(reopenTab(s))
    s = closeTab(closeTab(closeTab(s, s.tabs[0]!.id), s.tabs[1]!.id), s.tabs[2]!.id)
    expect(s.tabs).toEqual([])
    expect(s.panes).toEqual([null, null])
  })

  it('split right copies the active tab beside it; closing one side ends the split', () => {
    let s = three()
    s = setTabView(s, activeTab(s)!.id, { version: 3, latest: 4 })
    s = splitRight(s)
    expect(names(s)).toEqual(['a', 'b', 'c', 'c'])
    expect(s.panes).toEqual([s.tabs[2]!.id, s.tabs[3]!.id])
    expect(s.focus).toBe(1)
    expect(activeTab(s)!.initial).toEqual({ version: 3, latest: 4 })
    // A tab shown on the left is focused there; another goes to the focused pane.
    s = selectTab(s, s.tabs[2]!.id)
    expect(s.focus).toBe(0)
    s = selectTab(s, s.tabs[0]!.id)
    expect(s.panes).toEqual([s.tabs[0]!.id, s.tabs[3]!.id])
    expect(unsplit(s).panes).toEqual([s.tabs[0]!.id, null])
    s = closeTab(s, s.tabs[3]!.id)
    expect(s.panes).toEqual([s.tabs[0]!.id, null])
    expect(s.focus).toBe(0)
  })

  it('remembers table tabs per catalog and restores them with their views, showing the remembered one', () => {
    let s = three()
    s = setTabView(s, s.tabs[0]!.id, { version: 2, latest: 3, filter: 'id > 1', sort: [{ column: 'id', direction: 'desc' }] })
    s = selectNumber(s, 2)
    const saved = savedTabsOf(s, 'c1')
    expect(saved).toEqual({
      tabs: [{ kind: 'table', namespace: ['shop'], name: 'a', version: 2, filter: 'id > 1', sort: [{ column: 'id', direction: 'desc' }] }, { kind: 'table', namespace: ['shop'], name: 'b' }, { kind: 'table', namespace: ['shop'], name: 'c' }],
      active: 1,
    })
    expect(savedTabsOf(s, 'other')).toEqual({ tabs: [] })
    const restored = restoreTabs(emptyTabs, 'c1', saved)
    expect(names(restored)).toEqual(['a', 'b', 'c'])
    expect(shown(restored)).toBe('b')
    expect(restored.tabs[0]!.initial).toEqual({ version: 2, latest: 2, filter: 'id > 1', sort: [{ column: 'id', direction: 'desc' }] })
    expect(tabLabel(restored.tabs[0]!)).toBe('a @ v2')
    expect(tabLabel(restored.tabs[1]!)).toBe('b')
  })

  it('remembers where the user was in each tab: first row, active cell, open panels with their dock tab, the gallery', () => {
    let s = three()
    const place = { first: 120, cell: { row: 131, column: 'score' }, panels: ['summary', 'map'], dockTabs: { right: 'map' }, gallery: true }
    s = setTabView(s, s.tabs[0]!.id, { filter: 'id > 1', ...place })
    // The defaults are not written: the top row, no panels, the grid.
    s = setTabView(s, s.tabs[1]!.id, { first: 0, panels: [], gallery: false })
    const saved = savedTabsOf(s, 'c1')
    expect(saved.tabs.slice(0, 2)).toEqual([{ kind: 'table', namespace: ['shop'], name: 'a', filter: 'id > 1', ...place }, { kind: 'table', namespace: ['shop'], name: 'b' }])
    const restored = restoreTabs(emptyTabs, 'c1', saved)
    expect(restored.tabs[0]!.initial).toEqual({ filter: 'id > 1', ...place })
    expect(restored.tabs[0]!.view).toEqual(restored.tabs[0]!.initial)
    // A split of a restored tab starts where it is.
    expect(splitRight(restored, restored.tabs[0]!.id).tabs[1]!.initial).toEqual({ filter: 'id > 1', ...place })
  })
})
