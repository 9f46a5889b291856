import type { ReactNode } from 'react'
import type { FieldInfo } from '../../../contract'
import type { PanelContribution, SheetContribution } from '../../components/dock/registry'
import { RefreshIcon, SchemaIcon } from '../../components/Icons'
import { OverflowToolbar, type ToolbarItem, type ToolEntry } from '../../components/toolbar/OverflowToolbar'
import { ColumnsMenu, ColumnsPopover, columnsLabel, useColumnsChoice } from './ColumnsMenu'
import type { ColumnVisibility } from './DataGrid'
import type { GalleryState } from './gallery'

/** A panel's toolbar button: pressed while the panel is open. */
function PanelButton({ panel, open, disabled, onToggle }: { panel: PanelContribution; open: boolean; disabled: boolean; onToggle(panel: PanelContribution): void }) {
  return (
    <button type="button" className="button" aria-pressed={open} disabled={disabled} onClick={() => onToggle(panel)}>
      {panel.id === 'schema' && <SchemaIcon />}
      {panel.title}
    </button>
  )
}

/** A toolbar item: its bar and its entries in More tools once it moved there. */
export type { ToolbarItem, ToolEntry }

/**
 * Which items give up their place first when the toolbar is too narrow (the rest after, trailing ones first):
 * Reload (the newer-version hint has its own, and a reload is rare), then the panels that sit at the end (Schema,
 * Map, Summary) and the view switches — each, once open, shows its own dock tab or view to work in; Export… (a
 * sheet, used once in a while); the lifecycle group (Versions, Indexes, Stats: table management, not reading);
 * then Columns, which a wide table needs all the time; the query controls (Go to row…, Search by vector…) last:
 * they start the bar and keep their place while anything else can move.
 */
const MOVE_ORDER = ['reload', 'panel:schema', 'panel:map', 'panel:summary', 'switches', 'sheets', 'lifecycle', 'columns', 'query']

/**
 * The header's toolbar: the query buttons, the lifecycle panels' group, Columns, the sheets (Export…), the view
 * switches (gallery, histograms), the other panels and Reload, on one line (OverflowToolbar: what does not fit is
 * in More tools). Panels and sheets come from the registry (renderer/panels.ts), so a new panel adds its own button.
 */
export function TableToolbar(props: {
  ready: boolean
  fields: readonly FieldInfo[] | null
  panels: readonly PanelContribution[]
  open: readonly string[]
  onToggle(panel: PanelContribution): void
  sheets: readonly SheetContribution[]
  onSheet(id: string): void
  visibility: ColumnVisibility
  onVisibility(next: ColumnVisibility): void
  /** Go to row, Search by vector. */
  queries: ToolbarItem | null
  /** The gallery and histogram switches. */
  switches: { bar: ReactNode; menu: readonly ToolEntry[] }
  onReload(): void
}) {
  const { ready, open, onToggle } = props
  const columns = useColumnsChoice(props.fields ?? NO_FIELDS, props.visibility, props.onVisibility)
  // Panels the view's own state opens (the inspector, Similar rows) have no button.
  const panels = props.panels.filter((p) => !p.openedBy)
  const lifecycle = panels.filter((p) => p.group === 'lifecycle')
  const others = panels.filter((p) => p.group !== 'lifecycle')
  const entry = (p: PanelContribution): ToolEntry => ({ id: `panel:${p.id}`, label: p.title, checked: open.includes(p.id), disabled: !ready, run: () => onToggle(p) })
  const button = (p: PanelContribution) => <PanelButton key={p.id} panel={p} open={open.includes(p.id)} disabled={!ready} onToggle={onToggle} />

  const items: ToolbarItem[] = []
  if (props.queries) items.push(props.queries)
  if (lifecycle.length > 0) {
    const bar = (
      <div className="lifecycle-buttons" role="group" aria-label="Table lifecycle">
        {lifecycle.map(button)}
      </div>
    )
    items.push({ id: 'lifecycle', bar, menu: lifecycle.map(entry) })
  }
  if (props.fields) {
    const popup: ToolEntry['popup'] = (close, within) => <ColumnsPopover choice={columns} within={within} onClose={close} />
    items.push({ id: 'columns', bar: <ColumnsMenu choice={columns} />, menu: [{ id: 'columns', label: columnsLabel(columns), disabled: false, popup }] })
  }
  if (props.sheets.length > 0) {
    const bar = props.sheets.map((s) => (
      <button key={s.id} type="button" className="button" disabled={!ready} onClick={() => props.onSheet(s.id)}>
        {s.label}
      </button>
    ))
    items.push({ id: 'sheets', bar, menu: props.sheets.map((s) => ({ id: `sheet:${s.id}`, label: s.label, disabled: !ready, run: () => props.onSheet(s.id) })) })
  }
  if (props.switches.menu.length > 0) items.push({ id: 'switches', ...props.switches })
  for (const p of others) items.push({ id: `panel:${p.id}`, bar: button(p), menu: [entry(p)] })
  const reload = (
    <button type="button" className="icon-button" aria-label="Reload table" title="Reload table" onClick={props.onReload}>
      <RefreshIcon />
    </button>
  )
  items.push({ id: 'reload', bar: reload, menu: [{ id: 'reload', label: 'Reload table', disabled: false, run: props.onReload }] })
  return <OverflowToolbar items={items} moveOrder={MOVE_ORDER} />
}

/** The view switches (Gallery, the header strip's Histograms) as More tools entries: checked while on. */
export function switchTools(gallery: GalleryState, strip: { label: string; on: boolean; toggle(): void } | null, disabled: boolean): ToolEntry[] {
  const entries: ToolEntry[] = []
  if (gallery.columns.length > 0) entries.push({ id: 'gallery', label: 'Gallery', checked: gallery.open, disabled, run: () => gallery.setOpen(!gallery.open) })
  if (strip) entries.push({ id: 'strip', label: strip.label, checked: strip.on, disabled, run: strip.toggle })
  return entries
}

const NO_FIELDS: readonly FieldInfo[] = []
