// The table view: the grid, its queries (filter, sort, search), panels and the cell inspector.
export { TableView, type TableViewTabProps } from './TableView'
// The grid over any page source (a query's result pages through `sql/page`).
export { Grid } from './Grid'
export type { PageSource } from './pageSource'
export type { ColumnVisibility } from './DataGrid'
export { TableIdentity, tableIdentity } from './tableIdentity'
export { prefetchTable } from './queries'
export { warmGridWhenIdle } from './warmGrid'
export { SchemaPanel } from './SchemaPanel'
// Panels the table view's own state opens (renderer/panels.ts registers them in the docks).
export { InspectorPanel } from './InspectorPanel'
export { SimilarPanel } from './SimilarPanel'
// Escape closes the panel opened last (a query result's docks too).
export { useEscapeLayer } from './panelStack'
