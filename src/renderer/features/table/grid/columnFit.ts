import type { Table as ArrowTable } from 'apache-arrow'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { cellValue, type FieldInfo } from '../../../../contract'
import { formatCell } from '../../../lib/formatCell'

export type ColumnSizing = Record<string, number>

/** A column's width before any rows are seen, by its type. */
export function initialWidth(field: FieldInfo): number {
  const type = field.type.toLowerCase()
  if (field.vectorDimension) return 250
  // 64-bit integers need up to 20 characters: never elide digits by default.
  if (type === 'int64' || type === 'uint64') return 170
  if (type.startsWith('int') || type.startsWith('uint')) return 100
  if (type.startsWith('float') || type.startsWith('decimal')) return 120
  if (type.startsWith('bool')) return 80
  if (type.startsWith('timestamp') || type.startsWith('date')) return 215
  if (type.includes('binary')) return 190
  return 200
}

/** The header's second line: the column's type. */
export function headerTypeLabel(field: FieldInfo): string {
  return field.vectorDimension ? `vector · ${field.vectorDimension}-d` : field.type
}

const CHAR_WIDTH = 7.2
/** The header's type line (10.5px monospace) per character, and its padding, sort mark and menu button. */
const TYPE_CHAR_WIDTH = 6.4
const HEADER_CONTROLS_WIDTH = 48
const MAX_FIT_WIDTH = 380
/**
 * Around the header's name: the label's padding (2 × 8), the column-menu button (18 + 6), room for the sort
 * mark (an arrow 10 px from the edge) and the border, so a fitted name is never elided.
 */
const HEADER_NAME_EXTRA = 16 + 24 + 16 + 2

let measureContext: CanvasRenderingContext2D | null | undefined
/** The width of a header's name as the browser draws it (600 weight, the UI font at 13 px); an estimate without a canvas. */
function headerNameWidth(name: string): number {
  if (measureContext === undefined) {
    measureContext = typeof document !== 'undefined' ? document.createElement('canvas').getContext('2d') : null
    if (measureContext) measureContext.font = `600 13px ${getComputedStyle(document.body).fontFamily || 'sans-serif'}`
  }
  return measureContext ? Math.ceil(measureContext.measureText(name).width) : name.length * 8.5
}

/** Widths that show the first rows' values and the header names without eliding (capped). */
export function fitColumns(fields: readonly FieldInfo[], page: ArrowTable): ColumnSizing {
  const sizing: ColumnSizing = {}
  const rows = Math.min(page.numRows, 50)
  for (const field of fields) {
    const vector = page.getChild(field.name)
    if (!vector) continue
    let chars = 0
    for (let i = 0; i < rows; i += 1) chars = Math.max(chars, formatCell(cellValue(vector, i), vector.type).text.length)
    // The header too: its name (measured as drawn) and its type line (smaller monospace), beside the sort mark
    // and the column-menu button. The name is never elided by a fit, whatever the first rows hold.
    const header = Math.max(headerTypeLabel(field).length * TYPE_CHAR_WIDTH + HEADER_CONTROLS_WIDTH, headerNameWidth(field.name) + HEADER_NAME_EXTRA)
    sizing[field.name] = Math.round(Math.max(Math.min(header, MAX_FIT_WIDTH), Math.min(MAX_FIT_WIDTH, Math.max(64, chars * CHAR_WIDTH + 24))))
  }
  return sizing
}

/**
 * Column widths: fitted to each view's first rows, and the widths the user set by dragging, which win and
 * stay across views. The fit is computed in the render that shows the view (its page 0 comes with it), so a
 * filter or sort costs no second render; only a table opened before its first page arrived fits it later.
 */
export function useColumnSizing(fields: readonly FieldInfo[], viewKey: string, initialPage: ArrowTable | undefined) {
  const viewFit = useMemo(
    () => (initialPage ? fitColumns(fields, initialPage) : undefined),
    // Once per view: initialPage is the new view's page 0 in the render where viewKey changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [viewKey, fields],
  )
  const [lateFit, setLateFit] = useState<{ viewKey: string; sizes: ColumnSizing } | null>(null)
  const [userSizing, setUserSizing] = useState<ColumnSizing>({})
  const fitted = viewFit ?? (lateFit?.viewKey === viewKey ? lateFit.sizes : undefined)
  const columnSizing = useMemo(() => ({ ...fitted, ...userSizing }), [fitted, userSizing])
  const onColumnSizingChange = useCallback(
    (updater: ColumnSizing | ((old: ColumnSizing) => ColumnSizing)) => {
      const next = typeof updater === 'function' ? updater(columnSizing) : updater
      // What differs from the fit is the user's; a reset (double-click) drops the user's width.
      const user: ColumnSizing = {}
      for (const [name, width] of Object.entries(next)) if (fitted?.[name] !== width) user[name] = width
      setUserSizing(user)
    },
    [columnSizing, fitted],
  )
  return { columnSizing, onColumnSizingChange, fitted, setLateFit }
}

/** The first page arrived after the grid mounted (a table opened before it came): fit once, to it. */
export function useLateFit(
  sizing: ReturnType<typeof useColumnSizing>,
  fields: readonly FieldInfo[],
  viewKey: string,
  pages: { pageOf(row: number): ArrowTable | undefined; version: number },
): void {
  const { fitted, setLateFit } = sizing
  useEffect(() => {
    if (fitted) return
    const page = pages.pageOf(0)
    if (page) setLateFit({ viewKey, sizes: fitColumns(fields, page) })
  }, [fitted, pages, pages.version, viewKey, fields, setLateFit])
}
