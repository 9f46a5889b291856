import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react'
import { ShownContext } from '../../components/shown'
import { useWorkbench } from './Workbench'
import { panelId, tabId } from './TabStrip'
import type { Tab } from './tabs'

const MIN_PERCENT = 20
const STEP = 5

/**
 * Every open tab's view, each in its `tabpanel`. All stay mounted (hidden when not shown) so a tab keeps its
 * filter, sort, scroll, selection and panels; the one or two shown are placed in the left and right panes by CSS
 * order, so moving a tab between panes never remounts it (a library's panels would: they own their children).
 * The split has a `separator` named **Resize split** (drag, or arrows / Home / End on it).
 */
export function TabPanes({ render, other }: { render(tab: Tab, visible: boolean): ReactNode; other?: ReactNode }) {
  const workbench = useWorkbench()
  const { state } = workbench
  const [left, right] = state.panes
  // The start screen or a namespace (`other`) covers the tabs; they stay mounted behind it.
  const shown = state.shown && !other
  const split = shown && right !== null
  const [percent, setPercent] = useState(50)
  const host = useRef<HTMLDivElement>(null)
  const drag = (event: PointerEvent<HTMLDivElement>) => {
    const box = host.current?.getBoundingClientRect()
    if (!box || event.buttons !== 1) return
    setPercent(clamp(((event.clientX - box.left) / box.width) * 100))
  }
  const onKey = (event: KeyboardEvent) => {
    const next = event.key === 'ArrowLeft' ? percent - STEP : event.key === 'ArrowRight' ? percent + STEP : event.key === 'Home' ? MIN_PERCENT : event.key === 'End' ? 100 - MIN_PERCENT : null
    if (next === null) return
    event.preventDefault()
    setPercent(clamp(next))
  }

  return (
    <div ref={host} className={split ? 'tab-panes tab-panes-split' : 'tab-panes'}>
      {other}
      {state.tabs.map((tab) => {
        const pane = tab.id === left ? 0 : tab.id === right && split ? 1 : null
        const visible = shown && pane !== null
        return (
          <div
            key={tab.id}
            id={panelId(tab)}
            role="tabpanel"
            aria-labelledby={tabId(tab)}
            className={`tab-panel${split && pane === state.focus ? ' tab-panel-focused' : ''}`}
            hidden={!visible}
            style={visible ? { order: pane === 0 ? 0 : 2, flexBasis: split ? (pane === 0 ? `${percent}%` : `${100 - percent}%`) : '100%' } : undefined}
            // Clicking or tabbing into a pane makes its tab the active one (the tab strip and the keys follow it).
            onFocusCapture={() => pane !== null && workbench.focusPane(pane)}
            onPointerDownCapture={() => pane !== null && workbench.focusPane(pane)}
          >
            {/* Whether it is on screen: a hidden tab's view does no on-screen work (components/shown.ts). */}
            <ShownContext.Provider value={visible}>{render(tab, visible)}</ShownContext.Provider>
          </div>
        )
      })}
      {split && (
        <div
          role="separator"
          aria-label="Resize split"
          aria-orientation="vertical"
          aria-valuemin={MIN_PERCENT}
          aria-valuemax={100 - MIN_PERCENT}
          aria-valuenow={Math.round(percent)}
          tabIndex={0}
          className="tab-split-handle"
          style={{ order: 1 }}
          onPointerDown={(e) => e.currentTarget.setPointerCapture(e.pointerId)}
          onPointerMove={drag}
          onKeyDown={onKey}
        />
      )}
    </div>
  )
}

function clamp(percent: number): number {
  return Math.max(MIN_PERCENT, Math.min(100 - MIN_PERCENT, percent))
}
