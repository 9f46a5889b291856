import { OverflowToolbar, type ToolbarItem, type ToolEntry } from '../../components/toolbar/OverflowToolbar'
import { HistoryButton, HistoryPopup, useHistory } from './HistoryButton'
import type { ResultViews } from './useResultViews'

/** The query view's actions, each a toolbar button and (in a narrow view) an item of More tools. */
export interface QueryActions {
  running: boolean
  run(): void
  cancel(): void
  explain(): void
  saveAs(): void
  /** A statement from History goes into the editor. */
  recall(sql: string): void
}

/** A plain button and its More tools entry. */
function tool(id: string, label: string, disabled: boolean, run: () => void, extra: { title?: string; primary?: boolean; pressed?: boolean } = {}): ToolbarItem {
  return {
    id,
    bar: (
      <button type="button" className={extra.primary ? 'button primary' : 'button'} onClick={run} disabled={disabled} title={extra.title} aria-pressed={extra.pressed}>
        {label}
      </button>
    ),
    menu: [{ id, label, disabled, reason: disabled ? extra.title : undefined, checked: extra.pressed, run }],
  }
}

/**
 * The query view's toolbar: **Run**, **Cancel**, **Explain**, **Save as table…**, **History** and, once a result
 * is there, its sheets (Export…) and panels (Summary, Map; pressed while open). On one line: what does not fit
 * moves into **More tools**, trailing ones first (the result's panels, then History…, Run last).
 */
export function QueryToolbar({ connectionId, actions, views }: { connectionId: string; actions: QueryActions; views: ResultViews | null }) {
  const history = useHistory(connectionId)
  const { running } = actions
  const items: ToolbarItem[] = [
    tool('run', 'Run', running, actions.run, { title: 'Run the statement under the caret (Ctrl/Cmd+Enter)', primary: true }),
    tool('cancel', 'Cancel', !running, actions.cancel),
    tool('explain', 'Explain', false, actions.explain),
    tool('save', 'Save as table…', running, actions.saveAs),
  ]
  const popup: ToolEntry['popup'] = (close, _within, at) => <HistoryPopup connectionId={connectionId} at={at} onChoose={actions.recall} close={close} />
  items.push({ id: 'history', bar: <HistoryButton connectionId={connectionId} onChoose={actions.recall} />, menu: [{ id: 'history', label: 'History', disabled: history.length === 0, popup }] })
  if (views) {
    const title = views.ready ? undefined : 'The query has no result to open'
    for (const s of views.sheets) items.push(tool(`sheet:${s.id}`, s.label, !views.ready, () => views.openSheet(s.id), { title }))
    for (const p of views.panels) items.push(tool(`panel:${p.id}`, p.title, !views.ready, () => views.dock.toggle(p.id, p.dock), { title, pressed: views.dock.open.includes(p.id) }))
  }
  return <OverflowToolbar items={items} moveOrder={NONE} />
}

/** No item is named: trailing ones move first. */
const NONE: readonly string[] = []
