import type { Table as ArrowTable } from 'apache-arrow'
import { useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { flushSync } from 'react-dom'
import type { FieldInfo, TableRef, TableViewSpec } from '../../../../contract'
import { ErrorPanel } from '../../../components/ErrorPanel'
import { CellInspector } from '../CellInspector'
import { offsetToReveal } from '../grid/geometry'
import { useViewport, useViewportScrolling, type ViewportLayout } from '../grid/viewport'
import { useEscapeLayer } from '../panelStack'
import { PAGE_ROWS, usePages } from '../usePages'
import { imageTypeOf } from './detect'
import { ThumbnailDecoder, type DecodeResult } from './decode'
import type { GalleryState } from './useGallery'
import './gallery.css'

/** A thumbnail cell: the image box and its caption. */
const CELL_WIDTH = 136
const CELL_HEIGHT = 156
const THUMB_SIZE = 120
/** Rows of thumbnails rendered (and decoded) beyond the visible ones, above and below. */
const OVERSCAN = 1
/** The grid's viewport, scrolling rows of thumbnails: as many a row as fit the width, no header above them. */
const GALLERY_LAYOUT: ViewportLayout = { rowHeight: CELL_HEIGHT, headerHeight: 0, perRow: (width) => Math.floor(width / CELL_WIDTH), lineHeight: 40 }
const numberFormat = new Intl.NumberFormat('en-US')

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
 * holds an `img` named by its row number; arrows move, Enter opens the row in the cell inspector, Escape leaves.
 */
export function Gallery({
  tableRef,
  rowCount,
  fields,
  view,
  viewKey = '',
  columns,
  onStatus,
  onClose,
}: {
  tableRef: TableRef
  rowCount: number
  fields: readonly FieldInfo[]
  view?: TableViewSpec
  viewKey?: string
  columns: string[]
  /** The status bar's report (rows on screen, the active row), as the grid gives it. */
  onStatus?: (status: { first: number; end: number; loading: boolean; active: { row: number; column: string } | null }) => void
  onClose(): void
}) {
  const [picked, setPicked] = useState(columns[0]!)
  const column = columns.includes(picked) ? picked : columns[0]!
  const gridId = useId()
  const key = `${viewKey}\u0000gallery:${column}`
  // Scroll offset, its scaling past the browser's tallest element, the size and the wheel: the grid's viewport.
  const viewport = useViewport(rowCount, key, GALLERY_LAYOUT)
  const { g, rows: window_, perRow: cols } = viewport
  const gridRows = g.rowCount
  const [activeState, setActiveState] = useState<{ key: string; row: number | null }>({ key, row: null })
  const active = activeState.key === key ? activeState.row : null
  const [inspectingState, setInspectingState] = useState<string | null>(null)
  const inspecting = inspectingState === key && active !== null

  const firstGridRow = Math.max(0, window_.first - OVERSCAN)
  const endGridRow = Math.min(gridRows, window_.end + OVERSCAN)
  const first = firstGridRow * cols
  const end = Math.min(rowCount, endGridRow * cols)
  // The grid's view, projected to the image column: the same rows in the same order, only the bytes shown.
  const projected = useMemo<TableViewSpec>(() => ({ ...view, columns: [column] }), [view, column])
  const pages = usePages(tableRef, rowCount, first, end, projected, key)

  // One decoder per column and view: a new view's thumbnails are other rows.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const decoder = useMemo(() => new ThumbnailDecoder(Math.round(THUMB_SIZE * (window.devicePixelRatio || 1))), [key])
  useEffect(() => () => decoder.dispose(), [decoder])

  // The rows of a new offset are asked for in the scroll event, with the overscan, as the grid does.
  const { prefetch } = pages
  const prefetchRows = useCallback(
    (firstRow: number, endRow: number) => prefetch(Math.max(0, firstRow - OVERSCAN) * cols, Math.min(rowCount, (endRow + OVERSCAN) * cols)),
    [prefetch, cols, rowCount],
  )
  const { scrollRef, offsetRef, scrollToOffset, onScroll } = useViewportScrolling(viewport, prefetchRows)

  const moveTo = (row: number) => {
    if (rowCount === 0) return
    const r = Math.min(Math.max(row, 0), rowCount - 1)
    setActiveState({ key, row: r })
    scrollToOffset(offsetToReveal(g, offsetRef.current, Math.floor(r / cols)))
  }

  const focusGallery = () => scrollRef.current?.focus({ preventScroll: true })
  // Opened: the arrows move between thumbnails at once.
  useEffect(() => scrollRef.current?.focus({ preventScroll: true }), [scrollRef])
  const inspectorLayer = useEscapeLayer(inspecting, () => {
    setInspectingState(null)
    focusGallery()
  })
  // Escape (with no inspector above it) leaves the gallery; the grid is shown again before the focus moves to it.
  useEscapeLayer(true, () => flushSync(onClose))

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = active ?? first
    const pageRows = Math.max(1, Math.floor(g.viewportHeight / CELL_HEIGHT))
    const ctrl = event.ctrlKey || event.metaKey
    const moves: Record<string, () => void> = {
      ArrowRight: () => moveTo(current + 1),
      ArrowLeft: () => moveTo(current - 1),
      ArrowDown: () => moveTo(current + cols),
      ArrowUp: () => moveTo(current - cols),
      PageDown: () => moveTo(current + pageRows * cols),
      PageUp: () => moveTo(current - pageRows * cols),
      Home: () => moveTo(ctrl ? 0 : current - (current % cols)),
      End: () => moveTo(ctrl ? rowCount - 1 : current - (current % cols) + cols - 1),
    }
    if ((event.key === 'Enter' || event.key === ' ') && active !== null) {
      event.preventDefault()
      setInspectingState(key)
      return
    }
    if (event.key === 'Escape' && inspecting && inspectorLayer.isTop()) return // the panel stack closes it
    const move = moves[event.key]
    if (move) {
      event.preventDefault()
      move()
    }
  }

  // The rows on screen (not the overscan) for the status bar.
  const shownFirst = Math.min(rowCount, window_.first * cols)
  const shownEnd = Math.min(rowCount, window_.end * cols)
  useEffect(() => {
    onStatus?.({ first: shownFirst, end: shownEnd, loading: pages.loading, active: active !== null ? { row: active, column } : null })
  })

  const cellId = (row: number) => `${gridId}-t${row}`
  const field = fields.find((f) => f.name === column)
  const activePage = active !== null ? pages.pageOf(active) : undefined
  const rows: number[] = []
  for (let r = firstGridRow; r < endGridRow; r += 1) rows.push(r)
  const slots = Math.ceil(g.viewportHeight / CELL_HEIGHT) + 1 + 2 * OVERSCAN
  const cellWidth = Math.floor(viewport.size.width / cols)

  return (
    <div className="gallery-view">
      <div className="gallery-bar">
        {columns.length > 1 ? (
          <label className="gallery-column">
            Column
            <select aria-label="Image column" value={column} onChange={(event) => setPicked(event.target.value)}>
              {columns.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span className="gallery-column">
            Column <strong>{column}</strong>
          </span>
        )}
        <span className="muted">
          {numberFormat.format(rowCount)} {rowCount === 1 ? 'row' : 'rows'} · Enter or a click opens a row · Esc returns to the table
        </span>
      </div>
      <div className="grid-frame gallery-frame">
        <div
          ref={scrollRef}
          className="grid-scroll gallery-scroll"
          role="grid"
          aria-label={`Gallery of ${column}`}
          aria-rowcount={gridRows}
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
              {rows.map((gridRow) => {
                const top = window_.firstTop + (gridRow - window_.first) * CELL_HEIGHT
                return (
                  <div key={gridRow % slots} role="row" aria-rowindex={gridRow + 1} className="gallery-row" style={{ transform: `translateY(${top}px)`, height: CELL_HEIGHT }}>
                    {Array.from({ length: cols }, (_, c) => gridRow * cols + c)
                      .filter((row) => row < rowCount)
                      .map((row, c) => (
                        <div
                          key={c}
                          id={cellId(row)}
                          role="gridcell"
                          aria-colindex={c + 1}
                          aria-selected={active === row}
                          className={`gallery-cell${active === row ? ' active' : ''}`}
                          style={{ width: cellWidth }}
                          onMouseDown={() => setActiveState({ key, row })}
                          onClick={() => {
                            setActiveState({ key, row })
                            setInspectingState(key)
                          }}
                        >
                          <Thumb row={row} page={pages.pageOf(row)} column={column} decoder={decoder} decoderKey={key} />
                          <div className="gallery-caption" aria-hidden="true">
                            {numberFormat.format(row + 1)}
                          </div>
                        </div>
                      ))}
                  </div>
                )
              })}
            </div>
          </div>
        </div>
        {pages.error && (
          <div className="grid-error">
            <ErrorPanel error={pages.error} title="Could not read these rows" actions={[{ label: 'Retry', run: pages.retry }]} compact />
          </div>
        )}
        {rowCount === 0 && <div className="grid-empty">No rows to show</div>}
        {inspecting && active !== null && (
          <CellInspector
            cell={{ row: active, column, typeLabel: field?.type ?? '', vector: activePage?.getChild(column) ?? undefined, pageRow: active % PAGE_ROWS }}
            onClose={() => {
              setInspectingState(null)
              focusGallery()
            }}
          />
        )}
      </div>
    </div>
  )
}

/** One thumbnail: the image drawn from its decoded bitmap, or a labelled placeholder (null, not an image). */
function Thumb({ row, page, column, decoder, decoderKey }: { row: number; page: ArrowTable | undefined; column: string; decoder: ThumbnailDecoder; decoderKey: string }) {
  const label = `Row ${numberFormat.format(row + 1)}`
  const vector = page?.getChild(column)
  const value: unknown = vector ? vector.get(row % PAGE_ROWS) : undefined
  const bytes = value instanceof Uint8Array ? value : null
  const type = bytes ? imageTypeOf(bytes) : null
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const thumbKey = `${decoderKey}\u0000${row}`
  const [result, setResult] = useState<{ key: string; state: 'ready' | 'unreadable' } | null>(null)
  const state = result?.key === thumbKey ? result.state : 'loading'

  // The bytes are read afresh (a new view of the page) on every render: the request follows the row, not them.
  const bytesRef = useRef(bytes)
  useEffect(() => {
    bytesRef.current = bytes
  })
  const loaded = bytes !== null
  useEffect(() => {
    const current = bytesRef.current
    if (!loaded || !current || !type) return
    // A slot reused for another row shows nothing until that row's thumbnail is drawn.
    if (canvasRef.current) canvasRef.current.width = canvasRef.current.height = 1
    return decoder.request(thumbKey, current, type, (decoded: DecodeResult) => {
      const canvas = canvasRef.current
      if (decoded === 'unreadable' || !canvas) {
        setResult({ key: thumbKey, state: 'unreadable' })
        return
      }
      canvas.width = decoded.width
      canvas.height = decoded.height
      canvas.getContext('2d')?.drawImage(decoded, 0, 0)
      setResult({ key: thumbKey, state: 'ready' })
    })
  }, [decoder, thumbKey, loaded, type])

  if (!vector) return <div className="gallery-thumb gallery-pending" aria-busy="true" aria-label={`${label}: loading`} role="img" />
  if (value === null || value === undefined) return <Placeholder label={label} text="null" kind="null" />
  if (!type) return <Placeholder label={label} text="not an image" kind="other" />
  if (state === 'unreadable') return <Placeholder label={label} text="unreadable image" kind="other" />
  return (
    <canvas
      ref={canvasRef}
      className="gallery-thumb"
      role="img"
      aria-label={label}
      data-state={state}
      data-type={type}
      width={1}
      height={1}
    />
  )
}

function Placeholder({ label, text, kind }: { label: string; text: string; kind: 'null' | 'other' }) {
  return (
    <div className={`gallery-thumb gallery-placeholder ${kind}`} role="img" aria-label={`${label}: ${text}`}>
      {text}
    </div>
  )
}
