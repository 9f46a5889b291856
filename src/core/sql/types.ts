import {
  ARRAY,
  BIGINT,
  BLOB,
  BOOLEAN,
  DATE,
  DECIMAL,
  DOUBLE,
  FLOAT,
  INTEGER,
  LIST,
  SMALLINT,
  STRUCT,
  TIME,
  TIMESTAMP,
  TIMESTAMP_MS,
  TIMESTAMP_NS,
  TIMESTAMP_S,
  TIMESTAMPTZ,
  TINYINT,
  UBIGINT,
  UINTEGER,
  USMALLINT,
  UTINYINT,
  VARCHAR,
  type DuckDBType,
} from '@duckdb/node-api'
import { DataType, TimeUnit, Type, type Field } from 'apache-arrow'
import { AppError } from '../../contract'

/**
 * Lance (Arrow) types as DuckDB types, exactly: int64 and uint64 stay 64-bit integers, decimals keep their precision
 * and scale, timestamps their unit (a zone makes `TIMESTAMPTZ`, which DuckDB keeps in microseconds), fixed-size lists
 * become arrays (`FLOAT[d]`: `array_cosine_similarity` works on vectors), lists, structs, binary as `BLOB`.
 */
export function duckTypeOf(type: DataType, column: string): DuckDBType {
  switch (type.typeId) {
    case Type.Bool:
      return BOOLEAN
    case Type.Int: {
      const { bitWidth, isSigned } = type as unknown as { bitWidth: number; isSigned: boolean }
      const signed = { 8: TINYINT, 16: SMALLINT, 32: INTEGER, 64: BIGINT } as const
      const unsigned = { 8: UTINYINT, 16: USMALLINT, 32: UINTEGER, 64: UBIGINT } as const
      return (isSigned ? signed : unsigned)[bitWidth as 8 | 16 | 32 | 64]
    }
    case Type.Float: {
      const { precision } = type as unknown as { precision: number }
      // Half floats have no DuckDB type: they widen to FLOAT (exact).
      return precision === 2 ? DOUBLE : FLOAT
    }
    case Type.Utf8:
    case Type.LargeUtf8:
      return VARCHAR
    case Type.Binary:
    case Type.LargeBinary:
    case Type.FixedSizeBinary:
      return BLOB
    case Type.Date:
      return DATE
    case Type.Time:
      return TIME
    case Type.Timestamp: {
      const { unit, timezone } = type as unknown as { unit: TimeUnit; timezone: string | null }
      if (timezone) return TIMESTAMPTZ
      return unit === TimeUnit.SECOND ? TIMESTAMP_S : unit === TimeUnit.MILLISECOND ? TIMESTAMP_MS : unit === TimeUnit.NANOSECOND ? TIMESTAMP_NS : TIMESTAMP
    }
    case Type.Decimal: {
      const { precision, scale, bitWidth } = type as unknown as { precision: number; scale: number; bitWidth: number }
      if (bitWidth !== 128 || precision > 38) throw new AppError('unsupported', `Column "${column}" is a ${precision}-digit decimal; SQL reads decimals of at most 38 digits`)
      return DECIMAL(precision, scale)
    }
    case Type.FixedSizeList: {
      const child = (type as unknown as { children: Field[]; listSize: number })
      return ARRAY(duckTypeOf(child.children[0]!.type, column), child.listSize)
    }
    case Type.List:
      return LIST(duckTypeOf((type as unknown as { children: Field[] }).children[0]!.type, column))
    case Type.Struct: {
      const entries: Record<string, DuckDBType> = {}
      for (const child of (type as unknown as { children: Field[] }).children) entries[child.name] = duckTypeOf(child.type, `${column}.${child.name}`)
      return STRUCT(entries)
    }
    case Type.Dictionary:
      return duckTypeOf((type as unknown as { dictionary: DataType }).dictionary, column)
    default:
      throw new AppError('unsupported', `Column "${column}" has the type ${String(type)}, which SQL cannot read yet`, { hint: 'Leave the column out of the query (name the columns you need)' })
  }
}

/** A name as a DuckDB identifier, always quoted (so any name, keywords and spaces included, reads as itself). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}
