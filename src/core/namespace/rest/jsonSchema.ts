import * as arrow from 'apache-arrow'

/**
 * The namespace contract's JsonArrowSchema (rest-contract.md §3.4): `{fields: [{name, nullable, type:
 * {type, fields?, length?}, metadata?}], metadata?}` with type names `int64`, `utf8`, `float32`, ….
 * Timestamps, times, durations and decimals lose their unit in that form; we add `unit`, `timezone`,
 * `precision` and `scale` (unknown fields are ignored by other clients) and assume microseconds without them.
 */
export interface JsonArrowType {
  type: string
  fields?: JsonArrowField[]
  length?: number
  unit?: string
  timezone?: string | null
  precision?: number
  scale?: number
}
export interface JsonArrowField {
  name: string
  nullable: boolean
  type: JsonArrowType
  metadata?: Record<string, string>
}
export interface JsonArrowSchema {
  fields: JsonArrowField[]
  metadata?: Record<string, string>
}

const unitNames = ['second', 'millisecond', 'microsecond', 'nanosecond'] as const

function unitOf(name: string | undefined): arrow.TimeUnit {
  const i = unitNames.indexOf((name ?? 'microsecond').toLowerCase() as (typeof unitNames)[number])
  return (i < 0 ? 2 : i) as arrow.TimeUnit
}

function mapOf(m: Map<string, string>): Record<string, string> | undefined {
  return m.size ? Object.fromEntries(m) : undefined
}

export function typeToJson(t: arrow.DataType): JsonArrowType {
  const T = arrow.Type
  if (arrow.DataType.isDictionary(t)) return typeToJson(t.dictionary)
  switch (t.typeId) {
    case T.Null: return { type: 'null' }
    case T.Bool: return { type: 'bool' }
    case T.Int: {
      const i = t as arrow.Int
      return { type: `${i.isSigned ? 'int' : 'uint'}${i.bitWidth}` }
    }
    case T.Float: return { type: ['float16', 'float32', 'float64'][(t as arrow.Float).precision] ?? 'float64' }
    case T.Utf8: return { type: 'utf8' }
    case T.LargeUtf8: return { type: 'large_utf8' }
    case T.Binary: return { type: 'binary' }
    case T.LargeBinary: return { type: 'large_binary' }
    case T.FixedSizeBinary: return { type: 'fixed_size_binary', length: (t as arrow.FixedSizeBinary).byteWidth }
    case T.Decimal: {
      const d = t as arrow.Decimal
      return { type: `decimal${d.bitWidth}`, precision: d.precision, scale: d.scale }
    }
    case T.Date: return { type: (t as arrow.Date_).unit === arrow.DateUnit.DAY ? 'date32' : 'date64' }
    case T.Time: {
      const x = t as arrow.Time
      return { type: x.bitWidth === 32 ? 'time32' : 'time64', unit: unitNames[x.unit] }
    }
    case T.Timestamp: {
      const x = t as arrow.Timestamp
      return { type: 'timestamp', unit: unitNames[x.unit], timezone: x.timezone ?? null }
    }
    case T.Duration: return { type: 'duration', unit: unitNames[(t as arrow.Duration).unit] }
    case T.List: return { type: 'list', fields: [fieldToJson((t as arrow.List).children[0]!)] }
    case T.FixedSizeList: {
      const x = t as arrow.FixedSizeList
      return { type: 'fixed_size_list', length: x.listSize, fields: [fieldToJson(x.children[0]!)] }
    }
    case T.Struct: return { type: 'struct', fields: (t as arrow.Struct).children.map(fieldToJson) }
    case T.Map: return { type: 'map', fields: (t as arrow.Map_).children.map(fieldToJson) }
    default: return { type: String(t).toLowerCase() }
  }
}

export function fieldToJson(f: arrow.Field): JsonArrowField {
  const out: JsonArrowField = { name: f.name, nullable: f.nullable, type: typeToJson(f.type) }
  const metadata = mapOf(f.metadata)
  if (metadata) out.metadata = metadata
  return out
}

export function schemaToJson(schema: arrow.Schema): JsonArrowSchema {
  const out: JsonArrowSchema = { fields: schema.fields.map(fieldToJson) }
  const metadata = mapOf(schema.metadata)
  if (metadata) out.metadata = metadata
  return out
}

function child(t: JsonArrowType, what: string): arrow.Field {
  const f = t.fields?.[0]
  if (!f) throw new Error(`${what} type without an item field`)
  return fieldFromJson(f)
}

export function typeFromJson(t: JsonArrowType): arrow.DataType {
  const name = String(t.type).toLowerCase()
  const int = /^(u?)int(8|16|32|64)$/.exec(name)
  if (int) return new arrow.Int(int[1] !== 'u', Number(int[2]) as 8 | 16 | 32 | 64)
  switch (name) {
    case 'null': return new arrow.Null()
    case 'bool': case 'boolean': return new arrow.Bool()
    case 'float16': case 'halffloat': return new arrow.Float16()
    case 'float32': case 'float': return new arrow.Float32()
    case 'float64': case 'double': return new arrow.Float64()
    case 'utf8': case 'string': return new arrow.Utf8()
    case 'large_utf8': case 'large_string': return new arrow.LargeUtf8()
    case 'binary': return new arrow.Binary()
    case 'large_binary': return new arrow.LargeBinary()
    case 'fixed_size_binary': return new arrow.FixedSizeBinary(t.length ?? 0)
    case 'decimal32': case 'decimal64': case 'decimal128': case 'decimal256':
      return new arrow.Decimal(t.scale ?? 0, t.precision ?? 38, Number(name.slice(7)))
    case 'date32': case 'date32:day': return new arrow.DateDay()
    case 'date64': case 'date64:ms': return new arrow.DateMillisecond()
    case 'time32': return new arrow.Time(unitOf(t.unit ?? 'millisecond'), 32)
    case 'time64': return new arrow.Time(unitOf(t.unit), 64)
    case 'timestamp': return new arrow.Timestamp(unitOf(t.unit), t.timezone ?? undefined)
    case 'duration': return new arrow.Duration(unitOf(t.unit))
    case 'list': case 'large_list': return new arrow.List(child(t, 'list'))
    case 'fixed_size_list': return new arrow.FixedSizeList(t.length ?? 0, child(t, 'fixed_size_list'))
    case 'struct': return new arrow.Struct((t.fields ?? []).map(fieldFromJson))
    default: throw new Error(`unknown type "${t.type}"`)
  }
}

export function fieldFromJson(f: JsonArrowField): arrow.Field {
  const metadata = f.metadata ? new Map(Object.entries(f.metadata)) : undefined
  return new arrow.Field(f.name, typeFromJson(f.type), f.nullable ?? true, metadata)
}

export function schemaFromJson(s: JsonArrowSchema): arrow.Schema {
  const metadata = s.metadata ? new Map(Object.entries(s.metadata)) : undefined
  return new arrow.Schema(s.fields.map(fieldFromJson), metadata)
}

/** Readable field list for the UI: the same words as the directory client (src/core/arrow). */
export { schemaFields as describeFields } from '../../arrow'
