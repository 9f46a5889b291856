import { Field, Float32, Schema } from 'apache-arrow'
import { AppError, type TableViewSpec } from '../../contract'

/** The columns a view's result has: its projection (or every column), plus `_distance` or `_score` for a search. */
export function viewSchema(schema: Schema, view: TableViewSpec): Schema {
  const fields = view.columns
    ? view.columns.map((name) => {
        const field = schema.fields.find((f) => f.name === name)
        if (!field) throw new AppError('invalid_input', `Unknown column "${name}"`)
        return field
      })
    : [...schema.fields]
  if (view.search?.kind === 'vector') fields.push(new Field('_distance', new Float32(), true))
  if (view.search?.kind === 'fts') fields.push(new Field('_score', new Float32(), true))
  return new Schema(fields, schema.metadata)
}
