import type { MouseEvent, ReactNode } from 'react'
import { cellValue, type FieldInfo, type SortKey } from '../../../../contract'
import { formatCount } from '../../../lib/format'
import { formatCell } from '../../../lib/formatCell'
import type { useGridSelection } from '../useGridSelection'
import { ColumnMenuButton } from '../SelectionOverlays'
import { headerTypeLabel } from './columnFit'
import type { RowWindow } from './geometry'
import type { GridRow, GridTable } from './model'
import { HEADER_HEIGHT, ROW_HEIGHT } from './viewport'

type Selection = ReturnType<typeof useGridSelection>
type Active = { row: number; col: number } | null

/** One cell's value as the grid shows it (formatCell), or a placeholder while its page loads. */
export function CellContent({ row, name }: { row: GridRow; name: string }) {
  const vector = row.page?.getChild(name)
  if (!vector) return <span className="cell-pending" aria-hidden="true" />
  const display = formatCell(cellValue(vector, row.pageRow), vector.type)
  return (
    <span className={`cell-text cell-${display.kind}`} title={display.title ?? display.text}>
      {display.text}
    </span>
  )
}

export function HeaderContent({ field }: { field: FieldInfo }) {
  return (
    <span className="header-label" title={`${field.name}: ${field.type}${field.nullable ? '' : ' (not null)'}`}>
      <span className="header-name">{field.name}</span>
      <span className="header-type">{headerTypeLabel(field)}</span>
    </span>
  )
}

/** A strip under every column header's name, filled per column (the table feature knows nothing of what it shows). */
export interface HeaderExtra {
  height: number
  render: (column: string) => ReactNode
}

/** The ARIA sort state of a column under `sort` (only the first key is announced as sorted). */
function sortOf(sort: readonly SortKey[] | undefined, column: string): 'ascending' | 'descending' | 'none' {
  const key = sort?.find((s) => s.column === column)
  return key ? (key.direction === 'asc' ? 'ascending' : 'descending') : 'none'
}

/** The header row: the row-number gutter, then each visible column's name, sort mark, menu button and resizer. */
export function GridHeader({
  table,
  gutterWidth,
  sort,
  onSortToggle,
  selection,
  extra,
}: {
  table: GridTable
  gutterWidth: number
  sort?: readonly SortKey[]
  onSortToggle?: (column: string) => void
  selection: Selection
  /** Something drawn under each column's name (the profile's header histograms), in a header `extra.height` taller. */
  extra?: HeaderExtra
}) {
  const headerGroup = table.getHeaderGroups()[0]
  const height = HEADER_HEIGHT + (extra?.height ?? 0)
  return (
    <div role="rowgroup" className="grid-head" style={{ height }}>
      <div role="row" aria-rowindex={1} className="grid-row grid-header-row" style={{ height }}>
        <div role="columnheader" aria-colindex={1} aria-label="Row number" className="grid-gutter grid-gutter-head" style={{ width: gutterWidth }}>
          #
        </div>
        {headerGroup?.headers.map((header, index) => (
          <div
            key={header.id}
            role="columnheader"
            aria-colindex={index + 2}
            aria-label={header.column.id}
            aria-sort={onSortToggle ? sortOf(sort, header.column.id) : undefined}
            className="grid-header-cell"
            style={{ width: header.getSize() }}
            onClick={onSortToggle ? () => onSortToggle(header.column.id) : undefined}
          >
            {extra ? (
              <div className="header-stack">
                <table.FlexRender header={header} />
                {/* Clicks inside it are its own (a bar filters), not a sort. */}
                <div className="header-extra" style={{ height: extra.height }} onClick={(event) => event.stopPropagation()}>
                  {extra.render(header.column.id)}
                </div>
              </div>
            ) : (
              <table.FlexRender header={header} />
            )}
            {onSortToggle && sortOf(sort, header.column.id) !== 'none' && (
              <span className="sort-mark" aria-hidden="true">
                {sortOf(sort, header.column.id) === 'ascending' ? '▲' : '▼'}
              </span>
            )}
            <ColumnMenuButton col={index} name={header.column.id} onOpen={selection.openColumnMenu} />
            <div
              className={`grid-resizer${header.column.getIsResizing() ? ' resizing' : ''}`}
              role="separator"
              aria-orientation="vertical"
              aria-label={`Resize ${header.column.id}`}
              onMouseDown={header.getResizeHandler()}
              onTouchStart={header.getResizeHandler()}
              onDoubleClick={() => header.column.resetSize()}
              onClick={(event) => event.stopPropagation()}
            />
          </div>
        ))}
      </div>
    </div>
  )
}

/** The rows in view, each placed at its offset in the body; cells carry the selection's mouse handlers. */
export function GridBody({
  table,
  rows,
  viewportHeight,
  gutterWidth,
  active,
  cellId,
  selection,
  headerHeight = HEADER_HEIGHT,
  onCellMouseDown,
  onCellContextMenu,
}: {
  table: GridTable
  rows: RowWindow
  viewportHeight: number
  gutterWidth: number
  active: Active
  cellId: (row: number, col: number) => string
  selection: Selection
  headerHeight?: number
  onCellMouseDown: (event: MouseEvent, row: number, col: number) => void
  onCellContextMenu: (event: MouseEvent, row: number, col: number) => void
}) {
  // No window holds more rows than this (a partly visible row at each end), so slots never collide.
  const rowSlots = Math.ceil(viewportHeight / ROW_HEIGHT) + 1
  return (
    <div role="rowgroup" className="grid-body" style={{ height: viewportHeight, top: headerHeight }}>
      {/* Rows are keyed by slot (index modulo the most rows a window holds), not by index: a jump reuses
          the window's row elements and updates them instead of unmounting and mounting every row and
          cell, twice (placeholders, then the rows); a one-row scroll still keeps every row that stays. */}
      {table.getRowModel().rows.map((row) => {
        const index = row.original.index
        const top = rows.firstTop + (index - rows.first) * ROW_HEIGHT
        const loaded = row.original.page !== null
        return (
          <div
            key={index % rowSlots}
            role="row"
            aria-rowindex={index + 2}
            aria-busy={!loaded || undefined}
            className={`grid-row${index % 2 === 1 ? ' odd' : ''}${active?.row === index ? ' active-row' : ''}`}
            style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
          >
            <div role="rowheader" aria-colindex={1} className="grid-gutter" style={{ width: gutterWidth }} onMouseDown={(event) => selection.onRowHeaderMouseDown(event, index)}>
              {formatCount(index + 1)}
            </div>
            {row.getVisibleCells().map((cell, col) => {
              const isActive = active?.row === index && active.col === col
              const isSelected = isActive || selection.isSelected(index, col)
              return (
                <div
                  key={cell.column.id}
                  id={cellId(index, col)}
                  role="gridcell"
                  aria-colindex={col + 2}
                  aria-selected={isSelected}
                  className={`grid-cell${isActive ? ' active' : ''}${isSelected ? ' selected' : ''}`}
                  style={{ width: cell.column.getSize() }}
                  onMouseDown={(event) => onCellMouseDown(event, index, col)}
                  onDoubleClick={selection.onCellDoubleClick}
                  onContextMenu={(event) => onCellContextMenu(event, index, col)}
                >
                  <table.FlexRender cell={cell} />
                </div>
              )
            })}
          </div>
        )
      })}
    </div>
  )
}
