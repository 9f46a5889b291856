import { DataType, Precision, type Vector } from 'apache-arrow'
import { cellValue } from '../../../contract'
import { formatCount, formatMeasure } from '../../lib/format'
import { formatCell } from '../../lib/formatCell'

type RGB = [number, number, number]

/** A point with no colour column: the app's accent blue. */
export const PLAIN: [number, number, number, number] = [37, 99, 235, 200]

/**
 * Tableau 20 (Tableau's twenty-colour palette, 2016): its ten darker colours first, then their ten lighter
 * partners (its own order pairs them, so two categories would be blue and light blue). Twenty is about as many as
 * the eye tells apart on a scatter; past that, the least frequent values share {@link OTHER}.
 */
export const CATEGORY: readonly RGB[] = [
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#b6992d', '#499894', '#d37295', '#9d7660', '#79706e',
  '#a0cbe8', '#ffbe7d', '#8cd17d', '#ff9d9a', '#d4a6c8', '#f1ce63', '#86bcb6', '#fabfd2', '#d7b5a6', '#bab0ac',
].map((hex) => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16)])

/** Values past the palette, nulls and NaN: a neutral grey drawn fainter than the palette's colours. */
const OTHER: RGB = [150, 150, 150]
const OTHER_ALPHA = 110
const ALPHA = 220

/** Colours of a quantile scale at most: more classes than this are hard to tell apart on a ramp. */
export const QUANTILE_CLASSES = 7

/**
 * How numbers (and dates, timestamps) are coloured. `quantiles` (the default): each colour holds about the same
 * number of points, so a skewed column (a few huge values) still shows its order. `linear`: position on a ramp
 * from the minimum to the maximum, for when how far apart the values are matters more than their rank.
 */
export type NumberScale = 'quantiles' | 'linear'

export interface LegendEntry {
  label: string
  colour: string
  /** Points drawn in this colour (absent on a linear ramp's ends). */
  rows?: number
}

export interface Legend {
  kind: 'quantiles' | 'linear' | 'categories'
  /** What the colours mean, in words: the legend's first line. */
  caption: string
  entries: LegendEntry[]
}

/** Columns coloured on a scale (numbers, dates, timestamps); any other column by its values as categories. */
export function isScaled(type: DataType): boolean {
  return DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type) || DataType.isDate(type) || DataType.isTimestamp(type)
}

/**
 * Colours for the points (RGBA bytes per point) from one column's values, `values.get(rows[i])` for point i.
 * Numbers, dates and timestamps by `scale`; anything else by its 20 most frequent values, the rest as "other".
 * Each point's colour is found once here (a class index, then a table lookup), never per frame.
 */
export function colourBy(values: Vector, rows: Uint32Array, scale: NumberScale = 'quantiles'): { colours: Uint8Array; legend: Legend } {
  return isScaled(values.type as DataType) ? (scale === 'linear' ? linear(values, rows) : quantiles(values, rows)) : categories(values, rows)
}

/** The column as numbers (NaN for null), read straight from its buffers where they hold plain numbers. */
function numbersOf(values: Vector): Float64Array {
  const out = new Float64Array(values.length)
  const type = values.type as DataType
  const direct = DataType.isInt(type) || (DataType.isFloat(type) && type.precision !== Precision.HALF) || DataType.isDate(type) || DataType.isTimestamp(type)
  let at = 0
  for (const data of values.data) {
    const raw = data.values as unknown as ArrayLike<number | bigint>
    const nulls = data.nullCount > 0
    if (direct && raw && data.stride === 1 && raw.length >= data.offset + data.length) {
      for (let i = 0; i < data.length; i++) out[at + i] = nulls && !data.getValid(i) ? Number.NaN : Number(raw[data.offset + i]!)
    } else {
      for (let i = 0; i < data.length; i++) {
        const v = values.get(at + i) as unknown
        out[at + i] = v === null || v === undefined ? Number.NaN : v instanceof Date ? v.getTime() : Number(v)
      }
    }
    at += data.length
  }
  return out
}

/** Values sorted to find the quantile breaks at most: past this, an even sample of them (sorting 200,000 took ~25 ms, 1M ~140 ms; breaks from 50,000 are within ~0.5 % of their rank, and the legend's counts stay exact). */
export const QUANTILE_SAMPLE = 50_000

/**
 * Each point's number; the smallest and largest (of those that are numbers: not null, not NaN); and, when
 * `sample` is asked, those numbers sorted — all of them up to {@link QUANTILE_SAMPLE}, else every k-th point's.
 */
function pointNumbers(values: Vector, rows: Uint32Array, sample: boolean): { numbers: Float64Array; min: number; max: number; sorted: Float64Array } {
  const all = numbersOf(values)
  const numbers = new Float64Array(rows.length)
  let finite = 0
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < rows.length; i++) {
    const v = all[rows[i]!]!
    numbers[i] = v
    if (v === v) {
      finite++
      if (v < min) min = v
      if (v > max) max = v
    }
  }
  if (finite === 0) min = max = 0
  if (!sample) return { numbers, min, max, sorted: new Float64Array(0) }
  const step = Math.max(1, Math.ceil(finite / QUANTILE_SAMPLE))
  const sorted = new Float64Array(Math.ceil(finite / step))
  let k = 0
  let seen = 0
  for (let i = 0; i < numbers.length; i++) {
    const v = numbers[i]!
    if (v === v && seen++ % step === 0) sorted[k++] = v
  }
  sorted.sort()
  return { numbers, min, max, sorted }
}

/**
 * Names for values of the column: plain numbers as measured numbers (`1,234`, six significant digits); dates,
 * timestamps and decimals as the grid shows the cell of the first point holding the value (each is a value of
 * the data).
 */
function labeller(values: Vector, rows: Uint32Array, numbers: Float64Array, wanted: number[]): (value: number) => string {
  const type = values.type as DataType
  if (DataType.isInt(type) || DataType.isFloat(type)) return formatMeasure
  const found = new Map<number, string>()
  const want = new Set(wanted)
  for (let i = 0; i < numbers.length && found.size < want.size; i++) {
    const v = numbers[i]!
    if (want.has(v) && !found.has(v)) found.set(v, formatCell(cellValue(values, rows[i]!), values.type as DataType).text)
  }
  return (value) => found.get(value) ?? String(value)
}

function quantiles(values: Vector, rows: Uint32Array): { colours: Uint8Array; legend: Legend } {
  const { numbers, min, sorted } = pointNumbers(values, rows, true)
  const n = sorted.length
  // Breaks at the k/K quantiles, by rank: a value's class is where its first copy falls, so equal values keep one
  // colour. A break inside a run of equal values moves to the next value above the run (a column mostly 0 gets
  // its zeros as one class); a break equal to the one before would make an empty class, so it is left out.
  const breaks: number[] = []
  for (let k = 1; k < QUANTILE_CLASSES; k++) {
    let at = Math.ceil((k * n) / QUANTILE_CLASSES)
    if (at >= n) break
    if (at > 0 && sorted[at] === sorted[at - 1]) at = upperBound(sorted, sorted[at]!)
    const b = sorted[at]
    if (b !== undefined && b > min && b !== breaks[breaks.length - 1]) breaks.push(b)
  }
  const classes = breaks.length + 1
  const palette = new Uint32Array(classes + 1)
  for (let c = 0; c < classes; c++) palette[c] = pack(ramp(classes === 1 ? 0.5 : c / (classes - 1)), ALPHA)
  palette[classes] = pack(OTHER, OTHER_ALPHA)
  const tally = new Array<number>(classes + 1).fill(0)
  // Each class's smallest and largest value: the legend names what each colour holds, not an open interval.
  const lows = new Float64Array(classes).fill(Infinity)
  const highs = new Float64Array(classes).fill(-Infinity)
  const out = new Uint8Array(rows.length * 4)
  const packed = new Uint32Array(out.buffer)
  for (let i = 0; i < numbers.length; i++) {
    const v = numbers[i]!
    let c: number
    if (v !== v) c = classes
    else {
      // The number of breaks at or below v: its class (a few comparisons, breaks are at most six).
      c = 0
      while (c < breaks.length && breaks[c]! <= v) c++
      if (v < lows[c]!) lows[c] = v
      if (v > highs[c]!) highs[c] = v
    }
    tally[c]!++
    packed[i] = palette[c]!
  }
  const label = labeller(values, rows, numbers, [...lows, ...highs])
  const entries: LegendEntry[] = []
  for (let c = 0; c < classes; c++) {
    if (tally[c] === 0) continue
    const low = lows[c]!
    const high = highs[c]!
    entries.push({ label: low === high ? label(low) : `${label(low)} – ${label(high)}`, colour: css(unpack(palette[c]!)), rows: tally[c] })
  }
  if (tally[classes]! > 0) entries.push({ label: 'null or NaN', colour: css(OTHER), rows: tally[classes] })
  const caption =
    classes === 1
      ? 'One value'
      : `By quantiles: ${classes} colours of about equal point counts (equal values share a colour); each shows its lowest – highest value`
  return { colours: out, legend: { kind: 'quantiles', caption, entries } }
}

function linear(values: Vector, rows: Uint32Array): { colours: Uint8Array; legend: Legend } {
  const { numbers, min, max } = pointNumbers(values, rows, false)
  // 256 steps of the ramp, looked up per point.
  const steps = new Uint32Array(257)
  for (let s = 0; s < 256; s++) steps[s] = pack(ramp(s / 255), ALPHA)
  steps[256] = pack(OTHER, OTHER_ALPHA)
  const out = new Uint8Array(rows.length * 4)
  const packed = new Uint32Array(out.buffer)
  let missing = 0
  const span = max > min ? 255 / (max - min) : 0
  for (let i = 0; i < numbers.length; i++) {
    const v = numbers[i]!
    if (v !== v) {
      missing++
      packed[i] = steps[256]!
    } else packed[i] = steps[span ? Math.round((v - min) * span) : 128]!
  }
  const label = labeller(values, rows, numbers, [min, max])
  const entries: LegendEntry[] = [
    { label: label(min), colour: css(ramp(0)) },
    { label: label(max), colour: css(ramp(1)) },
  ]
  if (missing > 0) entries.push({ label: 'null or NaN', colour: css(OTHER), rows: missing })
  return { colours: out, legend: { kind: 'linear', caption: 'Linear from the minimum to the maximum', entries } }
}

function categories(values: Vector, rows: Uint32Array): { colours: Uint8Array; legend: Legend } {
  const count = rows.length
  // One read per point: its value's code (in order of first sight) and a tally per code.
  const codes = new Int32Array(count)
  const seen = new Map<unknown, number>()
  const firstRow: number[] = []
  const tally: number[] = []
  for (let i = 0; i < count; i++) {
    const v = (values.get(rows[i]!) as unknown) ?? null
    let c = seen.get(v)
    if (c === undefined) {
      c = tally.length
      seen.set(v, c)
      tally.push(0)
      firstRow.push(rows[i]!)
    }
    tally[c]!++
    codes[i] = c
  }
  const type = values.type as DataType
  const text = (c: number) => formatCell(cellValue(values, firstRow[c]!), type).text
  const order = tally.map((_, c) => c).sort((a, b) => tally[b]! - tally[a]! || (text(a) < text(b) ? -1 : text(a) > text(b) ? 1 : 0))
  const colourOf = new Uint32Array(tally.length).fill(pack(OTHER, OTHER_ALPHA))
  const shown = order.slice(0, CATEGORY.length)
  shown.forEach((c, rank) => (colourOf[c] = pack(CATEGORY[rank]!, ALPHA)))
  const out = new Uint8Array(count * 4)
  const packed = new Uint32Array(out.buffer)
  for (let i = 0; i < count; i++) packed[i] = colourOf[codes[i]!]!
  const entries: LegendEntry[] = shown.map((c, rank) => ({ label: text(c), colour: css(CATEGORY[rank]!), rows: tally[c] }))
  const rest = order.slice(CATEGORY.length)
  if (rest.length > 0) {
    const restRows = rest.reduce((sum, c) => sum + tally[c]!, 0)
    entries.push({ label: `other (${formatCount(rest.length)} ${rest.length === 1 ? 'value' : 'values'})`, colour: css(OTHER), rows: restRows })
  }
  const caption =
    rest.length > 0
      ? `The ${CATEGORY.length} most frequent of ${formatCount(tally.length)} values; the rest in grey as “other”`
      : `${formatCount(tally.length)} ${tally.length === 1 ? 'value' : 'values'}`
  return { colours: out, legend: { kind: 'categories', caption, entries } }
}

/** The index of the first value in `sorted` greater than `value` (its length when none is). */
function upperBound(sorted: Float64Array, value: number): number {
  let lo = 0
  let hi = sorted.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (sorted[mid]! <= value) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Dark blue → teal → yellow (viridis' stops, readable on light and dark backgrounds). */
function ramp(t: number): RGB {
  const stops: RGB[] = [
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

/** RGBA bytes as one little-endian word (the byte order of the drawers' Uint8Array, on every platform we ship). */
function pack([r, g, b]: RGB, a: number): number {
  return (r | (g << 8) | (b << 16) | (a << 24)) >>> 0
}

function unpack(word: number): RGB {
  return [word & 0xff, (word >>> 8) & 0xff, (word >>> 16) & 0xff]
}

function css([r, g, b]: RGB): string {
  return `rgb(${r}, ${g}, ${b})`
}
