import type { MapSummary, TableRef } from '../../../contract'
import type { Vector } from 'apache-arrow'
import { readPage } from '../../api'
import type { Points } from './points'
import type { View } from './view'

/** Neighbours **Find similar rows** draws lines to. */
const NEIGHBOURS = 10

/** What the overlay canvas marks above the points: lines to a row's neighbours, the selected and hovered points, the lasso's path. */
export interface OverlayMarks {
  neighbours: { point: number; at: [number, number][] } | null
  selected: number | null
  hovered: number | null
  /** The lasso's path so far, in canvas (CSS) pixels. */
  path: [number, number][] | null
}

/** Clears the overlay canvas and draws the marks at the view. */
export function paintOverlay(canvas: HTMLCanvasElement, v: View, points: Points, { neighbours, selected, hovered, path }: OverlayMarks): void {
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
    // The theme's ink (the canvas's CSS colour, map.css): dark on the light ground, light on the dark one.
    [hovered, getComputedStyle(ctx.canvas).color || 'rgb(17, 24, 39)'],
  ] as const) {
    if (point === null) continue
    const [x, y] = toScreen(points.x[point]!, points.y[point]!)
    ctx.strokeStyle = colour
    ctx.lineWidth = 2
    ctx.beginPath()
    ctx.arc(x, y, 6, 0, Math.PI * 2)
    ctx.stroke()
  }
  if (path && path.length > 1) {
    ctx.strokeStyle = 'rgb(37, 99, 235)'
    ctx.setLineDash([4, 3])
    ctx.beginPath()
    path.forEach(([x, y], i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)))
    ctx.closePath()
    ctx.stroke()
    ctx.setLineDash([])
  }
}

/**
 * **Find similar rows**: the row's nearest rows by Lance's vector search at the map's version, placed on the map by
 * its PCA projection (null when the map has none: UMAP is no linear map). The row itself comes back first
 * (distance 0) and is left out.
 */
export async function similarOnMap(tableRef: TableRef, summary: MapSummary, row: number): Promise<[number, number][] | null> {
  const { column: vectorColumn, version, projection } = summary
  const own = await readPage(tableRef, row, 1, undefined, { version, columns: [vectorColumn] })
  const vector = Array.from((own.getChild(vectorColumn)!.get(0) as Vector).toArray() as ArrayLike<number>, Number)
  const found = await readPage(tableRef, 0, NEIGHBOURS + 1, undefined, { version, columns: [vectorColumn], search: { kind: 'vector', column: vectorColumn, vector, metric: 'l2', prefilter: true, k: NEIGHBOURS + 1 } })
  const column = found.getChild(vectorColumn)!
  if (!projection) return null
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
  return at.slice(1)
}
