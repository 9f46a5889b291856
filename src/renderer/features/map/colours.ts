import type { Vector } from 'apache-arrow'
import { formatMeasure } from '../../lib/format'

/** A point with no colour column: the app's accent blue. */
export const PLAIN: [number, number, number, number] = [37, 99, 235, 200]
const CATEGORY: [number, number, number][] = [
  [31, 119, 180],
  [255, 127, 14],
  [44, 160, 44],
  [214, 39, 40],
  [148, 103, 189],
  [140, 86, 75],
  [227, 119, 194],
  [23, 190, 207],
]
const OTHER: [number, number, number] = [160, 160, 160]

export interface Legend {
  kind: 'ramp' | 'categories'
  /** Ramp: the low and high ends; categories: each top value with its colour (the rest grey). */
  entries: { label: string; colour: string }[]
}

/**
 * Colours for the points from one column's values in row order (`values.get(rows[i])`): numbers on a ramp
 * from their minimum to their maximum, anything else by its eight most frequent values and grey for the rest.
 */
export function colourBy(values: Vector, rows: Uint32Array): { colours: Uint8Array; legend: Legend } {
  const count = rows.length
  const out = new Uint8Array(count * 4)
  const numeric = /^(Int|Uint|Float|Decimal)/.test(String(values.type))
  if (numeric) {
    let min = Infinity
    let max = -Infinity
    const read = (r: number) => {
      const v = values.get(r) as number | bigint | null
      return v === null || v === undefined ? Number.NaN : Number(v)
    }
    for (let i = 0; i < count; i++) {
      const v = read(rows[i]!)
      if (Number.isFinite(v)) {
        if (v < min) min = v
        if (v > max) max = v
      }
    }
    for (let i = 0; i < count; i++) {
      const v = read(rows[i]!)
      const t = Number.isFinite(v) ? (max > min ? (v - min) / (max - min) : 0.5) : -1
      out.set(t < 0 ? [...OTHER, 120] : [...ramp(t), 220], i * 4)
    }
    return { colours: out, legend: { kind: 'ramp', entries: [{ label: formatMeasure(min), colour: css(ramp(0)) }, { label: formatMeasure(max), colour: css(ramp(1)) }] } }
  }
  const counts = new Map<string, number>()
  const text = (r: number) => {
    const v = values.get(r) as unknown
    return v === null || v === undefined ? 'null' : String(v)
  }
  for (let i = 0; i < count; i++) {
    const t = text(rows[i]!)
    counts.set(t, (counts.get(t) ?? 0) + 1)
  }
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, CATEGORY.length)
  const index = new Map(top.map(([t], i) => [t, i]))
  for (let i = 0; i < count; i++) {
    const k = index.get(text(rows[i]!))
    out.set(k === undefined ? [...OTHER, 120] : [...CATEGORY[k]!, 220], i * 4)
  }
  const entries = top.map(([label], i) => ({ label, colour: css(CATEGORY[i]!) }))
  if (counts.size > top.length) entries.push({ label: 'other', colour: css(OTHER) })
  return { colours: out, legend: { kind: 'categories', entries } }
}

/** Dark blue → teal → yellow (a viridis-like ramp, readable on light and dark backgrounds). */
function ramp(t: number): [number, number, number] {
  const stops: [number, number, number][] = [
    [68, 1, 84],
    [59, 82, 139],
    [33, 145, 140],
    [94, 201, 98],
    [253, 231, 37],
  ]
  const x = Math.min(0.9999, Math.max(0, t)) * (stops.length - 1)
  const i = Math.floor(x)
  const f = x - i
  const a = stops[i]!
  const b = stops[i + 1]!
  return [Math.round(a[0] + (b[0] - a[0]) * f), Math.round(a[1] + (b[1] - a[1]) * f), Math.round(a[2] + (b[2] - a[2]) * f)]
}

function css([r, g, b]: [number, number, number]): string {
  return `rgb(${r}, ${g}, ${b})`
}
