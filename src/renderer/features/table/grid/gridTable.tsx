import { createColumnHelper, useTable } from '@tanstack/react-table'
import { useMemo } from 'react'
import type { FieldInfo } from '../../../../contract'
import { initialWidth, type ColumnSizing } from './columnFit'
import { gridFeatures, type ColumnVisibility, type GridRow, type GridTable } from './model'
import { CellContent, HeaderContent } from './render'

export { gridFeatures, type ColumnVisibility, type GridRow, type GridTable }

const helper = createColumnHelper<typeof gridFeatures, GridRow>()

/** The TanStack table model over the rows in view: one column per field, visibility and widths controlled. */
export function useGridTable(
  fields: readonly FieldInfo[],
  data: GridRow[],
  columnVisibility: ColumnVisibility,
  onColumnVisibilityChange: (updater: ColumnVisibility | ((old: ColumnVisibility) => ColumnVisibility)) => void,
  columnSizing: ColumnSizing,
  onColumnSizingChange: (updater: ColumnSizing | ((old: ColumnSizing) => ColumnSizing)) => void,
): GridTable {
  const columns = useMemo(
    () =>
      helper.columns(
        fields.map((field) =>
          helper.accessor((row) => row.page?.getChild(field.name)?.get(row.pageRow) as unknown, {
            id: field.name,
            header: () => <HeaderContent field={field} />,
            cell: (context) => <CellContent row={context.row.original} name={field.name} />,
            size: initialWidth(field),
            minSize: 48,
            maxSize: 2000,
          }),
        ),
      ),
    [fields],
  )
  return useTable({
    features: gridFeatures,
    columns,
    data,
    getRowId: (row) => String(row.index),
    columnResizeMode: 'onChange',
    state: { columnVisibility, columnSizing },
    onColumnVisibilityChange,
    onColumnSizingChange,
  })
}
