import {
  arrayValue,
  blobValue,
  dateValue,
  decimalValue,
  listValue,
  structValue,
  timestampMillisValue,
  timestampNanosValue,
  timestampSecondsValue,
  timestampTZValue,
  timestampValue,
  timeValue,
  type DuckDBValue,
} from '@duckdb/node-api'
import { makeVector, TimeUnit, Type, type Data, type DataType, type Field } from 'apache-arrow'

/**
 * One Arrow value as a DuckDB value, for the columns the hand-over does not copy as bytes (lists, structs, vectors of
 * nested or nullable values, times, large strings). Slower than the byte copies, and rare.
 */
export function duckValueOf(data: Data, row: number): DuckDBValue {
  return convert(data.type, makeVector(data).get(row))
}

function convert(type: DataType, value: unknown): DuckDBValue {
  if (value === null || value === undefined) return null
  switch (type.typeId) {
    case Type.Int:
      return typeof value === 'bigint' || typeof value === 'number' ? value : Number(value)
    case Type.Float:
    case Type.Bool:
    case Type.Utf8:
    case Type.LargeUtf8:
      return value as DuckDBValue
    case Type.Binary:
    case Type.LargeBinary:
    case Type.FixedSizeBinary:
      return blobValue(value as Uint8Array)
    case Type.Date:
      // apache-arrow reads dates as epoch milliseconds.
      return dateValue(Math.floor(Number(value) / 86_400_000))
    case Type.Time: {
      const { unit } = type as unknown as { unit: TimeUnit }
      const n = BigInt(value as number | bigint)
      return timeValue(unit === TimeUnit.SECOND ? n * 1_000_000n : unit === TimeUnit.MILLISECOND ? n * 1000n : unit === TimeUnit.NANOSECOND ? n / 1000n : n)
    }
    case Type.Timestamp: {
      // apache-arrow reads timestamps as epoch milliseconds (a number): exact to the millisecond only, so the byte
      // copy (handover.ts) is the path for top-level columns; here are timestamps inside lists and structs.
      const { unit, timezone } = type as unknown as { unit: TimeUnit; timezone: string | null }
      const ms = BigInt(Math.round(Number(value)))
      if (timezone) return timestampTZValue(ms * 1000n)
      return unit === TimeUnit.SECOND ? timestampSecondsValue(ms / 1000n) : unit === TimeUnit.MILLISECOND ? timestampMillisValue(ms) : unit === TimeUnit.NANOSECOND ? timestampNanosValue(ms * 1_000_000n) : timestampValue(ms * 1000n)
    }
    case Type.Decimal: {
      const { precision, scale } = type as unknown as { precision: number; scale: number }
      const words = value as Uint32Array
      let big = 0n
      for (let i = words.length - 1; i >= 0; i--) big = (big << 32n) | BigInt(words[i]!)
      if (words.length === 4 && words[3]! & 0x8000_0000) big -= 1n << 128n
      return decimalValue(big, precision, scale)
    }
    case Type.FixedSizeList:
    case Type.List: {
      const child = (type as unknown as { children: Field[] }).children[0]!.type
      const items = [...(value as Iterable<unknown>)].map((item) => convert(child, item))
      return type.typeId === Type.FixedSizeList ? arrayValue(items) : listValue(items)
    }
    case Type.Struct: {
      const entries: Record<string, DuckDBValue> = {}
      const row = value as Record<string, unknown>
      for (const child of (type as unknown as { children: Field[] }).children) entries[child.name] = convert(child.type, row[child.name])
      return structValue(entries)
    }
    case Type.Dictionary:
      return convert((type as unknown as { dictionary: DataType }).dictionary, value)
    default:
      return String(value)
  }
}
