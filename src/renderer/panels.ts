// What the features contribute to the table view (components/dock/registry.ts): its docked panels, the sheets its
// toolbar opens and the grid header's strip; those marked `results` are offered on a query's result too. Imported by App before the first render; the table view reads the
// registry and imports none of these features. The order here is the toolbar's order.
import { createElement } from 'react'
import { registerHeaderStrip, registerPanel, registerSheet } from './components/dock/registry'
import { ExportSheet } from './features/export'
import { LifecyclePanel, type LifecyclePanelKind } from './features/lifecycle'
import { MapPanel } from './features/map'
import { headerHistogramsStrip, SummaryPanel } from './features/profile'
import { InspectorPanel, SchemaPanel, SimilarPanel } from './features/table'

const lifecycle: [LifecyclePanelKind, string][] = [
  ['versions', 'Versions'],
  ['indexes', 'Indexes'],
  ['stats', 'Stats'],
]
for (const [kind, title] of lifecycle) registerPanel({ id: kind, title, dock: 'right', group: 'lifecycle', render: (context) => createElement(LifecyclePanel, { kind, context }) })

registerPanel({
  id: 'summary',
  title: 'Summary',
  dock: 'right',
  results: true,
  render: (c) => createElement(SummaryPanel, { tableRef: c.viewRef, version: c.version, filter: c.filter, rowSet: c.rowSet, searching: c.searching, onFilter: c.addFilter, onClose: c.close }),
})

registerPanel({
  id: 'map',
  title: 'Map',
  // Beside the grid, as before: the bottom dock of a 800 px window is too short for its tools and canvas.
  dock: 'right',
  results: true,
  available: (info) => info.schema.some((f) => f.vectorDimension !== undefined),
  render: (c) => createElement(MapPanel, { tableRef: c.viewRef, version: c.version, fields: c.info.schema, gridNarrowed: c.narrowed, onSelectRow: c.goToRow, onLasso: c.lasso, onClose: c.close }),
})

registerPanel({ id: 'schema', title: 'Schema', dock: 'right', render: (c) => createElement(SchemaPanel, { fields: c.info.schema, onClose: c.close }) })

// Opened by the grid, not the toolbar: the cell inspector where the user's eyes are (beside the rows it follows), and
// Similar rows under the grid (its controls are one line: the rows it found keep the width).
registerPanel({ id: 'inspector', title: 'Inspector', dock: 'right', openedBy: 'inspect', render: (c) => c.inspection && createElement(InspectorPanel, { inspection: c.inspection }) })
registerPanel({ id: 'similar', title: 'Similar rows', dock: 'bottom', openedBy: 'similar', render: (c) => c.similar && createElement(SimilarPanel, { tableRef: c.viewRef, similar: c.similar }) })

registerSheet({
  id: 'export',
  label: 'Export…',
  results: true,
  render: (c) => createElement(ExportSheet, { tableRef: c.tableRef, view: c.view, rowCount: c.rowCount, tableRows: c.tableRows, columnCount: c.columnCount, totalColumns: c.totalColumns, onClose: c.close }),
})

registerHeaderStrip(headerHistogramsStrip)
