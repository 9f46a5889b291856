import { Field, Timestamp } from 'apache-arrow'

/**
 * The field metadata key that keeps a timestamp column's zone as its file declared it, when import normalised the
 * column to UTC (its instants unchanged: an Arrow timestamp counts from the epoch in UTC whatever its zone).
 */
export const ORIGINAL_ZONE_KEY = 'lcb:original_timezone'

/**
 * Whether a timestamp zone can be written as it is: `UTC` or a zone name of the IANA database as it spells it
 * (`Asia/Kolkata`, `Etc/GMT-5`, `EST`). Everything else is normalised to UTC on import:
 * - offsets (`+05:30`, `+00:00`): Lance panics on a zone holding a colon ("Unsupported timestamp type:
 *   timestamp:ms:+05:30", lance-core 8 splits its type string on colons), and the app's other readers — polars,
 *   the browser's Intl that the grid formats with — do not know offsets (`+0530`, `UTC+01`) at all;
 * - names no database knows (`Mars/Olympus`) or spelled otherwise (`utc`: arrow-rs and polars read zone names
 *   case-sensitively, Intl does not): Lance stores them, but a filter or a polars read of that table would fail.
 */
export function keepsZone(zone: string): boolean {
  if (zone === 'UTC') return true
  if (!/^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/.test(zone) || /^(UTC|GMT)[+-]/.test(zone)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** A timestamp type with a zone import does not keep, as the same unit in UTC; null when it is kept as it is. */
export function normalisedZone(type: Timestamp): Timestamp | null {
  const zone = type.timezone
  if (zone === null || zone === undefined || keepsZone(zone)) return null
  return new Timestamp(type.unit, 'UTC')
}

/** The field (a normalised timestamp) with its file's zone kept in its metadata under {@link ORIGINAL_ZONE_KEY}. */
export function withOriginalZone(field: Field, zone: string): Field {
  const metadata = new Map(field.metadata)
  metadata.set(ORIGINAL_ZONE_KEY, zone)
  return new Field(field.name, field.type, field.nullable, metadata)
}

/** The sheet's words for a normalised column. */
export function zoneNote(zone: string): string {
  return `the same instants, stored in UTC; the file's zone ${zone} is kept in the column's metadata (${ORIGINAL_ZONE_KEY})`
}
