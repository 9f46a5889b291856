import * as arrow from 'apache-arrow'
import { AppError, MAX_COLUMN_DEPTH, type ColumnSpec } from '../../contract'

const UNITS = { s: arrow.TimeUnit.SECOND, ms: arrow.TimeUnit.MILLISECOND, us: arrow.TimeUnit.MICROSECOND, ns: arrow.TimeUnit.NANOSECOND } as const

function floatType(kind: 'float16' | 'float32' | 'float64'): arrow.DataType {
  return kind === 'float16' ? new arrow.Float16() : kind === 'float64' ? new arrow.Float64() : new arrow.Float32()
}

function dataType(c: ColumnSpec, depth: number): arrow.DataType {
  if (depth > MAX_COLUMN_DEPTH) throw new AppError('invalid_input', `Columns nest at most ${MAX_COLUMN_DEPTH} levels deep`)
  switch (c.type) {
    case 'int8': return new arrow.Int8()
    case 'int16': return new arrow.Int16()
    case 'int32': return new arrow.Int32()
    case 'int64': return new arrow.Int64()
    case 'float16': case 'float32': case 'float64': return floatType(c.type)
    case 'string': return new arrow.Utf8()
    case 'bool': return new arrow.Bool()
    case 'date': return new arrow.DateDay()
    case 'binary': return new arrow.Binary()
    case 'timestamp': return new arrow.Timestamp(UNITS[c.unit ?? 'us'], c.timezone ?? null)
    case 'vector': {
      if (!c.dimension) throw new AppError('invalid_input', `Vector column "${c.name}" needs a dimension`)
      return new arrow.FixedSizeList(c.dimension, new arrow.Field('item', floatType(c.vectorType ?? 'float32'), true))
    }
    case 'list': {
      if (!c.item) throw new AppError('invalid_input', `List column "${c.name}" needs an element type`)
      return new arrow.List(field({ ...c.item, name: 'item' }, depth + 1))
    }
    case 'struct': {
      if (!c.fields?.length) throw new AppError('invalid_input', `Struct column "${c.name}" needs at least one field`)
      assertUnique(c.fields, `struct "${c.name}"`)
      return new arrow.Struct(c.fields.map((f) => field(f, depth + 1)))
    }
  }
}

function field(c: ColumnSpec, depth: number): arrow.Field {
  return new arrow.Field(c.name, dataType(c, depth), c.nullable)
}

function assertUnique(columns: readonly ColumnSpec[], where: string): void {
  const seen = new Set<string>()
  for (const c of columns) {
    if (seen.has(c.name)) throw new AppError('invalid_input', `Column "${c.name}" appears twice in ${where}`)
    seen.add(c.name)
  }
}

/** The Arrow schema of the schema editor's columns (create an empty table). */
export function schemaOf(columns: readonly ColumnSpec[]): arrow.Schema {
  if (columns.length === 0) throw new AppError('invalid_input', 'A table needs at least one column')
  assertUnique(columns, 'the table')
  return new arrow.Schema(columns.map((c) => field(c, 0)))
}
