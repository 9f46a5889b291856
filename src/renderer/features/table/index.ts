// The table view: the grid, its queries (filter, sort, search), panels and the cell inspector.
export { TableView, type TableViewTabProps } from './TableView'
export { TableIdentity, tableIdentity } from './tableIdentity'
export { prefetchTable } from './queries'
export { warmGridWhenIdle } from './warmGrid'
