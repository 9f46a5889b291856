import { useState, useSyncExternalStore } from 'react'
import { useInspectionStore } from '../../components/dock/inspection'
import type { DockSide, PanelContribution, PanelOpener, SimilarSearch } from '../../components/dock/registry'

/**
 * The panels a table view's own state opens (`PanelContribution.openedBy`), not a toolbar button: the inspector while
 * the grid — or the gallery, when it is shown — inspects a cell, Similar rows while the grid shows a vector search.
 * They dock after the panels the user opened, and one that opens becomes its dock's shown tab (where the user's eyes
 * are). Closing one ends its state: the inspection (the grid gives the focus back) or the search.
 */
export function useOpenedPanels(panels: readonly PanelContribution[], galleryOpen: boolean, similar: SimilarSearch | null, select: (side: DockSide, id: string) => void) {
  const grid = useInspectionStore()
  const gallery = useInspectionStore()
  const inspection = galleryOpen ? gallery : grid
  const inspecting = useSyncExternalStore(inspection.subscribe, () => inspection.get() !== null)
  const on: Record<PanelOpener, boolean> = { inspect: inspecting, similar: similar !== null }
  const opened = panels.filter((p) => p.openedBy && on[p.openedBy])
  const key = opened.map((p) => p.id).join('\n')
  // A panel that opens is shown at once (set while rendering, so no frame shows its dock's other tab first).
  const [shownBefore, setShownBefore] = useState('')
  if (key !== shownBefore) {
    setShownBefore(key)
    const before = shownBefore.split('\n')
    for (const p of opened) if (!before.includes(p.id)) select(p.dock, p.id)
  }
  const close = (panel: PanelContribution): boolean => {
    if (panel.openedBy === 'inspect') inspection.get()?.close()
    else if (panel.openedBy === 'similar') similar?.clear()
    else return false
    return true
  }
  return {
    /** Where the grid and the gallery report the cell they inspect. */
    stores: { grid, gallery },
    /** The inspection of the main view shown (the gallery's while it is open). */
    inspection,
    ids: opened.map((p) => p.id),
    /** Close a panel this state opened; false for a panel the user opened (the dock closes it). */
    close,
    /** The drawer closed (Escape in a narrow view): the user's panels and the inspector with them; Similar rows stays under the grid. */
    closeAll(closeUsers: () => void) {
      closeUsers()
      for (const p of opened) if (p.dock === 'right') close(p)
    },
  }
}
