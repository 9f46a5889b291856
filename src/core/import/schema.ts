import {
  DataType,
  Field,
  FixedSizeList,
  Float32,
  List,
  Schema,
  Struct,
  Map_,
} from 'apache-arrow'
import { AppError, type FieldInfo, type SchemaDiff } from '../../contract'

/** Readable type name for people, e.g. `FixedSizeList<Float32>[768]`, `List<Utf8>`, `Struct<a: Int64>`. */
export function typeName(type: DataType): string {
  if (DataType.isFixedSizeList(type)) return `FixedSizeList<${typeName(type.children[0]!.type)}>[${type.listSize}]`
  if (DataType.isList(type)) return `List<${typeName(type.children[0]!.type)}>`
  if (DataType.isStruct(type)) return `Struct<${type.children.map((c) => `${c.name}: ${typeName(c.type)}`).join(', ')}>`
  if (DataType.isDictionary(type)) return `Dictionary<${typeName(type.dictionary)}>`
  return String(type)
}

export function vectorDimension(type: DataType): number | undefined {
  if (DataType.isFixedSizeList(type) && DataType.isFloat(type.children[0]!.type)) return type.listSize
  return undefined
}

export function fieldInfo(field: Field): FieldInfo {
  const info: FieldInfo = { name: field.name, type: typeName(field.type), nullable: field.nullable }
  const dim = vectorDimension(field.type)
  if (dim !== undefined) info.vectorDimension = dim
  if (DataType.isStruct(field.type)) info.children = field.type.children.map(fieldInfo)
  return info
}

export function schemaInfo(schema: Schema): FieldInfo[] {
  return schema.fields.map(fieldInfo)
}

/** The vector type import writes for an accepted candidate. */
export function vectorType(dimension: number): FixedSizeList<Float32> {
  return new FixedSizeList(dimension, new Field('item', new Float32(), true))
}

/**
 * Lance refuses a few Arrow types (measured: Interval, Union). Refuse them before anything is
 * written, naming the column, instead of failing mid-import with an engine message.
 */
export function assertWritable(schema: Schema): void {
  if (schema.fields.length === 0) {
    throw new AppError('invalid_input', 'The file has no columns', { hint: 'A table needs at least one column' })
  }
  const names = new Set<string>()
  for (const field of schema.fields) {
    if (names.has(field.name)) {
      throw new AppError('invalid_input', `The file has two columns named "${field.name}"`, { hint: 'Rename one of them and import again' })
    }
    names.add(field.name)
    if (field.name === '') throw new AppError('invalid_input', 'The file has a column with an empty name')
    checkType(field.name, field.type)
  }
}

function checkType(path: string, type: DataType): void {
  if (DataType.isUnion(type) || DataType.isInterval(type)) {
    throw new AppError('unsupported', `Lance cannot store column \`${path}\` of type ${typeName(type)}`, {
      hint: 'No lossless conversion exists; convert or drop that column, then import again',
    })
  }
  if (DataType.isFixedSizeList(type) && !(type.listSize >= 1)) {
    throw new AppError('unsupported', `Column "${path}" is a fixed-size list of ${type.listSize} values, which Lance tables cannot store`, {
      hint: 'The file may be damaged; export it again',
    })
  }
  if (DataType.isDictionary(type)) return checkType(path, type.dictionary)
  for (const child of (type.children ?? []) as Field[]) checkType(`${path}.${child.name}`, child.type)
}

/**
 * Dictionary columns are decoded to their value type: LanceDB re-encodes each chunk as an Arrow
 * *file*, and the file format refuses the replacement dictionaries that differ per batch.
 */
export function withoutDictionaries(schema: Schema): Schema {
  if (!schema.fields.some((f) => hasDictionary(f.type))) return schema
  return new Schema(schema.fields.map((f) => new Field(f.name, decodedType(f.type), f.nullable, f.metadata)), schema.metadata)
}

export function hasDictionary(type: DataType): boolean {
  if (DataType.isDictionary(type)) return true
  return ((type.children ?? []) as Field[]).some((c) => hasDictionary(c.type))
}

function decodedType(type: DataType): DataType {
  if (DataType.isDictionary(type)) return decodedType(type.dictionary)
  if (DataType.isList(type)) {
    const c = type.children[0]!
    return new List(new Field(c.name, decodedType(c.type), c.nullable))
  }
  if (DataType.isFixedSizeList(type)) {
    const c = type.children[0]!
    return new FixedSizeList(type.listSize, new Field(c.name, decodedType(c.type), c.nullable))
  }
  if (DataType.isStruct(type)) {
    return new Struct(type.children.map((c) => new Field(c.name, decodedType(c.type), c.nullable)))
  }
  if (DataType.isMap(type)) {
    const c = type.children[0]!
    return new Map_(new Field(c.name, decodedType(c.type), c.nullable) as Field<Struct<{ key: DataType; value: DataType }>>, type.keysSorted)
  }
  return type
}

/** Compare a file's schema with a table's, by column name (order does not matter for append). */
export function schemaDiff(table: Schema, file: Schema): SchemaDiff {
  const fileFields = new Map(file.fields.map((f) => [f.name, f]))
  const tableFields = new Map(table.fields.map((f) => [f.name, f]))
  const diff: SchemaDiff = { missing: [], extra: [], changed: [] }
  for (const f of table.fields) {
    const other = fileFields.get(f.name)
    if (!other) diff.missing.push(f.name)
    else if (!sameType(f.type, other.type)) diff.changed.push({ column: f.name, table: typeName(f.type), file: typeName(other.type) })
  }
  for (const f of file.fields) if (!tableFields.has(f.name)) diff.extra.push(f.name)
  return diff
}

export function isEmptyDiff(diff: SchemaDiff): boolean {
  return diff.missing.length === 0 && diff.extra.length === 0 && diff.changed.length === 0
}

/** Type equality ignoring child field names and nullability (writers name list items differently). */
export function sameType(a: DataType, b: DataType): boolean {
  if (a.typeId !== b.typeId) return false
  if (DataType.isFixedSizeList(a) && DataType.isFixedSizeList(b) && a.listSize !== b.listSize) return false
  if (DataType.isStruct(a) && DataType.isStruct(b)) {
    if (a.children.length !== b.children.length) return false
    return a.children.every((c, i) => c.name === b.children[i]!.name && sameType(c.type, b.children[i]!.type))
  }
  const ac = (a.children ?? []) as Field[]
  const bc = (b.children ?? []) as Field[]
  if (ac.length !== bc.length) return false
  if (!ac.every((c, i) => sameType(c.type, bc[i]!.type))) return false
  // Parameters (bit width, unit, time zone, precision) show in the string form.
  return ac.length > 0 || String(a) === String(b)
}

export function describeDiff(diff: SchemaDiff): string {
  const parts: string[] = []
  if (diff.missing.length) parts.push(`the file lacks ${diff.missing.map((c) => `"${c}"`).join(', ')}`)
  if (diff.extra.length) parts.push(`the table lacks ${diff.extra.map((c) => `"${c}"`).join(', ')}`)
  for (const c of diff.changed) parts.push(`"${c.column}" is ${c.file} in the file but ${c.table} in the table`)
  return parts.join('; ')
}
