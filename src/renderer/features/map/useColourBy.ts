import { useEffect, useMemo, useState } from 'react'
import type { DataType, Table, Vector } from 'apache-arrow'
import type { TableRef } from '../../../contract'
import { readPage } from '../../api'
import { colourBy, isScaled, type Legend, type NumberScale } from './colours'
import type { Points } from './points'

/** Rows read per request when colouring by a column. */
const COLOUR_PAGE = 10_000

/**
 * The map's **Colour by** choice: the column and scale chosen, the column's values read page by page at the map's
 * version (in row order, once per column), and the points' colours and legend found from them (colours.ts).
 */
export function useColourBy(tableRef: TableRef, version: number, points: Points) {
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

  return { colourColumn, setColourColumn, scale, setScale, scaledColumn, coloured, colouring, legend }
}

/** The largest of a few values spread over the array (the rows are in ascending order; the last is the largest). */
function sample(rows: Uint32Array): number[] {
  return rows.length ? [rows[rows.length - 1]!] : [0]
}
