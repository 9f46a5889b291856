import { rm, stat } from 'node:fs/promises'
import type { RecordBatch, Schema } from 'apache-arrow'
import { batchFromData } from '../build'
import type { CsvKind } from '../infer'
import { throwIfAborted } from '../readers/errors'
import { csvWindowBytes, csvWindowFiles } from './csvWindows'
import { loadPolars, makeNativeFolder, nativeRows, sinkBatches, type LazyFrame, type Polars } from './polars'

/** What the JS reader decided about a CSV file (from its header and inference sample), for polars to follow. */
export interface CsvPlan {
  path: string
  /** The file's first bytes (decompressed): a file starting with an empty line is left to the JS reader. */
  head: Buffer
  delimiter: string
  /** Column names as the JS reader made them unique. */
  names: string[]
  kinds: CsvKind[]
  /** Number columns where a later `007` must stop the import (leading zeros would be lost). */
  guardZeros: boolean[]
  schema: Schema
}

/** The column kinds the native reader parses exactly as the JS reader does. */
const NATIVE_KINDS: ReadonlySet<CsvKind> = new Set(['empty', 'string', 'int', 'float', 'bool', 'date', 'ts'])

/** Polars reads `^…$` names as regular expressions and `*` as every column. */
const SPECIAL_NAME = /^\^.*\$$|^\*$/

/** polars when it is here and the file is one it reads exactly like the JS reader (UTF-8, uncompressed, …); else null. */
export function nativeCsvReader(plan: CsvPlan, encoding: string, compressed: boolean): Polars | null {
  if (compressed || encoding !== 'utf-8') return null
  if (!plan.kinds.every((k) => NATIVE_KINDS.has(k))) return null
  if (plan.names.some((n) => SPECIAL_NAME.test(n))) return null
  if (Buffer.byteLength(plan.delimiter) !== 1) return null
  // csv-parse skips empty lines before the header; polars would take the empty line as the header.
  const start = plan.head[0] === 0xef && plan.head[1] === 0xbb && plan.head[2] === 0xbf ? 3 : 0
  if (plan.head[start] === 0x0a || plan.head[start] === 0x0d) return null
  return loadPolars()
}

// The JS reader's rules (infer.ts, csvColumns.ts) as Rust regular expressions; the guarded forms refuse leading zeros.
const INT = String.raw`^[-+]?\d{1,19}$`
const INT_GUARDED = String.raw`^[-+]?(0|[1-9]\d{0,18})$`
const FLOAT = String.raw`(?i)^[-+]?(\d+\.?\d*([e][-+]?\d+)?|\.\d+([e][-+]?\d+)?|inf|infinity|nan)$`
const FLOAT_GUARDED = String.raw`(?i)^[-+]?((0|[1-9]\d*)(\.\d*)?([e][-+]?\d+)?|\.\d+([e][-+]?\d+)?|inf|infinity|nan)$`
const BOOL = String.raw`(?i)^(true|false)$`
// Years from 1000 (JS dates read years below 100 as 19xx); seconds below 60 (chrono takes 60 as a leap second).
const DATE = String.raw`^[1-9]\d{3}-\d{2}-\d{2}$`
const TS = String.raw`^[1-9]\d{3}-\d{2}-\d{2}[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?$`

const FLAG = '__lcb_unsure'

/**
 * The CSV file parsed by polars (native, multi-threaded) into the plan's schema, batch by batch. Every cell is read
 * as text and converted by polars expressions that accept exactly what the JS reader accepts and give the same
 * values; any row polars is not sure about is flagged: a cell that does not fit its column's rules, a quote inside a
 * text cell (polars and csv-parse differ on malformed quoting), an empty or missing last field (polars pads a short
 * row with nulls where csv-parse refuses it; an empty line is such a row). The generator yields the rows before the
 * first flagged one and returns that row's index (null when the whole file was read): the JS reader takes over there,
 * and applies its own rules and error messages. polars' own errors (e.g. a row with too many fields) are thrown;
 * the caller takes over with the JS reader at the rows delivered so far.
 */
export async function* nativeCsvBatches(pl: Polars, plan: CsvPlan, signal?: AbortSignal): AsyncGenerator<RecordBatch, number | null> {
  const { names, kinds, guardZeros, schema } = plan
  const text: Record<string, unknown> = {}
  for (const name of names) text[name] = pl.Utf8
  const values: unknown[] = []
  const unsure: unknown[] = []
  names.forEach((name, i) => {
    const c = pl.col(name)
    const matches = (re: string) => c.str.contains(re, false, false).fillNull(true)
    const present = c.isNotNull()
    const flag = (ok: unknown) => present.and((ok as { not(): unknown }).not())
    switch (kinds[i]) {
      case 'int': {
        const v = c.cast(pl.Int64, false)
        values.push(v.alias(name))
        unsure.push(flag(matches(guardZeros[i] ? INT_GUARDED : INT).and(v.isNotNull())))
        break
      }
      case 'float': {
        const v = c.cast(pl.Float64, false)
        values.push(v.alias(name))
        unsure.push(flag(matches(guardZeros[i] ? FLOAT_GUARDED : FLOAT).and(v.isNotNull())))
        break
      }
      case 'bool':
        values.push(c.str.toLowerCase().eq(pl.lit('true')).alias(name))
        unsure.push(flag(matches(BOOL)))
        break
      case 'date': {
        const v = c.str.strptime(pl.Date, '%Y-%m-%d')
        values.push(v.alias(name))
        unsure.push(flag(matches(DATE).and(v.isNotNull())))
        break
      }
      case 'ts': {
        const v = c.str.replace('T', ' ', true).str.strptime(pl.Datetime('ms'), '%Y-%m-%d %H:%M:%S%.f').cast(pl.Datetime('us'))
        values.push(v.alias(name))
        unsure.push(flag(matches(TS).and(v.isNotNull())))
        break
      }
      default:
        // Text: an empty cell is null (csv-parse makes `""` and an empty field alike).
        values.push(pl.when(c.eq(pl.lit(''))).then(pl.lit(null)).otherwise(c).alias(name))
        unsure.push(c.str.contains('"', true, false).fillNull(false))
    }
  })
  unsure.push(pl.col(names[names.length - 1]!).isNull())
  // Every window is scanned with the plan's column names and types: none is inferred again.
  const query = (path: string) =>
    pl
      .scanCSV(path, { hasHeader: true, sep: plan.delimiter, quoteChar: '"', schema: text, missingUtf8IsEmptyString: false, rechunk: false })
      .select(...values, pl.anyHorizontal(unsure).alias(FLAG))
  const types = schema.fields.map((f) => String(f.type))
  let rows = 0
  const windowBytes = csvWindowBytes()
  if ((await stat(plan.path)).size <= windowBytes) {
    return yield* keptRows(query(plan.path))
  }
  // Larger files in windows of whole rows, each its own file polars maps (and unmaps when done with it).
  const folder = await makeNativeFolder()
  const windows = csvWindowFiles(plan.path, windowBytes, folder)
  const writeNext = async (): Promise<string | null> => {
    const step = await windows.next()
    return step.done ? null : step.value
  }
  let next: Promise<string | null> | null = null
  try {
    next = writeNext()
    for (;;) {
      const file = await next
      if (file === null) return null
      // The next window is cut and written while polars parses this one.
      next = writeNext()
      next.catch(() => undefined)
      const flagged = yield* keptRows(query(file), folder)
      await rm(file, { force: true })
      if (flagged !== null) return flagged
    }
  } finally {
    await next?.catch(() => undefined)
    await windows.return(undefined)
    await rm(folder, { recursive: true, force: true }).catch(() => undefined)
  }

  /** The query's rows up to the first flagged one; that row's index in the file, or null when none was flagged. */
  async function* keptRows(query: LazyFrame, folder?: string): AsyncGenerator<RecordBatch, number | null> {
    for await (const batch of sinkBatches(query, folder)) {
      throwIfAborted(signal)
      const got = batch.schema.fields.map((f) => String(f.type))
      if (got.length !== types.length + 1 || types.some((t, i) => t !== got[i])) {
        throw new Error(`polars made the columns ${got.join(', ')}`)
      }
      const flags = batch.data.children[types.length]!
      const first = firstTrue(flags.values as Uint8Array, flags.nullCount > 0 ? (flags.nullBitmap ?? null) : null, batch.numRows)
      const keep = first ?? batch.numRows
      nativeRows.csv += keep
      if (keep > 0) {
        const out = batchFromData(schema, batch.data.children.slice(0, types.length), batch.numRows)
        yield keep === batch.numRows ? out : out.slice(0, keep)
      }
      rows += keep
      if (first !== null) return rows
    }
    return null
  }
}

/** The index of the first true (non-null) value of a boolean column's buffers, or null. */
function firstTrue(bits: Uint8Array, validity: Uint8Array | null, length: number): number | null {
  for (let byte = 0; byte * 8 < length; byte++) {
    const set = bits[byte]! & (validity ? validity[byte]! : 0xff)
    if (set === 0) continue
    for (let bit = 0; bit < 8; bit++) {
      const r = byte * 8 + bit
      if (r < length && set & (1 << bit)) return r
    }
  }
  return null
}
