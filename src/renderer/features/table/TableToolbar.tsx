import type { ReactNode } from 'react'
import type { FieldInfo } from '../../../contract'
import type { PanelContribution, SheetContribution } from '../../components/dock/registry'
import { RefreshIcon, SchemaIcon } from '../../components/Icons'
import { ColumnsMenu } from './ColumnsMenu'
import type { ColumnVisibility } from './DataGrid'

/** A panel's toolbar button: pressed while the panel is open. */
function PanelButton({ panel, open, disabled, onToggle }: { panel: PanelContribution; open: boolean; disabled: boolean; onToggle(panel: PanelContribution): void }) {
  return (
    <button type="button" className="button" aria-pressed={open} disabled={disabled} onClick={() => onToggle(panel)}>
      {panel.id === 'schema' && <SchemaIcon />}
      {panel.title}
    </button>
  )
}

/**
 * The header's toolbar: the query buttons, the lifecycle panels' group, Columns, the sheets (Export…), the view
 * switches (gallery, histograms), the other panels and Reload. Panels and sheets come from the registry
 * (renderer/panels.ts), so a new panel adds its own button.
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
  queries: ReactNode
  /** The gallery and histogram switches. */
  switches: ReactNode
  onReload(): void
}) {
  const { ready, open, onToggle } = props
  // Panels the view's own state opens (the inspector, Similar rows) have no button.
  const panels = props.panels.filter((p) => !p.openedBy)
  const lifecycle = panels.filter((p) => p.group === 'lifecycle')
  const others = panels.filter((p) => p.group !== 'lifecycle')
  return (
    <>
      {props.queries}
      {lifecycle.length > 0 && (
        <div className="lifecycle-buttons" role="group" aria-label="Table lifecycle">
          {lifecycle.map((p) => (
            <PanelButton key={p.id} panel={p} open={open.includes(p.id)} disabled={!ready} onToggle={onToggle} />
          ))}
        </div>
      )}
      {props.fields && <ColumnsMenu fields={props.fields} visibility={props.visibility} onChange={props.onVisibility} />}
      {props.sheets.map((s) => (
        <button key={s.id} type="button" className="button" disabled={!ready} onClick={() => props.onSheet(s.id)}>
          {s.label}
        </button>
      ))}
      {props.switches}
      {others.map((p) => (
        <PanelButton key={p.id} panel={p} open={open.includes(p.id)} disabled={!ready} onToggle={onToggle} />
      ))}
      <button type="button" className="icon-button" aria-label="Reload table" title="Reload table" onClick={props.onReload}>
        <RefreshIcon />
      </button>
    </>
  )
}
