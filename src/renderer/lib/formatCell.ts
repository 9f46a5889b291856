import { DataType, Precision, type Field } from 'apache-arrow'
import { temporalText } from '../../contract'
import { formatBytes } from './format'

/** How a cell is shown: its text, an optional longer text for hover, and a style class. */
export interface CellDisplay {
  text: string
  title?: string
  kind: 'null' | 'number' | 'string' | 'bool' | 'time' | 'vector' | 'binary' | 'nested' | 'other'
}

const VECTOR_PREVIEW = 3
const LIST_PREVIEW = 8
const HEX_PREVIEW = 8
const TITLE_LIMIT = 4000

/** Columns whose values are numbers are right-aligned. */
export function isNumericType(type: DataType): boolean {
  return DataType.isInt(type) || DataType.isFloat(type) || DataType.isDecimal(type)
}

/** A fixed-size list of floats: an embedding vector (Lance's `FixedSizeList<Float32>[dim]`). */
export function vectorDimension(type: DataType): number | null {
  if (DataType.isFixedSizeList(type) && type.children[0] && DataType.isFloat(type.children[0].type)) return type.listSize
  return null
}

/**
 * A float as the grid shows it. A float32 (`single`) at its own precision: the fewest digits (at most 9) that
 * read back as the same float32, so 0.1f reads `0.1`, not its float64 widening `0.10000000149011612`.
 */
export function formatFloat(value: number, single = false): string {
  if (!Number.isFinite(value)) return String(value)
  if (single) value = shortestSingle(value)
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return value.toString()
  const abs = Math.abs(value)
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e15)) return value.toExponential(6).replace(/\.?0+e/, 'e')
  // Enough digits to tell values apart without showing float noise.
  return Number(value.toPrecision(10)).toString()
}

/** The float64 with the fewest significant digits that is the same float32 as `value`. */
function shortestSingle(value: number): number {
  const single = Math.fround(value)
  for (let digits = 1; digits < 9; digits++) {
    const near = Number(value.toPrecision(digits))
    if (Math.fround(near) === single) return near
  }
  return Number(value.toPrecision(9))
}

function shortFloat(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  return value.toFixed(2)
}

function hex(bytes: Uint8Array, count: number): string {
  return Array.from(bytes.subarray(0, count), (b) => b.toString(16).padStart(2, '0')).join(' ')
}

function clip(text: string): string {
  return text.length > TITLE_LIMIT ? `${text.slice(0, TITLE_LIMIT)}…` : text
}

interface VectorLike {
  length: number
  get(index: number): unknown
  toArray(): ArrayLike<unknown>
}

function isVectorLike(value: unknown): value is VectorLike {
  return typeof value === 'object' && value !== null && 'toArray' in value && 'get' in value && 'length' in value
}

/** Plain text of any value, for nested content (lists, structs) and titles. */
export function plainText(value: unknown, type?: DataType, depth = 0): string {
  if (value === null || value === undefined) return 'null'
  // Dates, times, timestamps and durations: the rule copy and export use too (src/contract/values.ts).
  const temporal = type ? temporalText(value, type) : undefined
  if (temporal !== undefined) return temporal
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return formatFloat(value)
  if (typeof value === 'string') return depth > 0 ? JSON.stringify(value) : value
  if (typeof value === 'boolean') return String(value)
  if (value instanceof Uint8Array && !(type && DataType.isList(type))) return `${formatBytes(value.length)} ${hex(value, HEX_PREVIEW)}${value.length > HEX_PREVIEW ? ' …' : ''}`
  if (value instanceof Date) return value.toISOString()
  if (isVectorLike(value)) {
    const childType = type && 'children' in type ? (type.children as Field[])[0]?.type : undefined
    const shown: string[] = []
    const n = Math.min(value.length, LIST_PREVIEW)
    for (let i = 0; i < n; i += 1) shown.push(plainText(value.get(i), childType, depth + 1))
    return `[${shown.join(', ')}${value.length > n ? `, … (${value.length})` : ''}]`
  }
  if (typeof value === 'object') {
    const object = (value as { toJSON?: () => unknown }).toJSON?.() ?? value
    if (object && typeof object === 'object') {
      const fields = type && DataType.isStruct(type) ? type.children : []
      const parts = Object.entries(object as Record<string, unknown>).map(([key, inner]) => {
        const fieldType = fields.find((f) => f.name === key)?.type
        return `${key}: ${plainText(inner, fieldType, depth + 1)}`
      })
      return `{${parts.join(', ')}}`
    }
  }
  return String(value)
}

/**
 * The display of one cell, by its Arrow type. int64 stays a BigInt: never rounded. Timestamps should come
 * from `cellValue` (their raw digits); dates, times, timestamps and durations read as copy and export write them.
 */
export function formatCell(value: unknown, type: DataType): CellDisplay {
  if (value === null || value === undefined) return { text: 'NULL', kind: 'null' }
  if (DataType.isDictionary(type)) return formatCell(value, type.dictionary)
  const temporal = temporalText(value, type)
  if (temporal !== undefined) return { text: temporal, kind: 'time' }
  if (DataType.isInt(type)) return { text: typeof value === 'bigint' ? value.toString() : String(value), kind: 'number' }
  if (DataType.isFloat(type)) {
    const text = formatFloat(value as number, type.precision === Precision.SINGLE)
    return { text, title: String(value) !== text ? String(value) : undefined, kind: 'number' }
  }
  if (DataType.isBool(type)) return { text: value ? 'true' : 'false', kind: 'bool' }
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) {
    const text = String(value)
    // The full value on hover; the cell itself elides with CSS.
    return { text: text.length > 500 ? text.slice(0, 500) : text, title: clip(text), kind: 'string' }
  }
  if ((DataType.isBinary(type) || DataType.isLargeBinary(type) || DataType.isFixedSizeBinary(type)) && value instanceof Uint8Array) {
    return {
      text: `${formatBytes(value.length)}  ${hex(value, HEX_PREVIEW)}${value.length > HEX_PREVIEW ? ' …' : ''}`,
      title: clip(hex(value, 256) + (value.length > 256 ? ' …' : '')),
      kind: 'binary',
    }
  }
  const dimension = vectorDimension(type)
  if (dimension !== null && isVectorLike(value)) {
    const values = value.toArray() as ArrayLike<number>
    const shown = Array.from({ length: Math.min(VECTOR_PREVIEW, values.length) }, (_, i) => shortFloat(values[i]!))
    const full = Array.from({ length: Math.min(64, values.length) }, (_, i) => formatFloat(values[i]!))
    return {
      text: `[${shown.join(', ')}${values.length > VECTOR_PREVIEW ? ', … ' : ''}] ${dimension}-d`,
      title: `[${full.join(', ')}${values.length > 64 ? ', …' : ''}] (${dimension} values)`,
      kind: 'vector',
    }
  }
  const text = plainText(value, type)
  return { text: text.length > 500 ? `${text.slice(0, 500)}…` : text, title: clip(text), kind: DataType.isList(type) || DataType.isStruct(type) || DataType.isFixedSizeList(type) || DataType.isMap(type) ? 'nested' : 'other' }
}
