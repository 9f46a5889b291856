import { stat } from 'node:fs/promises'
import { Bool, DateDay, Field, Float64, Int64, Schema, TimeUnit, Timestamp, Utf8, type DataType, type RecordBatch } from 'apache-arrow'
import { AppError, type ImportColumnInfo, type ImportColumnType } from '../../../contract'
import { MISMATCH, batchFromColumns, coerce } from '../build'
import { JsonColumnInference, toArrowType, type Inferred } from '../infer'
import { typeName } from '../schema'
import { DEFAULT_BATCH_ROWS, DEFAULT_INFER_ROWS, type BatchSource, type OpenOptions } from '../source'
import { MAX_COLUMNS, MAX_NESTED_TYPE_DEPTH, tooManyColumns } from '../../limits'
import { readSample, rowBatches } from './rowBatches'


const JSON_CHOICES: ImportColumnType[] = ['text', 'integer', 'float', 'boolean']
/** A date column can stay a timestamp (or a date: days) or become its ISO text. */
const TIME_CHOICES: ImportColumnType[] = ['date', 'timestamp', 'text']

function choiceOf(inferred: Inferred): ImportColumnType | null {
  switch (inferred.kind) {
    case 'null':
    case 'string':
      return 'text'
    case 'int':
      return 'integer'
    case 'float':
      return 'float'
    case 'bool':
      return 'boolean'
    case 'time':
      return 'timestamp'
    case 'date':
      return 'date'
    default:
      return null
  }
}

function typeOfChoice(choice: ImportColumnType, fileName: string, column: string): DataType {
  if (choice === 'text') return new Utf8()
  if (choice === 'integer') return new Int64()
  if (choice === 'float') return new Float64()
  if (choice === 'boolean') return new Bool()
  if (choice === 'timestamp') return new Timestamp(TimeUnit.MILLISECOND)
  if (choice === 'date') return new DateDay()
  throw new AppError('invalid_input', `${fileName}: column "${column}" cannot be imported as ${choice}`, { hint: `A JSON column can be ${JSON_CHOICES.join(', ')}` })
}

export interface RecordRow {
  value: Record<string, unknown>
  /** Where the record is in the file (a line, a spreadsheet row), for messages. */
  line: number
  /** Length of the record's text (to bound batches by size). */
  bytes: number
}

export interface RecordReading {
  format: 'json' | 'jsonl' | 'xlsx'
  path: string
  options: OpenOptions
  bytesRead: () => number
  /** The next record, or null at the end. */
  next: () => Promise<RecordRow | null>
  close: () => Promise<void>
  /** How the file is read, in words (asked once the sample is read). */
  readAs: () => string[]
  /** Excel: the workbook's sheets and the one read. */
  sheets?: { names: string[]; chosen: string }
  /** The columns known before any record (a sheet's header), in order; records need not hold every one. */
  columns?: string[]
  /** A record's place in words: "line 12", "row 12". */
  where: (line: number) => string
}

/**
 * A source of records (JSON objects, spreadsheet rows): columns are the keys seen in the first rows, in
 * first-seen order, with types inferred there; later records must fit (a missing key is null), and one that
 * does not stops the import with its place in the file.
 */
export async function recordSource(reading: RecordReading): Promise<BatchSource> {
  const { format, path, options, next, close, where } = reading
  const { fileName } = options
  const inferRows = options.inferRows ?? DEFAULT_INFER_ROWS
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  try {
    const size = (await stat(path)).size
    const { sample, ended } = await readSample(next, inferRows, (row) => row.bytes, options.signal)
    // The declared columns (a sheet's header) first, in order; then keys as they are first seen.
    const columns = new Map<string, JsonColumnInference>((reading.columns ?? []).map((name) => [name, new JsonColumnInference()]))
    for (const row of sample) {
      for (const k in row.value) {
        let column = columns.get(k)
        if (!column) {
          if (columns.size >= MAX_COLUMNS) throw tooManyColumns(fileName, `more than ${MAX_COLUMNS.toLocaleString('en')}`, format === 'xlsx' ? 'columns' : 'different fields in its first records')
          column = new JsonColumnInference()
          columns.set(k, column)
        }
        column.add(row.value[k])
      }
    }
    // Rows that lacked a key (before it first appeared, or after) count as nulls: counted once, not per row and column.
    for (const column of columns.values()) {
      column.missing(sample.length - column.rows)
      column.flattenBeyond(MAX_NESTED_TYPE_DEPTH)
    }
    if (reading.columns ? sample.length === 0 : columns.size === 0) {
      throw new AppError('invalid_input', format === 'xlsx' ? `${fileName} holds no rows under its header` : `${fileName} holds no JSON objects with fields`, {
        hint: format === 'xlsx' ? 'The first row names the columns; the rows below it are imported' : 'Import reads JSON objects: an array of them, one per line, or an array under a key',
      })
    }
    for (const name of Object.keys(options.columnTypes ?? {})) {
      if (!columns.has(name)) throw new AppError('invalid_input', `${fileName} has no column "${name}" to change the type of`)
    }
    const infos: ImportColumnInfo[] = []
    const fields: Field[] = []
    for (const [name, column] of columns) {
      const inferredChoice = choiceOf(column.inferred)
      const chosen = options.columnTypes?.[name]
      const type = chosen && chosen !== inferredChoice ? typeOfChoice(chosen, fileName, name) : toArrowType(column.inferred)
      fields.push(new Field(name, type, true))
      infos.push({
        name,
        type: typeName(type),
        choice: chosen ?? inferredChoice,
        inferred: inferredChoice,
        // Nested values can only become their JSON text.
        choices: inferredChoice === null ? ['text'] : inferredChoice === 'timestamp' || inferredChoice === 'date' ? TIME_CHOICES : JSON_CHOICES,
        reason: chosen && chosen !== inferredChoice ? null : column.reason(),
        nulls: column.nulls,
        sampledRows: column.rows,
      })
    }
    const schema = new Schema(fields)
    const names = schema.fields.map((f) => f.name)
    const types = schema.fields.map((f) => f.type as DataType)
    const known = new Set(names)

    const toBatch = (rows: RecordRow[]): RecordBatch => {
      const cols = names.map(() => new Array<unknown>(rows.length))
      rows.forEach((row, r) => {
        for (const key of Object.keys(row.value)) {
          if (!known.has(key)) {
            throw new AppError('invalid_input', `${fileName} ${where(row.line)} has the field "${key}", which the first ${sample.length.toLocaleString('en')} rows did not have`, {
              hint: 'Give every record the same fields (null where there is no value)',
            })
          }
        }
        names.forEach((name, i) => {
          const value = coerce(row.value[name], types[i]!)
          if (value === MISMATCH) {
            throw new AppError('invalid_input', `${fileName} ${where(row.line)}: the value of "${name}" does not fit the column type ${typeName(types[i]!)}`, {
              detail: clip(JSON.stringify(row.value[name], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))),
              hint: 'The first rows decided the column types: change this column to text in the import sheet, or make the value match',
            })
          }
          cols[i]![r] = value
        })
      })
      return batchFromColumns(schema, cols, rows.length)
    }

    const readAs = reading.readAs()
    return {
      format,
      schema,
      size,
      rowCount: ended ? sample.length : null,
      readAs,
      ...(reading.sheets ? { sheets: reading.sheets } : {}),
      columns: infos,
      bytesRead: reading.bytesRead,
      batches: () => rowBatches({ sample, ended, next, rowBytes: (row) => row.bytes, toBatch, batchRows, signal: options.signal, close }),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

function clip(text: string | undefined): string {
  if (text === undefined) return 'undefined'
  return text.length > 200 ? `${text.slice(0, 200)}…` : text
}
