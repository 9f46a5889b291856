import type { Table as ArrowTable } from 'apache-arrow'
import type { CSSProperties } from 'react'
import type { ThumbnailDecoder } from './decode'
import { Thumb } from './Thumb'

const numberFormat = new Intl.NumberFormat('en-US')

/** One row of thumbnails (an ARIA row of gridcells): rows `gridRow × cols` on, each with its row number below. */
export function GalleryRow(props: {
  gridRow: number
  cols: number
  rowCount: number
  style: CSSProperties
  cellWidth: number
  active: number | null
  column: string
  decoder: ThumbnailDecoder
  decoderKey: string
  pageOf(row: number): ArrowTable | undefined
  cellId(row: number): string
  onActivate(row: number): void
  onInspect(row: number): void
}) {
  const { gridRow, cols, rowCount, active } = props
  return (
    <div role="row" aria-rowindex={gridRow + 1} className="gallery-row" style={props.style}>
      {Array.from({ length: cols }, (_, c) => gridRow * cols + c)
        .filter((row) => row < rowCount)
        .map((row, c) => (
          <div
            key={c}
            id={props.cellId(row)}
            role="gridcell"
            aria-colindex={c + 1}
            aria-selected={active === row}
            className={`gallery-cell${active === row ? ' active' : ''}`}
            style={{ width: props.cellWidth }}
            onMouseDown={() => props.onActivate(row)}
            onClick={() => props.onInspect(row)}
          >
            <Thumb row={row} page={props.pageOf(row)} column={props.column} decoder={props.decoder} decoderKey={props.decoderKey} />
            <div className="gallery-caption" aria-hidden="true">
              {numberFormat.format(row + 1)}
            </div>
          </div>
        ))}
    </div>
  )
}
