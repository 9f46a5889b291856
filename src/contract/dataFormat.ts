import { z } from 'zod'

/**
 * The Lance data file format a new table is written in (Lance's `data_storage_version`). Older LanceDB releases
 * cannot read newer formats, so a catalog shared with an older pipeline needs its new tables in a format that
 * pipeline reads. The formats the app offers are those lancedb 0.31 (ours) writes as stable.
 */
export const dataFormats = ['legacy', '2.0', '2.1'] as const
export const dataFormatSchema = z.enum(dataFormats)
export type DataFormat = z.infer<typeof dataFormatSchema>

/** The format when the catalog has no tables to follow (lancedb 0.31's own default). */
export const DEFAULT_DATA_FORMAT: DataFormat = '2.1'

/**
 * Which releases read each format, as tried on this machine (each release installed from npm, reading tables our
 * lancedb wrote; /work/shared/reference/lance-writers.md): vectordb 0.4.20 reads legacy only (2.0: a panic, 2.1:
 * "lance v0.2 reader"), vectordb 0.21.2 panics on 2.1, lancedb 0.22.3 reads 2.1.
 */
export const DATA_FORMAT_READERS: Record<DataFormat, { label: string; short: string; readers: string; notReaders: string | null }> = {
  legacy: { label: 'Legacy (v1)', short: 'every release, vectordb 0.4.x too', readers: 'every release: vectordb 0.4.x and 0.21.x, lancedb 0.22, 0.31 (this app) and 0.39', notReaders: null },
  '2.0': { label: '2.0', short: 'vectordb 0.21.x, lancedb 0.22 and later', readers: 'vectordb 0.21.x, lancedb 0.22, 0.31 (this app) and 0.39', notReaders: 'vectordb 0.4.x' },
  '2.1': { label: '2.1', short: 'lancedb 0.22 and later', readers: 'lancedb 0.22, 0.31 (this app) and 0.39', notReaders: 'vectordb 0.4.x and 0.21.x' },
}

/** A format's option text, e.g. `2.0 — vectordb 0.21.x, lancedb 0.22 and later`. */
export function dataFormatOption(format: DataFormat): string {
  const r = DATA_FORMAT_READERS[format]
  return `${r.label} — ${r.short}`
}

/** Who reads a format, in a sentence: `Read by …; not by ….` */
export function dataFormatReaders(format: DataFormat): string {
  const r = DATA_FORMAT_READERS[format]
  return `Read by ${r.readers}${r.notReaders ? `; not by ${r.notReaders}` : ''}.`
}

/** The formats of a catalog's tables, and the one new tables take unless the user picks another. */
export interface CatalogDataFormats {
  /** The majority format among the tables read (ties: the older format, which more releases read); 2.1 when none. */
  default: DataFormat
  /** Tables read per format as Lance names it (`legacy`, `2.0`, `2.1`, `2.2`, …). */
  counts: Record<string, number>
  /** Tables whose format was read (up to a limit: see `limited`). */
  tablesRead: number
  /** More tables exist than were read (the majority is of the first ones listed). */
  limited: boolean
  /** The app can choose the format of new tables here (false: a REST server creates its tables itself). */
  choosable: boolean
  /** Why the formats could not be read (a REST catalog, object storage), when they could not. */
  unknownReason?: string
}
