import { DataType, type Field } from 'apache-arrow'
import { arrowZones } from '../readers/parquet'
import { typeName } from '../schema'
import type { BatchSource } from '../source'
import type { ColumnNote } from './protocol'

/** Columns named at most, so a file of a million columns does not make a message of them (only words need them). */
const MAX_NOTES = 1000

/**
 * The columns of an open file as words can name them, with each timestamp's zone as the file's writer declared it.
 * A Parquet file's types come from its own schema, where a zone is only "adjusted to UTC"; the zone itself (what
 * polars reads, and may stop on) is in the Arrow schema its writer kept in the metadata (`ARROW:schema`).
 */
export async function columnNotes(source: BatchSource, path: string): Promise<ColumnNote[]> {
  const zones = source.format === 'parquet' ? await parquetArrowZones(path).catch(() => new Map<string, string>()) : new Map<string, string>()
  const notes: ColumnNote[] = []
  const walk = (field: Field, prefix: string) => {
    if (notes.length >= MAX_NOTES) return
    const name = prefix + field.name
    const zone = zones.get(name) ?? (DataType.isTimestamp(field.type) ? (field.type.timezone ?? undefined) : undefined)
    notes.push({ name, type: typeName(field.type), ...(zone ? { zone } : {}) })
    if (DataType.isStruct(field.type)) for (const child of field.type.children) walk(child, `${name}.`)
  }
  for (const field of source.schema.fields) walk(field, '')
  return notes
}

/** Column (dotted path) → timestamp zone, from a Parquet file's `ARROW:schema` metadata. */
async function parquetArrowZones(path: string): Promise<Map<string, string>> {
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet')
  return arrowZones(await parquetMetadataAsync(await asyncBufferFromFile(path)))
}
