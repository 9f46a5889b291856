import { DataType, DateUnit, IntervalUnit, TimeUnit, type Field, type Schema } from 'apache-arrow'
import type { FieldInfo } from '../../contract'

/**
 * Readable Arrow type names for people, e.g. `Int64`, `Utf8`, `Timestamp<MICROSECOND, UTC>`,
 * `FixedSizeList<Float32>[128]`, `List<Utf8>`, `Struct<a: Int32, b: Utf8>`.
 * apache-arrow's own `toString()` is close but inconsistent (`Float32` vs `Float64`, `Struct<{a:Int32}>`,
 * `FixedSizeList[128]<Float32>`), so we spell every kind ourselves. The type predicates
 * (`DataType.isInt` …) compare type ids, so a schema built by another copy of apache-arrow works too.
 */
export function formatType(type: DataType): string {
  if (DataType.isNull(type)) return 'Null'
  if (DataType.isInt(type)) return `${type.isSigned ? 'Int' : 'UInt'}${type.bitWidth}`
  if (DataType.isFloat(type)) return `Float${[16, 32, 64][type.precision] ?? '?'}`
  if (DataType.isBool(type)) return 'Bool'
  if (DataType.isUtf8(type)) return 'Utf8'
  if (DataType.isLargeUtf8(type)) return 'LargeUtf8'
  if (DataType.isBinary(type)) return 'Binary'
  if (DataType.isLargeBinary(type)) return 'LargeBinary'
  if (DataType.isFixedSizeBinary(type)) return `FixedSizeBinary[${type.byteWidth}]`
  if (DataType.isDecimal(type)) return `Decimal${type.bitWidth}(${type.precision}, ${type.scale})`
  if (DataType.isDate(type)) return type.unit === DateUnit.DAY ? 'Date32' : 'Date64'
  if (DataType.isTime(type)) return `Time${type.bitWidth}<${TimeUnit[type.unit]}>`
  if (DataType.isTimestamp(type)) return `Timestamp<${TimeUnit[type.unit]}${type.timezone ? `, ${type.timezone}` : ''}>`
  if (DataType.isDuration(type)) return `Duration<${TimeUnit[type.unit]}>`
  if (DataType.isInterval(type)) return `Interval<${IntervalUnit[type.unit]}>`
  if (DataType.isList(type)) return `List<${formatType(type.children[0]!.type)}>`
  if (DataType.isFixedSizeList(type)) return `FixedSizeList<${formatType(type.children[0]!.type)}>[${type.listSize}]`
  if (DataType.isStruct(type)) return `Struct<${type.children.map((f) => `${f.name}: ${formatType(f.type)}`).join(', ')}>`
  if (DataType.isMap(type)) {
    const entries = type.children[0]?.type.children ?? []
    return `Map<${entries.map((f) => formatType(f.type)).join(', ')}>`
  }
  if (DataType.isDictionary(type)) return `Dictionary<${formatType(type.indices)}, ${formatType(type.dictionary)}>`
  if (DataType.isUnion(type)) return `Union<${type.children.map((f) => `${f.name}: ${formatType(f.type)}`).join(', ')}>`
  return String(type)
}

/** A vector column is a fixed-size list of floats; its dimension is the list size. */
export function vectorDimension(type: DataType): number | undefined {
  if (!DataType.isFixedSizeList(type)) return undefined
  const child = type.children[0]?.type
  return child && DataType.isFloat(child) ? type.listSize : undefined
}

export function fieldInfo(field: Field): FieldInfo {
  const info: FieldInfo = { name: field.name, type: formatType(field.type), nullable: field.nullable }
  const dimension = vectorDimension(field.type)
  if (dimension !== undefined) info.vectorDimension = dimension
  // Nested fields get their own rows in the schema panel; a vector's single float child says nothing new.
  if ((DataType.isStruct(field.type) || DataType.isList(field.type) || DataType.isMap(field.type)) && field.type.children.length > 0) {
    info.children = field.type.children.map((child: Field) => fieldInfo(child))
  }
  return info
}

export function schemaFields(schema: Schema): FieldInfo[] {
  return schema.fields.map((field) => fieldInfo(field))
}
