import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'
import { Group, Panel, Separator, useDefaultLayout, type LayoutStorage } from 'react-resizable-panels'
import type { DockSide } from './registry'
import './dock.css'

/** The main view (grid or gallery) never gets narrower than this while the docks are beside it. */
export const MAIN_MIN_WIDTH = 480
/** Each dock's smallest and first size: the right one beside the rows, the bottom one a band under them. */
const DOCK_SIZES: Record<DockSide, { min: number; initial: string }> = {
  right: { min: 280, initial: '40%' },
  bottom: { min: 100, initial: '140px' },
}
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
 * a split): the right dock's panels go to one drawer over the main view instead; the bottom dock stays (it takes
 * height, not width). The main view keeps its place in the tree whatever opens or closes (the grid is never
 * remounted by a panel).
 */
export function DockLayout({ main, panels, active, onSelect, narrow }: { main: ReactNode; panels: readonly DockedPanel[]; active: Partial<Record<DockSide, string>>; onSelect(side: DockSide, id: string): void; narrow: boolean }) {
  const right = narrow ? [] : panels.filter((p) => p.dock === 'right')
  const bottom = panels.filter((p) => p.dock === 'bottom')
  const drawer = narrow ? panels.filter((p) => p.dock === 'right') : []
  const outer = useDockSizes('right', right.length > 0)
  const inner = useDockSizes('bottom', bottom.length > 0)
  return (
    <div className="dock-layout">
      {/* The separators' own width is their grip: none of it reaches into a panel (the map's lasso starts at its edge). */}
      <Group orientation="horizontal" className="dock-group" defaultLayout={outer.defaultLayout} onLayoutChanged={outer.onLayoutChanged} resizeTargetMinimumSize={GRIP}>
        <Panel id="main" minSize={narrow ? 0 : MAIN_MIN_WIDTH} className="dock-main">
          <Group orientation="vertical" className="dock-group" defaultLayout={inner.defaultLayout} onLayoutChanged={inner.onLayoutChanged} resizeTargetMinimumSize={GRIP}>
            <Panel id="view" minSize={120} className="dock-view">
              {main}
            </Panel>
            <Dock side="bottom" panels={bottom} active={active.bottom} onSelect={onSelect} />
          </Group>
        </Panel>
        <Dock side="right" panels={right} active={active.right} onSelect={onSelect} />
      </Group>
      {drawer.length > 0 && (
        <div className="dock-drawer">
          <DockTabs side="drawer" panels={drawer} active={active.right} onSelect={(id) => onSelect('right', id)} />
        </div>
      )}
    </div>
  )
}

/** The remembered sizes of one dock's group (`lcb.dock.right`, `lcb.dock.bottom`), with or without the dock open. */
function useDockSizes(side: DockSide, open: boolean) {
  const main = side === 'right' ? 'main' : 'view'
  return useDefaultLayout({ id: `lcb.dock.${side}`, panelIds: open ? [main, side] : [main], storage: layoutStorage })
}

/** One dock beside (right) or under (bottom) the main view: its **Resize dock** separator and its panels as tabs. */
function Dock({ side, panels, active, onSelect }: { side: DockSide; panels: readonly DockedPanel[]; active: string | undefined; onSelect(side: DockSide, id: string): void }) {
  if (panels.length === 0) return null
  const size = DOCK_SIZES[side]
  return (
    <>
      <Separator className={`dock-separator dock-separator-${side}`} aria-label="Resize dock" />
      <Panel id={side} minSize={size.min} defaultSize={size.initial} className="dock-panel">
        <DockTabs side={side} panels={panels} active={active} onSelect={(id) => onSelect(side, id)} />
      </Panel>
    </>
  )
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
