import { useCallback, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react'
import type { DataType, Table, Vector } from 'apache-arrow'
import { cellValue, UMAP_SAMPLE, type FieldInfo, type MapMethod, type MapSummary, type TableRef } from '../../../contract'
import { readPage } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { ScanProgress } from '../jobs'
import { formatCount, formatPercent } from '../../lib/format'
import { formatCell } from '../../lib/formatCell'
import { colourBy, isScaled, PLAIN, type Legend, type NumberScale } from './colours'
import type { Points } from './points'
import { makeDrawer, type Drawer, type DrawerKind } from './drawer'
import { mapPhaseText } from './phase'
import type { View } from './view'
import { useMap } from './useMap'
import './map.css'

/** Neighbours **Find similar rows** draws lines to. */
const NEIGHBOURS = 10
/** Rows read per request when colouring by a column. */
const COLOUR_PAGE = 10_000
const POINT_SIZE = 3
/** How near (CSS pixels) the pointer must be to a point to hover or pick it. */
const PICK_RADIUS = 6

interface Props {
  tableRef: TableRef
  version: number
  fields: FieldInfo[]
  /** The grid shows a filter, sort or search: a row's place there is not its offset, so a click cannot select it. */
  gridNarrowed: boolean
  onSelectRow(row: number): void
  /** Narrow the grid to these rows (offsets in the table), a row set kept by core; rejects with the reason. */
  onLasso(rows: number[]): Promise<void>
  onClose(): void
}

/**
 * The embedding map of a vector column: every placed row as a point (GL points where WebGL runs on a GPU, else a
 * density image made per frame, so 1M points pan and zoom in milliseconds either way: drawer.ts), pan by dragging, zoom with the wheel;
 * hover shows the row, a click selects it in the grid and offers **Find similar rows** (lines to its nearest
 * neighbours by Lance's vector search), the **Lasso** filters the grid to the rows it encloses.
 */
export function MapPanel({ tableRef, version, fields, gridNarrowed, onSelectRow, onLasso, onClose }: Props) {
  const vectors = fields.filter((f) => f.vectorDimension !== undefined)
  const [column, setColumn] = useState(vectors[0]?.name ?? '')
  const [method, setMethod] = useState<MapMethod>('pca')
  const [sample, setSample] = useState<number>(UMAP_SAMPLE.default)
  const { job, error, points, cancel, retry } = useMap(tableRef, version, column, method, sample)
  const summary = job?.state === 'done' ? job.result : null
  return (
    <section className="map-panel" aria-label="Embedding map">
      <div className="panel-header">
        <span className="panel-title">Map</span>
        {vectors.length > 1 && (
          <select aria-label="Vector column" value={column} onChange={(e) => setColumn(e.target.value)}>
            {vectors.map((f) => (
              <option key={f.name}>{f.name}</option>
            ))}
          </select>
        )}
        <select aria-label="Map method" value={method} onChange={(e) => setMethod(e.target.value as MapMethod)}>
          <option value="pca">PCA</option>
          <option value="umap">UMAP</option>
        </select>
        {method === 'umap' && <SampleField value={sample} onChange={setSample} />}
        <span className="panel-meta" data-testid="map-meta">
          {summary && `${column} · version ${summary.version} · ${formatCount(summary.rows)} points · ${methodLabel(summary)}${job?.cached ? ' · kept' : ''}`}
        </span>
        <button type="button" className="icon-button" aria-label="Close map" title="Close map" onClick={onClose}>
          ×
        </button>
      </div>
      {!error && <ScanProgress job={job} label="Map progress" verb="Placing" text={mapPhaseText(job?.progress.phase)} className="map-progress" onCancel={cancel} onRetry={retry} />}
      {error && <ErrorPanel error={error} title="Could not make the map" actions={[{ label: 'Try again', run: retry }]} />}
      {job?.state === 'failed' && job.error && <ErrorPanel error={job.error} title="Could not make the map" actions={[{ label: 'Try again', run: retry }]} />}
      {summary && <SkippedNote summary={summary} />}
      {summary && points && <MapCanvas key={job!.id} tableRef={tableRef} summary={summary} points={points} fields={fields} gridNarrowed={gridNarrowed} onSelectRow={onSelectRow} onLasso={onLasso} />}
    </section>
  )
}

/** Which method made the map, and on how many rows (PCA: the components' sample; UMAP: the laid-out sample). */
function methodLabel(summary: MapSummary): string {
  return summary.method === 'umap' ? `UMAP of a ${formatCount(summary.sample)}-row sample` : 'PCA'
}

/**
 * The UMAP sample size: typed freely, used once the user leaves the field or presses Enter, and only when it is
 * within bounds (a size passed through while typing would start a job for nothing); else it says what it takes.
 */
function SampleField({ value, onChange }: { value: number; onChange(n: number): void }) {
  const [text, setText] = useState(String(value))
  const parsed = Number(text.replace(/[,\s_]/g, ''))
  const valid = Number.isInteger(parsed) && parsed >= UMAP_SAMPLE.min && parsed <= UMAP_SAMPLE.max
  const commit = () => {
    if (valid && parsed !== value) onChange(parsed)
  }
  return (
    <label className="map-sample">
      Sample{' '}
      <input
        aria-label="UMAP sample rows"
        inputMode="numeric"
        size={7}
        value={text}
        aria-invalid={!valid}
        title={`Rows UMAP lays out (${formatCount(UMAP_SAMPLE.min)} to ${formatCount(UMAP_SAMPLE.max)}); the rest are placed by their nearest sample rows`}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      {!valid && (
        <span role="alert" className="map-sample-error">
          {formatCount(UMAP_SAMPLE.min)} to {formatCount(UMAP_SAMPLE.max)} rows
        </span>
      )}
    </label>
  )
}

function SkippedNote({ summary }: { summary: MapSummary }) {
  const { nan, nulls, wrongDimension } = summary.skipped
  const parts = [nan && `${formatCount(nan)} with NaN`, nulls && `${formatCount(nulls)} null`, wrongDimension && `${formatCount(wrongDimension)} not ${summary.dimension} long`].filter(Boolean)
  return (
    <div className="map-note" data-testid="map-note">
      {summary.method === 'umap'
        ? `UMAP of ${formatCount(summary.sample)} sample rows of ${summary.dimension}-d vectors; every other row placed at the weighted mean of its nearest sample rows (found in a 16-d PCA).`
        : `PCA of ${summary.dimension}-d vectors: axes explain ${formatPercent(summary.explained[0])} and ${formatPercent(summary.explained[1])}.`}
      {parts.length > 0 && ` Left off: ${parts.join(', ')}.`}
    </div>
  )
}

interface CanvasProps {
  tableRef: TableRef
  summary: MapSummary
  points: Points
  fields: FieldInfo[]
  gridNarrowed: boolean
  onSelectRow(row: number): void
  onLasso(rows: number[]): Promise<void>
}

function MapCanvas({ tableRef, summary, points, fields, gridNarrowed, onSelectRow, onLasso }: CanvasProps) {
  const host = useRef<HTMLDivElement>(null)
  const pointsCanvas = useRef<HTMLCanvasElement>(null)
  const overlay = useRef<HTMLCanvasElement>(null)
  const scatter = useRef<Drawer | null>(null)
  const view = useRef<View | null>(null)
  const [size, setSize] = useState({ width: 0, height: 0 })
  const [drawError, setDrawError] = useState<string | null>(null)
  // Which drawer the canvas got (drawer.ts): shown as its data-drawer attribute, for tests and the curious.
  const [drawer, setDrawer] = useState<DrawerKind | null>(null)
  const [lasso, setLasso] = useState(false)
  const [hover, setHover] = useState<{ point: number; x: number; y: number; text: string[] } | null>(null)
  const [selected, setSelected] = useState<number | null>(null)
  const [neighbours, setNeighbours] = useState<{ point: number; at: [number, number][] } | null>(null)
  const [similarError, setSimilarError] = useState<string | null>(null)
  const [lassoError, setLassoError] = useState<string | null>(null)
  const [colourColumn, setColourColumn] = useState('')
  const [scale, setScale] = useState<NumberScale>('quantiles')
  // The values of the column last read (kept, so a change of scale colours again without reading again).
  const [read, setRead] = useState<{ column: string; values: Vector | null } | null>(null)
  // The scale's choice is offered once the column is read and known to be coloured on a scale.
  const scaledColumn = read?.column === colourColumn && read.values !== null && isScaled(read.values.type as DataType)
  // The points' colours: found once per column and scale (colours.ts), then drawn frame after frame.
  const coloured = useMemo(
    () => (colourColumn && read?.column === colourColumn && read.values ? colourBy(read.values, points.rows, scaledColumn ? scale : 'quantiles') : null),
    [colourColumn, read, points, scaledColumn, scale],
  )
  const colouring = colourColumn !== '' && read?.column !== colourColumn
  const legend: Legend | null = coloured?.legend ?? null
  const path = useRef<[number, number][] | null>(null)
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null)
  const vectorColumn = summary.column
  const version = summary.version

  // The canvas follows its box.
  useEffect(() => {
    const element = host.current
    if (!element) return
    // Only a real change of size sets state: the observer's first call repeats the size set here, and a new
    // object would resize the canvases (clearing them) and draw every point a second time before the first
    // frame is shown.
    const measure = () => {
      const width = element.clientWidth
      const height = element.clientHeight
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }))
    }
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    measure()
    return () => observer.disconnect()
  }, [])

  const drawOverlay = useCallback(() => {
    const canvas = overlay.current
    const v = view.current
    if (!canvas || !v) return
    const ctx = canvas.getContext('2d')!
    const ratio = window.devicePixelRatio || 1
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0)
    ctx.clearRect(0, 0, canvas.width, canvas.height)
    const toScreen = (x: number, y: number): [number, number] => [canvas.width / ratio / 2 + (x - v.cx) * v.scale, canvas.height / ratio / 2 - (y - v.cy) * v.scale]
    if (neighbours) {
      const [sx, sy] = toScreen(points.x[neighbours.point]!, points.y[neighbours.point]!)
      ctx.strokeStyle = 'rgba(220, 38, 38, 0.8)'
      ctx.lineWidth = 1.5
      for (const [x, y] of neighbours.at) {
        const [tx, ty] = toScreen(x, y)
        ctx.beginPath()
        ctx.moveTo(sx, sy)
        ctx.lineTo(tx, ty)
        ctx.stroke()
      }
    }
    for (const [point, colour] of [
      [selected, 'rgb(220, 38, 38)'],
      [hover?.point ?? null, 'rgb(17, 24, 39)'],
    ] as const) {
      if (point === null) continue
      const [x, y] = toScreen(points.x[point]!, points.y[point]!)
      ctx.strokeStyle = colour
      ctx.lineWidth = 2
      ctx.beginPath()
      ctx.arc(x, y, 6, 0, Math.PI * 2)
      ctx.stroke()
    }
    if (path.current && path.current.length > 1) {
      ctx.strokeStyle = 'rgb(37, 99, 235)'
      ctx.setLineDash([4, 3])
      ctx.beginPath()
      path.current.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)))
      ctx.closePath()
      ctx.stroke()
      ctx.setLineDash([])
    }
  }, [points, neighbours, selected, hover])

  const draw = useCallback(() => {
    if (scatter.current && view.current) scatter.current.draw(view.current, POINT_SIZE)
    drawOverlay()
  }, [drawOverlay])

  // Size the canvases, make the scatter once, fit the view once.
  useEffect(() => {
    const ratio = window.devicePixelRatio || 1
    if (!pointsCanvas.current || !overlay.current || size.width === 0) return
    for (const canvas of [pointsCanvas.current, overlay.current]) {
      canvas.width = Math.round(size.width * ratio)
      canvas.height = Math.round(size.height * ratio)
    }
    const first = !scatter.current
    if (!scatter.current) {
      try {
        performance.mark('map:canvas')
        const made = makeDrawer(pointsCanvas.current)
        scatter.current = made.drawer
        // Whether the canvas can be drawn on, and how, is known only once it exists.
        setDrawer(made.kind)
        performance.mark('map:program')
        scatter.current.setPoints(points.x, points.y, PLAIN)
        performance.mark('map:uploaded')
      } catch (e) {
        setDrawError(e instanceof Error ? e.message : String(e))
        return
      }
    }
    if (!view.current) view.current = points.fit(size.width, size.height)
    draw()
    // The map bench splits the first paint by these marks (tests/bench/map.ts); a mark costs next to nothing.
    if (first) performance.mark('map:drawn')
    // The hover grid is built once the first frame is out, when the window is idle.
    const idle = requestIdleCallback(() => points.index())
    return () => cancelIdleCallback(idle)
  }, [size, points, draw])

  useEffect(() => () => scatter.current?.dispose(), [])
  useEffect(() => drawOverlay(), [drawOverlay])

  // Colour by a column: its values read page by page at the map's version, in row order, once per column.
  useEffect(() => {
    if (!colourColumn) return
    const abort = new AbortController()
    void (async () => {
      const total = points.count ? Math.max(...sample(points.rows)) + 1 : 0
      const parts: Table[] = []
      for (let offset = 0; offset < total; offset += COLOUR_PAGE) parts.push(await readPage(tableRef, offset, Math.min(COLOUR_PAGE, total - offset), abort.signal, { version, columns: [colourColumn] }))
      if (abort.signal.aborted) return
      setRead({ column: colourColumn, values: parts.map((p) => p.getChild(colourColumn)!).reduce((a, b) => a.concat(b) as Vector) })
    })().catch(() => {
      if (!abort.signal.aborted) setRead({ column: colourColumn, values: null })
    })
    return () => abort.abort()
  }, [colourColumn, points, tableRef, version])

  // The drawer takes the colours (or plain) when they change; until a new column is read, the old colours stay.
  useEffect(() => {
    if (!scatter.current) return
    if (!colourColumn) scatter.current.setPlain(PLAIN)
    else if (coloured) scatter.current.setColours(coloured.colours)
    else return
    draw()
    // `draw` changes with the overlay; this depends only on the colours.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [coloured, colourColumn])

  const toData = (event: { clientX: number; clientY: number }): [number, number, number, number] => {
    const rect = overlay.current!.getBoundingClientRect()
    const v = view.current!
    const sx = event.clientX - rect.left
    const sy = event.clientY - rect.top
    return [v.cx + (sx - rect.width / 2) / v.scale, v.cy - (sy - rect.height / 2) / v.scale, sx, sy]
  }

  const showHover = (point: number, sx: number, sy: number) => {
    if (hover?.point === point) return
    setHover({ point, x: sx, y: sy, text: [`Row ${formatCount(points.rows[point]! + 1)}`] })
    const shown = fields.filter((f) => f.vectorDimension === undefined).slice(0, 6)
    if (shown.length === 0) return
    void readPage(tableRef, points.rows[point]!, 1, undefined, { version, columns: shown.map((f) => f.name) })
      .then((table) => {
        // Each value as the grid shows it (formatCell): a timestamp as its ISO text, a float32 at its own digits.
        const text = shown.map((f) => {
          const column = table.getChild(f.name)
          return `${f.name}: ${column ? clipText(formatCell(cellValue(column, 0), column.type as DataType).text) : ''}`
        })
        setHover((h) => (h && h.point === point ? { ...h, text: [h.text[0]!, ...text] } : h))
      })
      .catch(() => undefined)
  }

  const onPointerDown = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId)
    drag.current = { x: event.clientX, y: event.clientY, moved: false }
    if (lasso) {
      const [, , sx, sy] = toData(event)
      path.current = [[sx, sy]]
    }
  }

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const v = view.current
    if (!v) return
    const d = drag.current
    if (d) {
      if (Math.abs(event.clientX - d.x) + Math.abs(event.clientY - d.y) > 3) d.moved = true
      if (lasso && path.current) {
        const [, , sx, sy] = toData(event)
        path.current.push([sx, sy])
        drawOverlay()
      } else if (d.moved) {
        v.cx -= (event.clientX - d.x) / v.scale
        v.cy += (event.clientY - d.y) / v.scale
        d.x = event.clientX
        d.y = event.clientY
        draw()
      }
      return
    }
    const [x, y, sx, sy] = toData(event)
    const point = points.nearest(x, y, PICK_RADIUS / v.scale)
    if (point < 0) setHover(null)
    else showHover(point, sx, sy)
  }

  const onPointerUp = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const d = drag.current
    drag.current = null
    const v = view.current
    if (!v || !d) return
    if (lasso && path.current) {
      const rect = overlay.current!.getBoundingClientRect()
      const polygon = path.current.map(([sx, sy]) => [v.cx + (sx - rect.width / 2) / v.scale, v.cy - (sy - rect.height / 2) / v.scale] as [number, number])
      path.current = null
      drawOverlay()
      const chosen = points.inside(polygon)
      if (chosen.length === 0) return
      // Any number of rows: core keeps them as a row set the grid's view names (no filter to outgrow).
      setLassoError(null)
      onLasso(chosen.map((i) => points.rows[i]!)).catch((error: unknown) => setLassoError(`The lasso could not filter the grid: ${errorData(error).message}`))
      return
    }
    if (d.moved) return
    const [x, y] = toData(event)
    const point = points.nearest(x, y, PICK_RADIUS / v.scale)
    setSelected(point < 0 ? null : point)
    setNeighbours(null)
    setSimilarError(null)
    if (point >= 0 && !gridNarrowed) onSelectRow(points.rows[point]!)
  }

  const onWheel = (event: React.WheelEvent<HTMLCanvasElement>) => {
    const v = view.current
    if (!v) return
    const [x, y] = toData(event)
    const factor = Math.exp(-event.deltaY * 0.0015)
    // Zoom about the pointer: the data point under it stays under it.
    v.cx = x - (x - v.cx) / factor
    v.cy = y - (y - v.cy) / factor
    v.scale *= factor
    draw()
  }

  const findSimilar = async () => {
    if (selected === null) return
    setSimilarError(null)
    try {
      const own = await readPage(tableRef, points.rows[selected]!, 1, undefined, { version, columns: [vectorColumn] })
      const vector = Array.from((own.getChild(vectorColumn)!.get(0) as Vector).toArray() as ArrayLike<number>, Number)
      const found = await readPage(tableRef, 0, NEIGHBOURS + 1, undefined, { version, columns: [vectorColumn], search: { kind: 'vector', column: vectorColumn, vector, metric: 'l2', prefilter: true, k: NEIGHBOURS + 1 } })
      const column = found.getChild(vectorColumn)!
      const projection = summary.projection
      if (!projection) return
      const [a, b] = projection.axes
      const at: [number, number][] = []
      for (let i = 0; i < column.length; i++) {
        const v = (column.get(i) as Vector | null)?.toArray() as ArrayLike<number> | undefined
        if (!v) continue
        let x = 0
        let y = 0
        for (let k = 0; k < a.length; k++) {
          x += v[k]! * a[k]!
          y += v[k]! * b[k]!
        }
        at.push([x - projection.shift[0], y - projection.shift[1]])
      }
      // The row itself comes back first (distance 0); lines go to the others.
      setNeighbours({ point: selected, at: at.slice(1) })
    } catch (error) {
      setSimilarError(errorData(error).message)
    }
  }

  const colourable = fields.filter((f) => f.vectorDimension === undefined && /^(Int|Uint|Float|Decimal|Utf8|LargeUtf8|Bool|Date|Timestamp)/.test(f.type))
  return (
    <div className="map-body">
      <div className="map-tools">
        <button type="button" className="button small" aria-pressed={lasso} onClick={() => setLasso(!lasso)} title="Draw around points to filter the grid to their rows">
          Lasso
        </button>
        <label>
          Colour by{' '}
          <select
            aria-label="Colour by"
            value={colourColumn}
            onChange={(e) => {
              setColourColumn(e.target.value)
            }}
          >
            <option value="">(none)</option>
            {colourable.map((f) => (
              <option key={f.name}>{f.name}</option>
            ))}
          </select>
        </label>
        {scaledColumn && (
          <label title="Quantiles: each colour holds about as many points (a skewed column still shows its order). Linear: colour by position between the minimum and the maximum (for when the distances between values matter).">
            Scale{' '}
            <select aria-label="Colour scale" value={scale} onChange={(e) => setScale(e.target.value as NumberScale)}>
              <option value="quantiles">Quantiles</option>
              <option value="linear">Linear</option>
            </select>
          </label>
        )}
        {colouring && <Spinner label="Reading colours" />}
        <button
          type="button"
          className="button small"
          disabled={selected === null || !summary.projection}
          title={summary.projection ? undefined : 'A UMAP map is no linear map of the vectors: lines to similar rows are drawn on a PCA map'}
          onClick={() => void findSimilar()}
        >
          Find similar rows
        </button>
        <button type="button" className="button small" onClick={() => {
          view.current = points.fit(size.width, size.height)
          draw()
        }}>
          Fit
        </button>
      </div>
      {legend && (
        <div className="map-legend-box">
          <div className="map-legend-caption" data-testid="map-legend-caption">
            {legend.caption}
          </div>
          <ul className="map-legend" aria-label="Legend">
            {legend.entries.map((e) => (
              <li key={e.label} title={e.rows === undefined ? undefined : `${e.label}: ${formatCount(e.rows)} ${e.rows === 1 ? 'point' : 'points'}`}>
                <span className="map-swatch" style={{ background: e.colour }} data-colour={e.colour} />
                <span className="map-legend-label">{e.label}</span>
                {e.rows !== undefined && <span className="map-legend-rows"> · {formatCount(e.rows)}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {selected !== null && (
        <div className="map-note" role="status" aria-label="Selected point">
          Row {formatCount(points.rows[selected]! + 1)} selected{gridNarrowed ? ' (clear the grid’s filter, sort or search to show it there)' : ''}
          {neighbours && ` · lines to its ${neighbours.at.length} nearest rows`}
        </div>
      )}
      {similarError && <div className="map-note" role="alert">{similarError}</div>}
      {lassoError && (
        <div className="map-note" role="alert">
          {lassoError}
        </div>
      )}
      {drawError && <div role="alert">{drawError}</div>}
      <div className="map-canvas" ref={host}>
        <canvas ref={pointsCanvas} aria-hidden="true" data-testid="map-points" data-points={points.count} data-drawer={drawer ?? undefined} />
        <canvas
          ref={overlay}
          className={lasso ? 'map-overlay lasso' : 'map-overlay'}
          data-testid="map-overlay"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerLeave={() => !drag.current && setHover(null)}
          onWheel={onWheel}
        />
        {hover && (
          <div className="map-tooltip" role="tooltip" style={{ left: hover.x + 12, top: hover.y + 12 }}>
            {hover.text.map((t, i) => (
              <div key={i}>{t}</div>
            ))}
          </div>
        )}
      </div>
    </div>
  )
}

/** The largest of a few values spread over the array (the rows are in ascending order; the last is the largest). */
function sample(rows: Uint32Array): number[] {
  return rows.length ? [rows[rows.length - 1]!] : [0]
}

/** A tooltip line's value, cut to 60 characters. */
function clipText(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}
