import './workbench.css'
import { useRef, useState, type DragEvent, type KeyboardEvent, type MouseEvent } from 'react'
import { ContextMenu, type MenuEntry } from '../../components/ContextMenu'
import { CloseIcon } from '../../components/Icons'
import { useWorkbench } from './Workbench'
import { tabLabel, type Tab } from './tabs'

export const tabId = (tab: Tab) => `tab-${tab.id}`
export const panelId = (tab: Tab) => `tabpanel-${tab.id}`

/** Where a tab's table lives, for its tooltip. */
function tooltipOf(tab: Tab, connectionLabel: (id: string) => string): string {
  const where = [connectionLabel(tab.connectionId), ...(tab.ref?.namespace ?? [])].join(' / ')
  const pinned = tab.view.version !== undefined ? ` — version ${tab.view.version}, read-only` : ''
  const filtered = tab.view.filter ? ` — filtered: ${tab.view.filter}` : ''
  return `${where}${pinned}${filtered}`
}

type Entry = MenuEntry & { run(): void }

/**
 * The tab strip: a `tablist` named **Open tables** with roving focus (arrows, Home, End; Delete closes; Alt+Shift+
 * arrows move the tab), drag to reorder, middle-click to close, and a context menu with **Split right** and
 * **Close tab**.
 */
export function TabStrip({ connectionLabel }: { connectionLabel(id: string): string }) {
  const workbench = useWorkbench()
  const { state } = workbench
  const activeId = state.shown ? state.panes[state.focus] : null
  const strip = useRef<HTMLDivElement>(null)
  const [menu, setMenu] = useState<{ x: number; y: number; tab: Tab } | null>(null)
  const [dragged, setDragged] = useState<string | null>(null)
  // The tab that takes the roving focus: the active one, else the first.
  const focusable = activeId ?? state.tabs[0]?.id

  const focusTab = (id: string) => requestAnimationFrame(() => document.getElementById(`tab-${id}`)?.focus())
  const onKeyDown = (event: KeyboardEvent, tab: Tab, index: number) => {
    const last = state.tabs.length - 1
    let to: number | null = null
    if (event.altKey && event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      workbench.move(tab.id, index + (event.key === 'ArrowLeft' ? -1 : 1))
      focusTab(tab.id)
    } else if (event.key === 'ArrowLeft') to = index === 0 ? last : index - 1
    else if (event.key === 'ArrowRight') to = index === last ? 0 : index + 1
    else if (event.key === 'Home') to = 0
    else if (event.key === 'End') to = last
    else if (event.key === 'Delete') workbench.close(tab.id)
    else if (event.key === 'ContextMenu' || (event.shiftKey && event.key === 'F10')) {
      const box = event.currentTarget.getBoundingClientRect()
      setMenu({ x: box.left, y: box.bottom, tab })
    } else return
    event.preventDefault()
    if (to !== null) {
      workbench.select(state.tabs[to]!.id)
      focusTab(state.tabs[to]!.id)
    }
  }
  const onDrop = (event: DragEvent, index: number) => {
    event.preventDefault()
    if (dragged) workbench.move(dragged, index)
    setDragged(null)
  }
  const menuItems = (tab: Tab): Entry[] => [
    { id: 'split', label: 'Split right', disabled: false, run: () => workbench.splitRight(tab.id) },
    ...(state.panes[1] !== null ? [{ id: 'unsplit', label: 'Close split', disabled: false, run: () => workbench.unsplit() }] : []),
    { id: 'close', label: 'Close tab', disabled: false, run: () => workbench.close(tab.id) },
    { id: 'reopen', label: 'Reopen closed tab', disabled: state.closed.length === 0, reason: 'No tab was closed', run: () => workbench.reopen() },
  ]

  if (state.tabs.length === 0) return null
  return (
    <div className="tab-strip">
      <div ref={strip} role="tablist" aria-label="Open tables" className="tab-list" onDragOver={(e) => dragged && e.preventDefault()} onDrop={(e) => onDrop(e, state.tabs.length - 1)}>
        {state.tabs.map((tab, index) => {
          const label = tabLabel(tab)
          const selected = tab.id === activeId
          const visible = state.shown && state.panes.includes(tab.id)
          return (
            <div
              key={tab.id}
              className={`tab${selected ? ' tab-active' : ''}${visible ? ' tab-visible' : ''}${dragged === tab.id ? ' tab-dragged' : ''}`}
              draggable
              onDragStart={(e) => {
                setDragged(tab.id)
                e.dataTransfer.effectAllowed = 'move'
                e.dataTransfer.setData('text/plain', label)
              }}
              onDragOver={(e) => dragged && e.preventDefault()}
              onDrop={(e) => {
                e.stopPropagation()
                onDrop(e, index)
              }}
              onDragEnd={() => setDragged(null)}
            >
              <button
                type="button"
                role="tab"
                id={tabId(tab)}
                aria-selected={selected}
                aria-controls={panelId(tab)}
                tabIndex={tab.id === focusable ? 0 : -1}
                title={tooltipOf(tab, connectionLabel)}
                className="tab-button"
                onClick={() => workbench.select(tab.id)}
                onAuxClick={(e: MouseEvent) => {
                  if (e.button === 1) workbench.close(tab.id)
                }}
                onMouseDown={(e) => e.button === 1 && e.preventDefault()}
                onContextMenu={(e) => {
                  e.preventDefault()
                  setMenu({ x: e.clientX, y: e.clientY, tab })
                }}
                onKeyDown={(e) => onKeyDown(e, tab, index)}
              >
                {tab.view.version !== undefined && <PinMark />}
                <span className="tab-label">{label}</span>
                {tab.view.filter && <span className="tab-filter-dot" aria-hidden="true" data-testid="tab-filter-dot" />}
              </button>
              <button type="button" className="tab-close" tabIndex={-1} aria-label={`Close ${label}`} title="Close tab (Ctrl+W)" onClick={() => workbench.close(tab.id)}>
                <CloseIcon />
              </button>
            </div>
          )
        })}
      </div>
      <button type="button" className="icon-button tab-split" aria-label={state.panes[1] === null ? 'Split right' : 'Close split'} title={state.panes[1] === null ? 'Split right: the tab shown, beside itself' : 'Close split'} disabled={!activeId && state.panes[1] === null} onClick={() => (state.panes[1] === null ? workbench.splitRight() : workbench.unsplit())}>
        <SplitMark split={state.panes[1] !== null} />
      </button>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          label={`Tab ${tabLabel(menu.tab)}`}
          items={menuItems(menu.tab)}
          onChoose={(item) => {
            setMenu(null)
            item.run()
          }}
          onClose={() => setMenu(null)}
        />
      )}
    </div>
  )
}

const svg = { width: 14, height: 14, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const

/** A pinned (older, read-only) version. */
function PinMark() {
  return (
    <svg {...svg} className="tab-pin" data-testid="tab-pin">
      <path d="M6 1.5h4M7 1.5v4.2L4.5 8.5h7L9 5.7V1.5M8 8.5v6" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

function SplitMark({ split }: { split: boolean }) {
  return (
    <svg {...svg}>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.2" fill="none" stroke="currentColor" strokeWidth="1.1" />
      {!split && <path d="M8 2.75v10.5" stroke="currentColor" strokeWidth="1.1" />}
    </svg>
  )
}
