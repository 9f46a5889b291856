import { DataType, type Field, type Schema } from 'apache-arrow'
import { AppError, ROW_OFFSET_COLUMN, type TableViewSpec } from '../../contract'

/**
 * Check every column a view names against the table's schema before any query runs, so a typo is a clear
 * `invalid_input` naming the column (not a Lance stack). Predicates are not parsed here: Lance reports those.
 */
export function assertViewMatchesSchema(view: TableViewSpec, schema: Schema): void {
  const byName = new Map(schema.fields.map((f) => [f.name, f]))
  const known = (column: string, role: string): Field => {
    const field = byName.get(column)
    if (!field) throw new AppError('invalid_input', `Unknown column "${shorten(column)}" in the ${role}`, { hint: `Columns: ${listNames(schema)}` })
    return field
  }
  for (const key of view.sort ?? []) known(key.column, 'sort')
  for (const column of view.columns ?? []) known(column, 'column list')
  // A row set's key list is on Lance's row-position column, in no schema.
  if (view.keys && view.keys.column !== ROW_OFFSET_COLUMN) known(view.keys.column, 'key list')
  const search = view.search
  if (search?.kind === 'vector') {
    const field = known(search.column, 'vector search')
    const dimension = vectorDimensionOf(field)
    if (dimension === undefined) throw new AppError('invalid_input', `Column "${shorten(search.column)}" is not a vector column (a fixed-size list of floats)`)
    if (dimension !== search.vector.length)
      throw new AppError('invalid_input', `The vector has ${search.vector.length} dimensions, but column "${shorten(search.column)}" holds ${dimension}-d vectors`)
  } else if (search?.kind === 'fts') {
    for (const column of search.columns ?? []) known(column, 'text search')
  }
}

/** The dimension of a vector column (FixedSizeList of floats), else undefined. */
export function vectorDimensionOf(field: Field): number | undefined {
  const type = field.type
  if (!DataType.isFixedSizeList(type)) return undefined
  const child = type.children[0]?.type
  return child && DataType.isFloat(child) ? type.listSize : undefined
}

/** Vector columns of a schema, with their dimension. */
export function vectorColumns(schema: Schema): { name: string; dimension: number }[] {
  return schema.fields.flatMap((f) => {
    const dimension = vectorDimensionOf(f)
    return dimension === undefined ? [] : [{ name: f.name, dimension }]
  })
}

function shorten(name: string): string {
  return name.length > 80 ? `${name.slice(0, 80)}…` : name
}

function listNames(schema: Schema): string {
  const names = schema.fields.map((f) => f.name)
  return names.length > 20 ? `${names.slice(0, 20).join(', ')}, …` : names.join(', ')
}
