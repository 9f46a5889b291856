import { useEffect } from 'react'
import type { FieldInfo, TableRef, TableViewSpec } from '../../../../contract'
import { ErrorPanel } from '../../../components/ErrorPanel'
import type { InspectionStore } from '../../../components/dock/inspection'
import { PAGE_ROWS } from '../usePages'
import { GalleryBar } from './GalleryBar'
import { GalleryRow } from './GalleryRow'
import { CELL_HEIGHT, useGalleryView, type GalleryViewOptions } from './useGalleryView'
import type { GalleryState } from './useGallery'
import './gallery.css'

/** The toolbar's **Gallery** toggle: only for a table whose binary columns hold images. */
export function GalleryButton({ gallery, disabled }: { gallery: GalleryState; disabled?: boolean }) {
  if (gallery.columns.length === 0) return null
  return (
    <button type="button" className="button" aria-pressed={gallery.open} disabled={disabled} onClick={() => gallery.setOpen(!gallery.open)} title="Show the images as thumbnails">
      Gallery
    </button>
  )
}

/**
 * The gallery: every row of the view (its filter, sort and search) as a thumbnail of one image column, in a
 * virtualized grid read through the grid's pages (the same view, projected to that column). ARIA grid: each cell
 * holds an `img` named by its row number; arrows move, Enter opens the row in the cell inspector (the table view's
 * right dock, through `inspect`), Escape leaves.
 */
export function Gallery({ tableRef, rowCount, fields, view, viewKey = '', columns, onStatus, onClose, inspect: inspection }: Omit<GalleryViewOptions, 'viewKey'> & { tableRef: TableRef; fields: readonly FieldInfo[]; view?: TableViewSpec; viewKey?: string; inspect: InspectionStore }) {
  const { column, setPicked, key, viewport, gridRows, slots, cellWidth, first, end, pages, decoder, active, inspecting, cellId, scrollRef, onScroll, onKeyDown, activate, inspect, closeInspector } = useGalleryView({
    tableRef,
    rowCount,
    view,
    viewKey,
    columns,
    onStatus,
    onClose,
  })
  const { g, rows: shown, perRow: cols } = viewport
  const field = fields.find((f) => f.name === column)
  const activePage = active !== null ? pages.pageOf(active) : undefined
  const inspected = inspecting && active !== null ? { row: active, column, typeLabel: field?.type ?? '', vector: activePage?.getChild(column) ?? undefined, pageRow: active % PAGE_ROWS } : null
  useEffect(() => inspection.report(inspected && { cell: inspected, close: closeInspector }))
  useEffect(() => () => inspection.report(null), [inspection])

  return (
    <div className="gallery-view">
      <GalleryBar columns={columns} column={column} rowCount={rowCount} onPick={setPicked} />
      <div className="grid-frame gallery-frame">
        <div
          ref={scrollRef}
          className="grid-scroll gallery-scroll"
          role="grid"
          aria-label={`Gallery of ${column}`}
          aria-rowcount={g.rowCount}
          aria-colcount={cols}
          aria-busy={pages.loading || undefined}
          aria-activedescendant={active !== null && active >= first && active < end ? cellId(active) : undefined}
          tabIndex={0}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
          data-row-count={rowCount}
        >
          <div className="gallery-sizer" style={{ height: g.scrollHeight }}>
            <div className="gallery-body" style={{ height: g.viewportHeight }}>
              {gridRows.map((gridRow) => (
                <GalleryRow
                  key={gridRow % slots}
                  gridRow={gridRow}
                  cols={cols}
                  rowCount={rowCount}
                  style={{ transform: `translateY(${shown.firstTop + (gridRow - shown.first) * CELL_HEIGHT}px)`, height: CELL_HEIGHT }}
                  cellWidth={cellWidth}
                  active={active}
                  column={column}
                  decoder={decoder}
                  decoderKey={key}
                  pageOf={pages.pageOf}
                  cellId={cellId}
                  onActivate={activate}
                  onInspect={inspect}
                />
              ))}
            </div>
          </div>
        </div>
        {pages.error && (
          <div className="grid-error">
            <ErrorPanel error={pages.error} title="Could not read these rows" actions={[{ label: 'Retry', run: pages.retry }]} compact />
          </div>
        )}
        {rowCount === 0 && <div className="grid-empty">No rows to show</div>}
      </div>
    </div>
  )
}
