// The table view: the grid, its queries (filter, sort, search), panels and the cell inspector.
export { TableView } from './TableView'
export { TableIdentity, tableIdentity } from './tableIdentity'
export { prefetchTable } from './queries'
export { warmGridWhenIdle } from './warmGrid'
export { SchemaPanel } from './SchemaPanel'
