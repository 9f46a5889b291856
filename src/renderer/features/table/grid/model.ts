import { columnResizingFeature, columnSizingFeature, columnVisibilityFeature, tableFeatures, type ReactTable } from '@tanstack/react-table'
import type { Table as ArrowTable } from 'apache-arrow'

// The grid's table model as types (and its feature set): what the model (gridTable.tsx) builds and the render reads.

/** One rendered row: its index in the whole table and the page that holds it (null while loading). */
export interface GridRow {
  index: number
  page: ArrowTable | null
  pageRow: number
}

export const gridFeatures = tableFeatures({ columnSizingFeature, columnResizingFeature, columnVisibilityFeature })
export type GridTable = ReactTable<typeof gridFeatures, GridRow>

export type ColumnVisibility = Record<string, boolean>
