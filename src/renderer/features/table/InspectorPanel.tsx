import { useSyncExternalStore } from 'react'
import type { InspectionStore } from '../../components/dock/inspection'
import { CellInspector } from './CellInspector'

/**
 * The cell inspector as a panel of the right dock (registered by renderer/panels.ts): the cell the grid or gallery
 * inspects, read from its store, so following the active cell re-renders this panel alone, not the table view.
 */
export function InspectorPanel({ inspection }: { inspection: InspectionStore }) {
  const current = useSyncExternalStore(inspection.subscribe, inspection.get)
  return current && <CellInspector cell={current.cell} onClose={() => inspection.get()?.close()} />
}
