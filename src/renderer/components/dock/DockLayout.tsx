import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { Group, Panel, Separator, useDefaultLayout, type LayoutStorage } from 'react-resizable-panels'
import type { DockSide } from './registry'
import './dock.css'

/** The main view (grid or gallery) never gets narrower than this while the docks are beside it. */
export const MAIN_MIN_WIDTH = 480
const RIGHT_MIN_WIDTH = 280
const BOTTOM_MIN_HEIGHT = 140
const GRIP = { coarse: 12, fine: 5 }

export interface DockedPanel {
  id: string
  title: string
  dock: DockSide
  node: ReactNode
}

/**
 * Dock sizes live in the window's own storage (per userData in the desktop app, per browser profile in the harness).
 * A remembered value that no longer parses (an older version, a hand edit) reads as none: the library would throw
 * on it during render, and a dock is not worth a window that does not start. Writes that fail (storage full,
 * disabled) are dropped: the sizes are a convenience.
 */
const layoutStorage: LayoutStorage = {
  getItem(key) {
    try {
      const value = window.localStorage.getItem(key)
      if (value === null) return null
      const parsed: unknown = JSON.parse(value)
      return parsed !== null && typeof parsed === 'object' && Object.values(parsed).every((n) => typeof n === 'number' && Number.isFinite(n)) ? value : null
    } catch {
      return null
    }
  },
  setItem(key, value) {
    try {
      window.localStorage.setItem(key, value)
    } catch {
      // Not kept: the next window starts with the default sizes.
    }
  },
}

/**
 * The main view with a right dock and a bottom dock (react-resizable-panels: docs/ARCHITECTURE.md says why). Each
 * dock shows its panels as tabs, so panels never squeeze the main view below {@link MAIN_MIN_WIDTH}; separators named
 * **Resize dock** resize them by mouse and arrow keys, and the sizes are remembered. `narrow` (a small window or
 * a split): every panel goes to one drawer over the main view instead. The main view keeps its place in the tree
 * whatever opens or closes (the grid is never remounted by a panel).
 */
export function DockLayout({ main, panels, active, onSelect, narrow }: { main: ReactNode; panels: readonly DockedPanel[]; active: Partial<Record<DockSide, string>>; onSelect(side: DockSide, id: string): void; narrow: boolean }) {
  const right = narrow ? [] : panels.filter((p) => p.dock === 'right')
  const bottom = narrow ? [] : panels.filter((p) => p.dock === 'bottom')
  const outer = useDefaultLayout({ id: 'lcb.dock.right', panelIds: right.length > 0 ? ['main', 'right'] : ['main'], storage: layoutStorage })
  const inner = useDefaultLayout({ id: 'lcb.dock.bottom', panelIds: bottom.length > 0 ? ['view', 'bottom'] : ['view'], storage: layoutStorage })
  return (
    <div className="dock-layout">
      {/* The separators' own width is their grip: none of it reaches into a panel (the map's lasso starts at its edge). */}
      <Group orientation="horizontal" className="dock-group" defaultLayout={outer.defaultLayout} onLayoutChanged={outer.onLayoutChanged} resizeTargetMinimumSize={GRIP}>
        <Panel id="main" minSize={narrow ? 0 : MAIN_MIN_WIDTH} className="dock-main">
          <Group orientation="vertical" className="dock-group" defaultLayout={inner.defaultLayout} onLayoutChanged={inner.onLayoutChanged} resizeTargetMinimumSize={GRIP}>
            <Panel id="view" minSize={120} className="dock-view">
              {main}
            </Panel>
            {bottom.length > 0 && (
              <>
                <Separator className="dock-separator dock-separator-h" aria-label="Resize dock" />
                <Panel id="bottom" minSize={BOTTOM_MIN_HEIGHT} defaultSize="40%" className="dock-panel">
                  <DockTabs side="bottom" panels={bottom} active={active.bottom} onSelect={(id) => onSelect('bottom', id)} />
                </Panel>
              </>
            )}
          </Group>
        </Panel>
        {right.length > 0 && (
          <>
            <Separator className="dock-separator dock-separator-v" aria-label="Resize dock" />
            <Panel id="right" minSize={RIGHT_MIN_WIDTH} defaultSize="40%" className="dock-panel">
              <DockTabs side="right" panels={right} active={active.right} onSelect={(id) => onSelect('right', id)} />
            </Panel>
          </>
        )}
      </Group>
      {narrow && panels.length > 0 && (
        <div className="dock-drawer">
          <DockTabs side="drawer" panels={panels} active={drawerActive(panels, active)} onSelect={(id) => onSelect(panels.find((p) => p.id === id)!.dock, id)} />
        </div>
      )}
    </div>
  )
}

/** In the drawer, the tab shown is the active one of the dock opened last. */
function drawerActive(panels: readonly DockedPanel[], active: Partial<Record<DockSide, string>>): string | undefined {
  const last = panels[panels.length - 1]
  return last ? (active[last.dock] ?? last.id) : undefined
}

const SIDE_NAMES = { right: 'Right dock', bottom: 'Bottom dock', drawer: 'Panels' }

/** One dock's panels: a tab list when it holds more than one (arrow keys move between tabs), each panel in its tab panel. */
function DockTabs({ side, panels, active, onSelect }: { side: DockSide | 'drawer'; panels: readonly DockedPanel[]; active: string | undefined; onSelect(id: string): void }) {
  const base = useId()
  const tabs = useRef<(HTMLButtonElement | null)[]>([])
  const shown = panels.some((p) => p.id === active) ? active : panels[panels.length - 1]?.id
  const several = panels.length > 1
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0
    const to = event.key === 'Home' ? 0 : event.key === 'End' ? panels.length - 1 : step !== 0 ? (index + step + panels.length) % panels.length : -1
    if (to < 0) return
    event.preventDefault()
    onSelect(panels[to]!.id)
    tabs.current[to]?.focus()
  }
  return (
    <div className={`dock dock-${side}`} data-dock={side}>
      {several && (
        <div role="tablist" aria-label={SIDE_NAMES[side]} className="dock-tabs">
          {panels.map((p, i) => (
            <button
              key={p.id}
              ref={(el) => {
                tabs.current[i] = el
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${p.id}`}
              aria-selected={p.id === shown}
              aria-controls={`${base}-panel-${p.id}`}
              tabIndex={p.id === shown ? 0 : -1}
              className="dock-tab"
              onClick={() => onSelect(p.id)}
              onKeyDown={(e) => onKeyDown(e, i)}
            >
              {p.title}
            </button>
          ))}
        </div>
      )}
      {panels.map((p) => (
        <div
          key={p.id}
          className="dock-slot"
          role={several ? 'tabpanel' : undefined}
          id={`${base}-panel-${p.id}`}
          aria-labelledby={several ? `${base}-tab-${p.id}` : undefined}
          hidden={p.id !== shown}
        >
          {p.node}
        </div>
      ))}
    </div>
  )
}
