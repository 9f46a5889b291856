import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { Field, Schema, type DataType, type RecordBatch } from 'apache-arrow'
import { AppError } from '../../../contract'
import { MISMATCH, batchFromColumns, coerce } from '../build'
import { NULL, inferValue, merge, toArrowType, type Inferred } from '../infer'
import { typeName } from '../schema'
import { DEFAULT_BATCH_ROWS, DEFAULT_INFER_ROWS, type BatchSource, type OpenOptions } from '../source'
import { throwIfAborted } from './errors'
import { rowBatches } from './rowBatches'

interface Row {
  value: Record<string, unknown>
  line: number
  /** Length of the line's text (to bound batches by size). */
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
  const inferRows = options.inferRows ?? DEFAULT_INFER_ROWS
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  const size = (await stat(path)).size
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 1024 * 1024 })
  const rl = createInterface({ input: stream, crlfDelay: Infinity })
  // A read error must fail the import, not look like the end of the file: keep it and close the lines.
  let readError: Error | null = null
  stream.on('error', (error) => {
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
        const message = error instanceof Error ? error.message : String(error)
        throw new AppError('corrupt', `${fileName} cannot be read: ${message}`, { detail: message, cause: error })
      }
      if (step.done) {
        if (readError) {
          const message = (readError as Error).message
          throw new AppError('corrupt', `${fileName} cannot be read: ${message}`, { detail: message, cause: readError })
        }
        return null
      }
      lineNo++
      const text = lineNo === 1 ? step.value.replace(/^\uFEFF/, '') : step.value
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
  try {
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
      sampleBytes = stream.bytesRead
    }
    const columns = new Map<string, Inferred>()
    for (const row of sample) {
      for (const [k, v] of Object.entries(row.value)) columns.set(k, merge(columns.get(k) ?? NULL, inferValue(v)))
    }
    if (columns.size === 0) {
      throw new AppError('invalid_input', `${fileName} holds no JSON objects with fields`, { hint: 'Each line must hold one JSON object' })
    }
    const schema = new Schema([...columns].map(([name, t]) => new Field(name, toArrowType(t), true)))
    const names = schema.fields.map((f) => f.name)
    const types = schema.fields.map((f) => f.type as DataType)
    const known = new Set(names)

    const toBatch = (rows: Row[]): RecordBatch => {
      const cols = names.map(() => new Array<unknown>(rows.length))
      rows.forEach((row, r) => {
        for (const key of Object.keys(row.value)) {
          if (!known.has(key)) {
            throw new AppError('invalid_input', `${fileName} line ${row.line} has the field "${key}", which the first ${sample.length.toLocaleString('en')} rows did not have`, {
              hint: 'Give every line the same fields (null where there is no value)',
            })
          }
        }
        names.forEach((name, i) => {
          const value = coerce(row.value[name], types[i]!)
          if (value === MISMATCH) {
            throw new AppError('invalid_input', `${fileName} line ${row.line}: the value of "${name}" does not fit the column type ${typeName(types[i]!)}`, {
              detail: clip(JSON.stringify(row.value[name])),
              hint: 'The first rows decided the column types; make this value match them',
            })
          }
          cols[i]![r] = value
        })
      })
      return batchFromColumns(schema, cols, rows.length)
    }

    return {
      format: 'jsonl',
      schema,
      size,
      rowCount: ended ? sample.length : null,
      bytesRead: () => stream.bytesRead,
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

/** Integers with 16+ digits may not fit a double; they are parsed exactly as BigInt. */
const LONG_INT = /-?\d{16,}/
const TOKENS = /"(?:[^"\\]|\\.)*"|(?<![\d.eE+-])-?\d{16,}(?![.eE\d])/g
const BIG = '\u0000bigint:'

/**
 * JSON.parse, except that integer literals too long for a double keep every digit (ids past 2^53).
 * Node 20 has no access to a number's source text in JSON.parse, so such lines are rewritten to
 * carry those literals as tagged strings first (only lines that hold a long digit run pay for it).
 */
export function parseJsonLine(text: string): unknown {
  if (!LONG_INT.test(text)) return JSON.parse(text)
  const tagged = text.replace(TOKENS, (token) => (token.startsWith('"') ? token : `"\\u0000bigint:${token}"`))
  return JSON.parse(tagged, (_key, value: unknown) => {
    if (typeof value === 'string' && value.startsWith(BIG)) {
      const digits = value.slice(BIG.length)
      const big = BigInt(digits)
      return Number.isSafeInteger(Number(big)) ? Number(big) : big
    }
    return value
  })
}
