import { Bool, DataType, Field, Float64, Int64, List, Struct, Utf8 } from 'apache-arrow'

/**
 * Type inference for JSON lines: a small lattice over JS values. Integers widen to floats,
 * anything else that disagrees becomes text (kept as JSON), all-null columns become text.
 */
export type Inferred =
  | { kind: 'null' }
  | { kind: 'bool' }
  | { kind: 'int' }
  | { kind: 'float' }
  | { kind: 'string' }
  | { kind: 'list'; item: Inferred }
  | { kind: 'struct'; fields: Map<string, Inferred> }

export const NULL: Inferred = { kind: 'null' }

export function inferValue(value: unknown): Inferred {
  if (value === null || value === undefined) return NULL
  if (typeof value === 'boolean') return { kind: 'bool' }
  if (typeof value === 'number') return Number.isInteger(value) && Number.isSafeInteger(value) ? { kind: 'int' } : { kind: 'float' }
  if (typeof value === 'bigint') return value <= 9223372036854775807n && value >= -9223372036854775808n ? { kind: 'int' } : { kind: 'float' }
  if (typeof value === 'string') return { kind: 'string' }
  if (Array.isArray(value)) {
    let item: Inferred = NULL
    for (const v of value) item = merge(item, inferValue(v))
    return { kind: 'list', item }
  }
  if (typeof value === 'object') {
    const fields = new Map<string, Inferred>()
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) fields.set(k, inferValue(v))
    return { kind: 'struct', fields }
  }
  return { kind: 'string' }
}

export function merge(a: Inferred, b: Inferred): Inferred {
  if (a.kind === 'null') return b
  if (b.kind === 'null') return a
  if (a.kind === b.kind) {
    if (a.kind === 'list' && b.kind === 'list') return { kind: 'list', item: merge(a.item, b.item) }
    if (a.kind === 'struct' && b.kind === 'struct') {
      const fields = new Map(a.fields)
      for (const [k, v] of b.fields) fields.set(k, merge(fields.get(k) ?? NULL, v))
      return { kind: 'struct', fields }
    }
    return a
  }
  if ((a.kind === 'int' && b.kind === 'float') || (a.kind === 'float' && b.kind === 'int')) return { kind: 'float' }
  return { kind: 'string' }
}

export function toArrowType(inferred: Inferred): DataType {
  switch (inferred.kind) {
    case 'null':
    case 'string':
      return new Utf8()
    case 'bool':
      return new Bool()
    case 'int':
      return new Int64()
    case 'float':
      return new Float64()
    case 'list':
      return new List(new Field('item', toArrowType(inferred.item), true))
    case 'struct':
      if (inferred.fields.size === 0) return new Utf8()
      return new Struct([...inferred.fields].map(([name, t]) => new Field(name, toArrowType(t), true)))
  }
}

/** CSV cells are text: a column is Int64, Float64 or Bool when every non-empty cell of the sample parses so. */
export type CsvKind = 'empty' | 'int' | 'float' | 'bool' | 'string'

const INT_RE = /^[-+]?\d{1,19}$/
const FLOAT_RE = /^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|infinity|nan)$/i
const BOOL_RE = /^(true|false)$/i
const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n

export function csvCellKind(cell: string): CsvKind {
  if (cell === '') return 'empty'
  if (INT_RE.test(cell)) {
    const v = BigInt(cell)
    return v <= INT64_MAX && v >= INT64_MIN ? 'int' : 'float'
  }
  if (FLOAT_RE.test(cell)) return 'float'
  if (BOOL_RE.test(cell)) return 'bool'
  return 'string'
}

export function mergeCsv(a: CsvKind, b: CsvKind): CsvKind {
  if (a === 'empty') return b
  if (b === 'empty' || a === b) return a
  if ((a === 'int' && b === 'float') || (a === 'float' && b === 'int')) return 'float'
  return 'string'
}

export function csvArrowType(kind: CsvKind): DataType {
  if (kind === 'int') return new Int64()
  if (kind === 'float') return new Float64()
  if (kind === 'bool') return new Bool()
  return new Utf8()
}

/** Parse a CSV cell for a column type; `undefined` when it does not fit (the caller reports the line). */
export function parseCsvCell(cell: string, type: DataType): unknown {
  if (cell === '') return null
  if (DataType.isInt(type)) {
    if (!INT_RE.test(cell)) return undefined
    const v = BigInt(cell)
    return v <= INT64_MAX && v >= INT64_MIN ? v : undefined
  }
  if (DataType.isFloat(type)) {
    if (!FLOAT_RE.test(cell)) return undefined
    const lower = cell.toLowerCase().replace(/^\+/, '')
    if (lower === 'nan') return NaN
    if (lower === 'inf' || lower === 'infinity') return Infinity
    if (lower === '-inf' || lower === '-infinity') return -Infinity
    return Number(cell)
  }
  if (DataType.isBool(type)) {
    if (!BOOL_RE.test(cell)) return undefined
    return cell.toLowerCase() === 'true'
  }
  return cell
}
