import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { UMAP_SAMPLE, type FieldInfo, type MapMethod, type MapSummary, type TableRef } from '../../../contract'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { PanelHeader } from '../../components/PanelHeader'
import { Spinner } from '../../components/Spinner'
import { ScanProgress } from '../jobs'
import { formatCount, formatPercent } from '../../lib/format'
import { PLAIN, type Legend, type NumberScale } from './colours'
import type { Points } from './points'
import { makeDrawer, type Drawer, type DrawerKind } from './drawer'
import { paintOverlay, similarOnMap } from './overlay'
import { mapPhaseText } from './phase'
import { useColourBy } from './useColourBy'
import { useMapPointer, type Hover } from './useMapPointer'
import type { View } from './view'
import { useMap } from './useMap'
import './map.css'

const POINT_SIZE = 3

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
    <section className="map-panel side-panel" aria-label="Embedding map">
      <PanelHeader
        title="Map"
        metaTestId="map-meta"
        meta={summary && `${column} · version ${summary.version} · ${formatCount(summary.rows)} points · ${methodLabel(summary)}${job?.cached ? ' · kept' : ''}`}
        onClose={onClose}
      >
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
      </PanelHeader>
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
        : summary.explained[0] === 0
          ? // No variance in the sample (one row, or every vector the same): nothing for an axis to explain.
            `PCA of ${summary.dimension}-d vectors: the sampled vectors are all the same, so every row is drawn at one point.`
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

/** The canvases (points under, marks over: overlay.ts), their tools and notes; the pointer is useMapPointer's, the colours useColourBy's. */
function MapCanvas({ tableRef, summary, points, fields, gridNarrowed, onSelectRow, onLasso }: CanvasProps) {
  const host = useRef<HTMLDivElement>(null)
  const pointsCanvas = useRef<HTMLCanvasElement>(null)
  const overlay = useRef<HTMLCanvasElement>(null)
  const scatter = useRef<Drawer | null>(null)
  const view = useRef<View | null>(null)
  const path = useRef<[number, number][] | null>(null)
  const size = useBoxSize(host)
  const [drawError, setDrawError] = useState<string | null>(null)
  // Which drawer the canvas got (drawer.ts): shown as its data-drawer attribute, for tests and the curious.
  const [drawer, setDrawer] = useState<DrawerKind | null>(null)
  const [lasso, setLasso] = useState(false)
  const [hover, setHover] = useState<Hover | null>(null)
  const [selected, setSelected] = useState<number | null>(null)
  const [neighbours, setNeighbours] = useState<{ point: number; at: [number, number][] } | null>(null)
  const [similarError, setSimilarError] = useState<string | null>(null)
  const [lassoError, setLassoError] = useState<string | null>(null)
  const colours = useColourBy(tableRef, summary.version, points)
  const { colourColumn, coloured } = colours

  const drawOverlay = useCallback(() => {
    if (overlay.current && view.current) paintOverlay(overlay.current, view.current, points, { neighbours, selected, hovered: hover?.point ?? null, path: path.current })
  }, [points, neighbours, selected, hover])

  const draw = useCallback(() => {
    if (scatter.current && view.current) scatter.current.draw(view.current, POINT_SIZE)
    drawOverlay()
  }, [drawOverlay])

  // Size the canvases, make the scatter once, fit the view once.
  useEffect(() => {
    const ratio = window.devicePixelRatio || 1
    if (!pointsCanvas.current || !overlay.current || size.width === 0) return
    for (const canvas of [pointsCanvas.current, overlay.current]) sizeCanvas(canvas, size, ratio)
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

  const pointer = useMapPointer({
    tableRef,
    version: summary.version,
    fields,
    points,
    overlayRef: overlay,
    viewRef: view,
    pathRef: path,
    lasso,
    hover,
    setHover,
    draw,
    drawOverlay,
    onPick: (point) => {
      setSelected(point < 0 ? null : point)
      setNeighbours(null)
      setSimilarError(null)
      if (point >= 0 && !gridNarrowed) onSelectRow(points.rows[point]!)
    },
    onLassoPoints: (chosen) => {
      // Any number of rows: core keeps them as a row set the grid's view names (no filter to outgrow).
      setLassoError(null)
      onLasso(chosen.map((i) => points.rows[i]!)).catch((error: unknown) => setLassoError(`The lasso could not filter the grid: ${errorData(error).message}`))
    },
  })

  const findSimilar = async () => {
    if (selected === null) return
    setSimilarError(null)
    try {
      const at = await similarOnMap(tableRef, summary, points.rows[selected]!)
      if (at) setNeighbours({ point: selected, at })
    } catch (error) {
      setSimilarError(errorData(error).message)
    }
  }

  const fit = () => {
    view.current = points.fit(size.width, size.height)
    draw()
  }

  return (
    <div className="map-body">
      <MapTools fields={fields} colours={colours} lasso={lasso} onLasso={() => setLasso(!lasso)} canFindSimilar={selected !== null && !!summary.projection} projected={!!summary.projection} onFindSimilar={() => void findSimilar()} onFit={fit} />
      {colours.legend && <MapLegend legend={colours.legend} />}
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
        <canvas ref={overlay} className={lasso ? 'map-overlay lasso' : 'map-overlay'} data-testid="map-overlay" {...pointer} />
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

/** The canvas's pixels for a box of `size` CSS pixels; its CSS size too: the box may change before this size does (a drag: useBoxSize). */
function sizeCanvas(canvas: HTMLCanvasElement, size: { width: number; height: number }, ratio: number): void {
  canvas.width = Math.round(size.width * ratio)
  canvas.height = Math.round(size.height * ratio)
  canvas.style.width = `${size.width}px`
  canvas.style.height = `${size.height}px`
}

/**
 * A size change that comes within this long of the one before is part of a drag (a dock's separator, a window
 * edge): the map waits until the box has kept its size this long. Redrawing 1M points costs 9–20 ms of CPU
 * (density image, drawer.ts), more than a frame, so redrawing on every step of a drag dropped frames.
 */
const SETTLE_MS = 150

/**
 * The element's box in CSS pixels, following it as it resizes: a lone change at once, the steps of a drag once the
 * drag stops ({@link SETTLE_MS}). Meanwhile the canvases keep their size and image (sized in pixels, not
 * stretched: a point stays under the pointer), cropped or short of the box's edge.
 */
function useBoxSize(host: RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 })
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
    let last = Number.NEGATIVE_INFINITY
    let settle: ReturnType<typeof setTimeout> | undefined
    const observer = new ResizeObserver(() => {
      const now = performance.now()
      const dragging = now - last < SETTLE_MS
      last = now
      clearTimeout(settle)
      if (dragging) settle = setTimeout(measure, SETTLE_MS)
      else measure()
    })
    observer.observe(element)
    measure()
    return () => {
      observer.disconnect()
      clearTimeout(settle)
    }
  }, [host])
  return size
}

interface ToolsProps {
  fields: FieldInfo[]
  colours: ReturnType<typeof useColourBy>
  lasso: boolean
  onLasso(): void
  canFindSimilar: boolean
  /** The map is a linear projection (PCA): lines to similar rows can be drawn on it. */
  projected: boolean
  onFindSimilar(): void
  onFit(): void
}

function MapTools({ fields, colours, lasso, onLasso, canFindSimilar, projected, onFindSimilar, onFit }: ToolsProps) {
  const colourable = fields.filter((f) => f.vectorDimension === undefined && /^(Int|Uint|Float|Decimal|Utf8|LargeUtf8|Bool|Date|Timestamp)/.test(f.type))
  return (
    <div className="map-tools">
      <button type="button" className="button small" aria-pressed={lasso} onClick={onLasso} title="Draw around points to filter the grid to their rows">
        Lasso
      </button>
      <label>
        Colour by{' '}
        <select
          aria-label="Colour by"
          value={colours.colourColumn}
          onChange={(e) => {
            colours.setColourColumn(e.target.value)
          }}
        >
          <option value="">(none)</option>
          {colourable.map((f) => (
            <option key={f.name}>{f.name}</option>
          ))}
        </select>
      </label>
      {colours.scaledColumn && (
        <label title="Quantiles: each colour holds about as many points (a skewed column still shows its order). Linear: colour by position between the minimum and the maximum (for when the distances between values matter).">
          Scale{' '}
          <select aria-label="Colour scale" value={colours.scale} onChange={(e) => colours.setScale(e.target.value as NumberScale)}>
            <option value="quantiles">Quantiles</option>
            <option value="linear">Linear</option>
          </select>
        </label>
      )}
      {colours.colouring && <Spinner label="Reading colours" />}
      <button
        type="button"
        className="button small"
        disabled={!canFindSimilar}
        title={projected ? undefined : 'A UMAP map is no linear map of the vectors: lines to similar rows are drawn on a PCA map'}
        onClick={onFindSimilar}
      >
        Find similar rows
      </button>
      <button type="button" className="button small" onClick={onFit}>
        Fit
      </button>
    </div>
  )
}

function MapLegend({ legend }: { legend: Legend }) {
  return (
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
  )
}
