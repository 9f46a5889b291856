import { memo } from 'react'
import type { TableRef, TableViewSpec } from '../../../contract'
import { Grid, type GridProps } from './Grid'
import { useTablePageSource } from './pageSource'

export type { ColumnVisibility } from './grid/gridTable'

/**
 * A table's grid: the data grid (Grid.tsx) paging through one view of the table (`tables/page`). A query
 * result's grid is the same Grid over another page source (features/sql).
 */
export const DataGrid = memo(function DataGrid({
  tableRef,
  view,
  viewKey = '',
  ...grid
}: Omit<GridProps, 'source'> & {
  tableRef: TableRef
  /** Read every page through this view (version, filter, sort, search); `rowCount` is its count. */
  view?: TableViewSpec
  /** The view's identity (useTableView computes it): a new one starts a fresh page cache, scroll and active cell. */
  viewKey?: string
}) {
  const source = useTablePageSource(tableRef, view, viewKey)
  return <Grid source={source} {...grid} />
})
