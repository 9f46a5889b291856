import { createReadStream } from 'node:fs'
import { Field, Schema, type DataType, type RecordBatch } from 'apache-arrow'
import { CsvError, parse } from 'csv-parse'
import { AppError } from '../../../contract'
import { batchFromColumns } from '../build'
import { csvArrowType, csvCellKind, isTemporal, mergeCsv, parseCsvCell, type CsvKind } from '../infer'
import { DEFAULT_BATCH_ROWS, DEFAULT_INFER_ROWS, type BatchSource, type OpenOptions } from '../source'
import { throwIfAborted } from './errors'
import { rowBatches } from './rowBatches'

interface Row {
  cells: string[]
  line: number
}

/** Sample bytes never held for inference, whatever `inferRows` says (wide rows). */
const MAX_SAMPLE_BYTES = 32 * 1024 * 1024

/**
 * CSV, streamed through csv-parse. The first record is the header; column types (Int64, Float64,
 * Bool, ISO-8601 dates and timestamps unless `datesAsText`, else Utf8; empty cell = null) are inferred from the first rows and then enforced: a later
 * cell that does not fit, or a row with the wrong number of fields, stops the import with its line.
 */
export async function openCsv(path: string, head: Buffer, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const inferRows = options.inferRows ?? DEFAULT_INFER_ROWS
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  const delimiter = guessDelimiter(head)
  const stream = createReadStream(path, { highWaterMark: 1024 * 1024 })
  const parser = stream.pipe(
    parse({ bom: true, delimiter, info: true, skip_empty_lines: true, relax_column_count: false }),
  )
  stream.on('error', (error) => parser.destroy(error))
  // Errors reach us through the async iterator below; once it has stopped (after the first error, or
  // when the import stops early) a late 'error' event must not become an uncaught exception.
  parser.on('error', () => undefined)
  const records = (parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)[Symbol.asyncIterator]()
  const size = (await import('node:fs/promises').then((fs) => fs.stat(path))).size
  const next = async (): Promise<Row | null> => {
    try {
      const step = await records.next()
      return step.done ? null : { cells: step.value.record, line: step.value.info.lines }
    } catch (error) {
      throw csvError(fileName, error)
    }
  }
  const close = async () => {
    stream.destroy()
    parser.destroy()
  }
  try {
    const header = await next()
    if (!header) throw new AppError('invalid_input', `${fileName} has no header row`, { hint: 'The first line must name the columns' })
    const names = uniqueNames(header.cells)
    // Read the inference sample; it is replayed as the first batches.
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
      for (const c of row.cells) sampleBytes += c.length + 1
    }
    const kinds: CsvKind[] = names.map(() => 'empty')
    for (const row of sample) row.cells.forEach((cell, i) => (kinds[i] = mergeCsv(kinds[i]!, csvCellKind(cell))))
    if (options.datesAsText) kinds.forEach((k, i) => (kinds[i] = isTemporal(k) ? 'string' : k))
    const schema = new Schema(names.map((name, i) => new Field(name, csvArrowType(kinds[i]!), true)))
    const types = schema.fields.map((f) => f.type as DataType)

    const toBatch = (rows: Row[]): RecordBatch => {
      const columns = names.map(() => new Array<unknown>(rows.length))
      rows.forEach((row, r) => {
        row.cells.forEach((cell, i) => {
          const value = parseCsvCell(cell, types[i]!)
          if (value === undefined) {
            throw new AppError('invalid_input', `${fileName} line ${row.line}: "${clip(cell)}" in column "${names[i]}" is not ${typeWord(types[i]!)}`, {
              hint: `The first ${sample.length.toLocaleString('en')} rows made "${names[i]}" ${String(types[i])}; fix that cell or the column`,
            })
          }
          columns[i]![r] = value
        })
      })
      return batchFromColumns(schema, columns, rows.length)
    }

    return {
      format: 'csv',
      schema,
      size,
      rowCount: ended ? sample.length : null,
      bytesRead: () => stream.bytesRead,
      batches: () => rowBatches({ sample, ended, next, rowBytes, toBatch, batchRows, signal: options.signal, close }),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

function csvError(fileName: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  if (error instanceof CsvError) {
    const e = error as CsvError & { lines?: number; record?: string[] }
    const line = e.lines
    if (e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
      return new AppError('invalid_input', `${fileName} line ${line}: ${e.record?.length ?? 'a different number of'} fields where the header has ${countFromMessage(e.message)}`, {
        detail: e.message,
        hint: 'Every row needs as many fields as the header; check for a missing or extra delimiter or quote',
      })
    }
    return new AppError('invalid_input', `${fileName}${line ? ` line ${line}` : ''}: ${e.message.replace(/ at line \d+| on line \d+/, '')}`, {
      detail: e.message,
      hint: 'Fix the CSV syntax at that line (quotes must be closed and doubled inside fields)',
    })
  }
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('corrupt', `${fileName} cannot be read as CSV: ${message}`, { detail: message, cause: error })
}

function countFromMessage(message: string): string {
  return /expect (\d+)/.exec(message)?.[1] ?? 'another number of'
}

/** Empty names get `column_N`, duplicates a `_2` suffix: Lance needs unique, non-empty column names. */
function uniqueNames(cells: string[]): string[] {
  const seen = new Set<string>()
  return cells.map((raw, i) => {
    let name = raw.trim() === '' ? `column_${i + 1}` : raw
    if (seen.has(name)) {
      let n = 2
      while (seen.has(`${name}_${n}`)) n++
      name = `${name}_${n}`
    }
    seen.add(name)
    return name
  })
}

/** The delimiter that occurs most on the first line (`,` `\t` `;` `|`), comma on ties. */
function guessDelimiter(head: Buffer): string {
  const text = head.toString('utf8')
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  let best = ','
  let bestCount = count(firstLine, ',')
  for (const d of ['\t', ';', '|']) {
    const c = count(firstLine, d)
    if (c > bestCount) {
      best = d
      bestCount = c
    }
  }
  return best
}

function count(text: string, ch: string): number {
  let n = 0
  for (const c of text) if (c === ch) n++
  return n
}

function rowBytes(row: Row): number {
  let n = 0
  for (const cell of row.cells) n += cell.length + 1
  return n
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}

function typeWord(type: DataType): string {
  const s = String(type)
  if (s.startsWith('Int')) return 'a whole number'
  if (s.startsWith('Float')) return 'a number'
  if (s === 'Bool') return 'true or false'
  if (s.startsWith('Date')) return 'a date (YYYY-MM-DD)'
  if (s.startsWith('Timestamp')) return `an ISO 8601 date-time ${s.includes('UTC') ? 'with a zone or offset' : 'without a zone'}`
  return s
}
