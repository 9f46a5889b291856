import { useRef, type Dispatch, type MutableRefObject, type PointerEvent as ReactPointerEvent, type RefObject, type SetStateAction, type WheelEvent } from 'react'
import type { DataType } from 'apache-arrow'
import { cellValue, type FieldInfo, type TableRef } from '../../../contract'
import { readPage } from '../../api'
import { formatCount } from '../../lib/format'
import { formatCell } from '../../lib/formatCell'
import type { Points } from './points'
import type { View } from './view'

/** How near (CSS pixels) the pointer must be to a point to hover or pick it. */
const PICK_RADIUS = 6

export interface Hover {
  point: number
  x: number
  y: number
  text: string[]
}

interface PointerOptions {
  tableRef: TableRef
  version: number
  fields: FieldInfo[]
  points: Points
  overlayRef: RefObject<HTMLCanvasElement | null>
  viewRef: MutableRefObject<View | null>
  /** The lasso's path so far (CSS pixels), drawn by the overlay. */
  pathRef: MutableRefObject<[number, number][] | null>
  lasso: boolean
  hover: Hover | null
  setHover: Dispatch<SetStateAction<Hover | null>>
  draw(): void
  drawOverlay(): void
  /** A click picked this point (-1: none). */
  onPick(point: number): void
  /** The lasso closed around these points (never none). */
  onLassoPoints(chosen: number[]): void
}

/**
 * The map's pointer: drag pans, the wheel zooms about the pointer, hover shows the row under it (its first columns
 * read at the map's version), a click picks a point, and with the lasso on a drag draws the path the points are
 * chosen by. Returns the overlay canvas's handlers.
 */
export function useMapPointer({ tableRef, version, fields, points, overlayRef, viewRef, pathRef, lasso, hover, setHover, draw, drawOverlay, onPick, onLassoPoints }: PointerOptions) {
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null)

  const toData = (event: { clientX: number; clientY: number }): [number, number, number, number] => {
    const rect = overlayRef.current!.getBoundingClientRect()
    const v = viewRef.current!
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
      pathRef.current = [[sx, sy]]
    }
  }

  const onPointerMove = (event: ReactPointerEvent<HTMLCanvasElement>) => {
    const v = viewRef.current
    if (!v) return
    const d = drag.current
    if (d) {
      if (Math.abs(event.clientX - d.x) + Math.abs(event.clientY - d.y) > 3) d.moved = true
      if (lasso && pathRef.current) {
        const [, , sx, sy] = toData(event)
        pathRef.current.push([sx, sy])
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
    const v = viewRef.current
    if (!v || !d) return
    if (lasso && pathRef.current) {
      const rect = overlayRef.current!.getBoundingClientRect()
      const polygon = pathRef.current.map(([sx, sy]) => [v.cx + (sx - rect.width / 2) / v.scale, v.cy - (sy - rect.height / 2) / v.scale] as [number, number])
      pathRef.current = null
      drawOverlay()
      const chosen = points.inside(polygon)
      if (chosen.length > 0) onLassoPoints(chosen)
      return
    }
    if (d.moved) return
    const [x, y] = toData(event)
    onPick(points.nearest(x, y, PICK_RADIUS / v.scale))
  }

  const onPointerLeave = () => {
    if (!drag.current) setHover(null)
  }

  const onWheel = (event: WheelEvent<HTMLCanvasElement>) => {
    const v = viewRef.current
    if (!v) return
    const [x, y] = toData(event)
    const factor = Math.exp(-event.deltaY * 0.0015)
    // Zoom about the pointer: the data point under it stays under it.
    v.cx = x - (x - v.cx) / factor
    v.cy = y - (y - v.cy) / factor
    v.scale *= factor
    draw()
  }

  return { onPointerDown, onPointerMove, onPointerUp, onPointerLeave, onWheel }
}

/** A tooltip line's value, cut to 60 characters. */
function clipText(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text
}
