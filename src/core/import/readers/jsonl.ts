import { createInterface } from 'node:readline'
import { Bool, Field, Float64, Int64, Schema, Utf8, type DataType, type RecordBatch } from 'apache-arrow'
import { AppError, type ImportColumnInfo, type ImportColumnType } from '../../../contract'
import { MISMATCH, batchFromColumns, coerce } from '../build'
import { JsonColumnInference, toArrowType, type Inferred } from '../infer'
import { typeName } from '../schema'
import { DEFAULT_BATCH_ROWS, DEFAULT_INFER_ROWS, type BatchSource, type OpenOptions } from '../source'
import { throwIfAborted } from './errors'
import { JsonSplitter } from './jsonSplit'
import { parseJsonLine } from './jsonLine'
import { rowBatches } from './rowBatches'
import { COMPRESSION_LABELS, openTextStream, type TextStream } from './text'
import { stat } from 'node:fs/promises'

interface Row {
  value: Record<string, unknown>
  line: number
  /** Length of the record's text (to bound batches by size). */
  bytes: number
}

const MAX_SAMPLE_BYTES = 32 * 1024 * 1024

/**
 * JSON lines: one object per line, blank lines skipped. Columns are the keys seen in the first
 * rows (in first-seen order) with types inferred there; later rows must fit (a missing key is null),
 * a line that is not a JSON object, or a value of another type, stops the import with its line.
 */
export async function openJsonLines(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const stream = textStream(path, options)
  const rl = createInterface({ input: stream.text, crlfDelay: Infinity })
  // A read error must fail the import, not look like the end of the file: keep it and close the lines.
  let readError: Error | null = null
  stream.text.on('error', (error) => {
    readError = error
    rl.close()
  })
  const lines = rl[Symbol.asyncIterator]()
  let lineNo = 0
  const next = async (): Promise<Row | null> => {
    for (;;) {
      let step: IteratorResult<string>
      try {
        step = await lines.next()
      } catch (error) {
        throw readFailure(fileName, error)
      }
      if (step.done) {
        if (readError) throw readFailure(fileName, readError)
        return null
      }
      lineNo++
      const text = step.value
      if (text.trim() === '') continue
      let value: unknown
      try {
        value = parseJsonLine(text)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        throw new AppError('invalid_input', `${fileName} line ${lineNo} is not valid JSON: ${message}`, {
          detail: text.length > 200 ? `${text.slice(0, 200)}…` : text,
          hint: 'Each line must hold one complete JSON object',
        })
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new AppError('invalid_input', `${fileName} line ${lineNo} is not a JSON object`, {
          hint: 'Each line must hold one JSON object such as {"id": 1, "name": "a"}',
        })
      }
      return { value: value as Record<string, unknown>, line: lineNo, bytes: text.length }
    }
  }
  const close = async () => {
    rl.close()
    stream.destroy()
  }
  return jsonSource('jsonl', path, options, stream, next, close, () => [])
}

/**
 * A JSON document: an array of objects, an object holding an array of objects (`{"data": [...]}`: the
 * first such key), or top-level objects one after another. Streamed: each record is cut out by a bounded
 * tokenizer and parsed on its own (see JsonSplitter), never the whole file.
 */
export async function openJsonDocument(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const stream = textStream(path, options)
  const splitter = new JsonSplitter(fileName)
  const chunks = (stream.text as AsyncIterable<string>)[Symbol.asyncIterator]()
  const queue: { text: string; line: number }[] = []
  let head = 0
  let ended = false
  const next = async (): Promise<Row | null> => {
    while (head >= queue.length) {
      if (ended) return null
      queue.length = 0
      head = 0
      let step: IteratorResult<string>
      try {
        step = await chunks.next()
      } catch (error) {
        throw readFailure(fileName, error)
      }
      if (step.done) {
        ended = true
        splitter.end()
        continue
      }
      for (const record of splitter.push(step.value)) queue.push(record)
    }
    const record = queue[head++]!
    let value: unknown
    try {
      value = parseJsonLine(record.text)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      throw new AppError('invalid_input', `${fileName}: the record starting on line ${record.line} is not valid JSON: ${message}`, {
        detail: record.text.length > 200 ? `${record.text.slice(0, 200)}…` : record.text,
        hint: 'Fix the JSON syntax of that record',
      })
    }
    return { value: value as Record<string, unknown>, line: record.line, bytes: record.text.length }
  }
  const close = async () => {
    stream.destroy()
  }
  return jsonSource('json', path, options, stream, next, close, () => {
    if (splitter.shape === 'array') return ['rows: the elements of the top-level array']
    if (splitter.shape === 'key') return [`rows: the array under the key "${splitter.key}"`]
    return ['rows: the top-level objects']
  })
}

function textStream(path: string, options: OpenOptions): TextStream {
  return openTextStream(path, { fileName: options.fileName, compression: options.compression ?? null, encoding: options.encoding ?? 'utf-8' })
}

function readFailure(fileName: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('corrupt', `${fileName} cannot be read: ${message}`, { detail: message, cause: error })
}

const JSON_CHOICES: ImportColumnType[] = ['text', 'integer', 'float', 'boolean']

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
    default:
      return null
  }
}

function typeOfChoice(choice: ImportColumnType, fileName: string, column: string): DataType {
  if (choice === 'text') return new Utf8()
  if (choice === 'integer') return new Int64()
  if (choice === 'float') return new Float64()
  if (choice === 'boolean') return new Bool()
  throw new AppError('invalid_input', `${fileName}: column "${column}" cannot be imported as ${choice}`, { hint: `A JSON column can be ${JSON_CHOICES.join(', ')}` })
}

async function jsonSource(
  format: 'json' | 'jsonl',
  path: string,
  options: OpenOptions,
  stream: TextStream,
  next: () => Promise<Row | null>,
  close: () => Promise<void>,
  shape: () => string[],
): Promise<BatchSource> {
  const { fileName } = options
  const inferRows = options.inferRows ?? DEFAULT_INFER_ROWS
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  try {
    const size = (await stat(path)).size
    const sample: Row[] = []
    let sampleBytes = 0
    let ended = false
    while (sample.length < inferRows && sampleBytes < MAX_SAMPLE_BYTES) {
      throwIfAborted(options.signal)
      const row = await next()
      if (!row) {
        ended = true
        break
      }
      sample.push(row)
      sampleBytes += row.bytes
    }
    const columns = new Map<string, JsonColumnInference>()
    sample.forEach((row, r) => {
      for (const [k, v] of Object.entries(row.value)) {
        let column = columns.get(k)
        if (!column) {
          column = new JsonColumnInference()
          column.missing(r) // rows before this key appeared lacked it
          columns.set(k, column)
        }
        column.add(v)
      }
      for (const [k, column] of columns) if (!(k in row.value)) column.missing(1)
    })
    if (columns.size === 0) {
      throw new AppError('invalid_input', `${fileName} holds no JSON objects with fields`, { hint: 'Import reads JSON objects: an array of them, one per line, or an array under a key' })
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
        choices: inferredChoice === null ? ['text'] : JSON_CHOICES,
        reason: chosen && chosen !== inferredChoice ? null : column.reason(),
        nulls: column.nulls,
        sampledRows: column.rows,
      })
    }
    const schema = new Schema(fields)
    const names = schema.fields.map((f) => f.name)
    const types = schema.fields.map((f) => f.type as DataType)
    const known = new Set(names)

    const toBatch = (rows: Row[]): RecordBatch => {
      const cols = names.map(() => new Array<unknown>(rows.length))
      rows.forEach((row, r) => {
        for (const key of Object.keys(row.value)) {
          if (!known.has(key)) {
            throw new AppError('invalid_input', `${fileName} line ${row.line} has the field "${key}", which the first ${sample.length.toLocaleString('en')} rows did not have`, {
              hint: 'Give every record the same fields (null where there is no value)',
            })
          }
        }
        names.forEach((name, i) => {
          const value = coerce(row.value[name], types[i]!)
          if (value === MISMATCH) {
            throw new AppError('invalid_input', `${fileName} line ${row.line}: the value of "${name}" does not fit the column type ${typeName(types[i]!)}`, {
              detail: clip(JSON.stringify(row.value[name], (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))),
              hint: 'The first rows decided the column types: change this column to text in the import sheet, or make the value match',
            })
          }
          cols[i]![r] = value
        })
      })
      return batchFromColumns(schema, cols, rows.length)
    }

    const readAs = [
      ...(options.compression ? [`${COMPRESSION_LABELS[options.compression]}-compressed, decompressed as it is read`] : []),
      ...shape(),
    ]
    return {
      format,
      schema,
      size,
      rowCount: ended ? sample.length : null,
      readAs,
      columns: infos,
      bytesRead: () => stream.bytesRead(),
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
