import { stat } from 'node:fs/promises'
import { DataType, Field, Schema, type RecordBatch } from 'apache-arrow'
import { CsvError, parse } from 'csv-parse'
import { AppError, importColumnTypeSchema, type ImportColumnInfo } from '../../../contract'
import { batchFromData, columnData } from '../build'
import { csvColumn, type CellProblem } from './csvColumns'
import { CSV_CHOICES, CsvColumnInference, choiceOfCsvKind, csvArrowType, isTemporal, parseCsvCell, type CsvKind } from '../infer'
import { typeName } from '../schema'
import { COMPRESSION_LABELS, decodeSample, openTextStream } from './text'
import { DEFAULT_BATCH_ROWS, DEFAULT_INFER_ROWS, type BatchSource, type OpenOptions } from '../source'
import { readSample, rowBatches } from './rowBatches'
import { nativeCsvBatches, nativeCsvReader, type CsvPlan } from '../native/csv'
import { CsvFieldGuard } from './csvFields'
import { MAX_COLUMNS, MAX_RECORD_CHARS, tooManyColumns } from '../../limits'

interface Row {
  cells: string[]
  line: number
}

/** Sample bytes never held for inference, whatever `inferRows` says (wide rows). */

/**
 * CSV, streamed through csv-parse. The first record is the header; column types (Int64, Float64,
 * Bool, ISO-8601 dates and timestamps unless `datesAsText`, else Utf8; empty cell = null) are inferred from the first rows and then enforced: a later
 * cell that does not fit, or a row with the wrong number of fields, stops the import with its line.
 */
export async function openCsv(path: string, head: Buffer, options: OpenOptions, native = true): Promise<BatchSource> {
  const { fileName } = options
  const inferRows = options.inferRows ?? DEFAULT_INFER_ROWS
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS
  const encoding = options.encoding ?? 'utf-8'
  const sampleText = decodeSample(head, encoding)
  const delimiter = sniffDelimiter(sampleText)
  const { next, close, bytesRead } = openRecords(path, sampleText, delimiter, options)
  const size = (await stat(path)).size
  try {
    const header = await next()
    if (!header) throw new AppError('invalid_input', `${fileName} has no header row`, { hint: 'The first line must name the columns' })
    if (header.cells.length > MAX_COLUMNS) throw tooManyColumns(fileName, header.cells.length)
    const names = uniqueNames(header.cells)
    // Read the inference sample; it is replayed as the first batches.
    const { sample, ended } = await readSample(next, inferRows, rowBytes, options.signal)
    const { kinds, schema, columns } = columnTypes(names, sample, options)
    const types = schema.fields.map((f) => f.type as DataType)
    const chosen = options.columnTypes ?? {}
    // An inferred number column meeting `007` after the sample would lose the zeros: that stops the import.
    const guardZeros = types.map((t, i) => !chosen[names[i]!] && (DataType.isInt(t) || DataType.isFloat(t)))
    const toBatch = (rows: Row[]) => rowsToBatch(rows, { fileName, schema, guardZeros, chosen, sampled: sample.length })

    const readAs = [
      ...(options.compression ? [`${COMPRESSION_LABELS[options.compression]}-compressed, decompressed as it is read`] : []),
      ...(encoding === 'windows-1252' ? ['text encoding: Windows-1252 (Latin-1), converted to UTF-8'] : []),
      `delimiter: ${DELIMITER_NAMES[delimiter] ?? delimiter}`,
    ]
    // The rest of the file is parsed by polars (native, multi-threaded) where it reads it exactly as below, with
    // this reader taking over from the first row polars is unsure of; small files stay here (nothing to gain).
    const plan: CsvPlan = { path, head, delimiter, names, kinds, guardZeros, schema }
    const pl = native && !ended ? nativeCsvReader(plan, encoding, options.compression != null) : null
    const handOver: HandOver = { nativeRows: 0, fallback: null }
    const bytesPerRow = sample.length > 0 ? sample.reduce((n, row) => n + rowBytes(row), 0) / sample.length : 0
    const reopen = () => openCsv(path, head, options, false)
    return {
      format: 'csv',
      schema,
      size,
      rowCount: ended ? sample.length : null,
      readAs,
      columns,
      bytesRead: () => (handOver.fallback ? handOver.fallback.bytesRead() : pl ? Math.min(Math.round(handOver.nativeRows * bytesPerRow), size) : bytesRead()),
      batches: () => (pl ? nativeThenJs(pl, plan, { handOver, close, reopen, signal: options.signal }) : rowBatches({ sample, ended, next, rowBytes, toBatch, batchRows, signal: options.signal, close })),
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}

/** The file's records through csv-parse: `next` gives one with its line (null at the end), a parse error in words. */
function openRecords(path: string, sampleText: string, delimiter: string, options: OpenOptions) {
  const { fileName } = options
  const text = openTextStream(path, { fileName, compression: options.compression ?? null, encoding: options.encoding ?? 'utf-8' })
  const recordEnd = recordDelimiter(sampleText, delimiter)
  const fields = text.text.pipe(new CsvFieldGuard(fileName, delimiter, recordEnd))
  const parser = fields.pipe(
    // A quote inside an unquoted field (`5'11"`, `naïve "café"`) is kept as a character, as DuckDB does.
    parse({ bom: true, delimiter, record_delimiter: recordEnd, info: true, skip_empty_lines: true, relax_column_count: false, relax_quotes: true, max_record_size: MAX_RECORD_CHARS }),
  )
  text.text.on('error', (error) => fields.destroy(error))
  fields.on('error', (error) => parser.destroy(error))
  // Errors reach us through the async iterator below; once it has stopped (after the first error, or
  // when the import stops early) a late 'error' event must not become an uncaught exception.
  parser.on('error', () => undefined)
  const records = (parser as AsyncIterable<{ record: string[]; info: { lines: number } }>)[Symbol.asyncIterator]()
  const next = async (): Promise<Row | null> => {
    try {
      const step = await records.next()
      return step.done ? null : { cells: step.value.record, line: step.value.info.lines }
    } catch (error) {
      throw csvError(fileName, error)
    }
  }
  const close = async () => {
    text.destroy()
    fields.destroy()
    parser.destroy()
  }
  return { next, close, bytesRead: () => text.bytesRead() }
}

/** Each column's type: the user's choice in the import sheet, else what the sample says (dates as text on request). */
function columnTypes(names: string[], sample: Row[], options: OpenOptions): { kinds: CsvKind[]; schema: Schema; columns: ImportColumnInfo[] } {
  const inference = names.map(() => new CsvColumnInference())
  for (const row of sample) row.cells.forEach((cell, i) => inference[i]!.add(cell))
  const chosen = options.columnTypes ?? {}
  const named = new Set(names)
  for (const name of Object.keys(chosen)) {
    if (!named.has(name)) throw new AppError('invalid_input', `${options.fileName} has no column "${name}" to change the type of`)
  }
  const kinds: CsvKind[] = inference.map((c, i) => {
    const choice = chosen[names[i]!]
    if (choice) return CSV_CHOICES[choice]
    return options.datesAsText && isTemporal(c.kind) ? 'string' : c.kind
  })
  const schema = new Schema(names.map((name, i) => new Field(name, csvArrowType(kinds[i]!), true)))
  const columns: ImportColumnInfo[] = names.map((name, i) => {
    const c = inference[i]!
    const inferred = choiceOfCsvKind(c.kind)
    const choice = chosen[name] ?? choiceOfCsvKind(kinds[i]!)
    return {
      name,
      type: typeName(schema.fields[i]!.type as DataType),
      choice,
      inferred,
      choices: importColumnTypeSchema.options,
      reason: choice === inferred ? c.reason() : null,
      nulls: c.nulls,
      sampledRows: c.rows,
    }
  })
  return { kinds, schema, columns }
}

/** Rows as one Arrow batch in the chosen types; a cell that does not fit stops the import with its line and the way out. */
function rowsToBatch(rows: Row[], to: { fileName: string; schema: Schema; guardZeros: boolean[]; chosen: NonNullable<OpenOptions['columnTypes']>; sampled: number }): RecordBatch {
  const { fileName, schema, guardZeros, chosen, sampled } = to
  const children = schema.fields.map(({ name, type }, i) => {
    const fail = (r: number, problem: CellProblem): never => {
      const cell = rows[r]!.cells[i]!
      throw new AppError('invalid_input', `${fileName} line ${rows[r]!.line}: "${clip(cell)}" in column "${name}" is not ${problem === 'type' ? typeWord(type) : 'a number without leading zeros'}`, {
        hint:
          chosen[name] !== undefined
            ? `"${name}" was set to ${typeName(type)}; choose another type for it, or fix that cell`
            : `The first ${sampled.toLocaleString('en')} rows made "${name}" ${typeName(type)}; change its type (e.g. to text) in the import sheet, or fix that cell`,
      })
    }
    const fast = csvColumn(type, (r) => rows[r]!.cells[i]!, rows.length, guardZeros[i]!, fail)
    if (fast) return fast
    const values = new Array<unknown>(rows.length)
    for (let r = 0; r < rows.length; r++) {
      const value = parseCsvCell(rows[r]!.cells[i]!, type)
      if (value === undefined) fail(r, 'type')
      values[r] = value
    }
    return columnData(type, values, rows.length)
  })
  return batchFromData(schema, children, rows.length)
}

/** How far polars got, and the JS reader that took over from there (for the import's progress). */
interface HandOver {
  nativeRows: number
  fallback: BatchSource | null
}

/** polars' batches, then — from the first row polars is unsure of, or after it refused the file — the JS reader's. */
async function* nativeThenJs(
  pl: NonNullable<ReturnType<typeof nativeCsvReader>>,
  plan: CsvPlan,
  { handOver, close, reopen, signal }: { handOver: HandOver; close(): Promise<void>; reopen(): Promise<BatchSource>; signal?: AbortSignal },
): AsyncGenerator<RecordBatch> {
  await close()
  let from: number | null
  const it = nativeCsvBatches(pl, plan, signal)
  try {
    for (;;) {
      const step = await it.next()
      if (step.done) {
        from = step.value
        break
      }
      handOver.nativeRows += step.value.numRows
      yield step.value
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    // polars refused the file (e.g. a row with too many fields): the JS reader says where and why.
    from = handOver.nativeRows
  } finally {
    await it.return(null)
  }
  if (from === null) return
  const fallback = await reopen()
  handOver.fallback = fallback
  try {
    yield* skipRows(fallback.batches(), from)
  } finally {
    await fallback.close()
  }
}

/** The batches after the first `skip` rows. */
async function* skipRows(batches: AsyncGenerator<RecordBatch>, skip: number): AsyncGenerator<RecordBatch> {
  let left = skip
  for await (const batch of batches) {
    if (left >= batch.numRows) {
      left -= batch.numRows
      continue
    }
    yield left > 0 ? batch.slice(left) : batch
    left = 0
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
    if (e.code === 'CSV_MAX_RECORD_SIZE') {
      return new AppError('unsupported', `${fileName}${line ? ` line ${line}` : ''}: a record longer than ${MAX_RECORD_CHARS / 1024 / 1024} Mi characters, the most import holds at once`, {
        detail: e.message,
        hint: 'A quote left open makes the rest of the file one field: check the quotes there; else split the long values into files of their own',
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
  // Per name, the suffix to try next: 16,384 columns named alike cost one try each, not the square.
  const next = new Map<string, number>()
  return cells.map((raw, i) => {
    let name = raw.trim() === '' ? `column_${i + 1}` : raw
    if (seen.has(name)) {
      const base = name
      let n = next.get(base) ?? 2
      while (seen.has(`${base}_${n}`)) n++
      next.set(base, n + 1)
      name = `${base}_${n}`
    }
    seen.add(name)
    return name
  })
}

const DELIMITERS = [',', ';', '\t', '|'] as const
const DELIMITER_NAMES: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe (|)' }

/**
 * The delimiter (`,` `;` tab `|`) that splits the first records of the sample (quotes respected: a quoted
 * field may hold delimiters and newlines) into the same number of fields, the most fields winning; when none
 * is consistent, the one most frequent on the first line; comma on ties.
 */
export function sniffDelimiter(text: string): string {
  let best: string = ','
  let bestFields = 1
  for (const d of DELIMITERS) {
    const counts = fieldCounts(text, d, 20)
    if (counts.length === 0) continue
    const consistent = counts.every((c) => c === counts[0])
    if (consistent && counts[0]! > bestFields) {
      best = d
      bestFields = counts[0]!
    }
  }
  if (bestFields > 1) return best
  const firstLine = text.split(/\r?\n/, 1)[0] ?? ''
  let bestCount = 0
  for (const d of DELIMITERS) {
    const c = firstLine.split(d).length - 1
    if (c > bestCount) {
      best = d
      bestCount = c
    }
  }
  return best
}

/**
 * The line break that ends the sample's first record (outside quotes), as csv-parse would discover it: `\r\n`, `\n`
 * or `\r`. Told here because csv-parse's discovery costs ~0.4 µs a character of the first record (a 10 MB header of
 * 10^6 columns: 3.8 s). A first record longer than the sample (a very wide header) ends at any of them.
 */
export function recordDelimiter(text: string, delimiter: string): string | string[] {
  let quoted = false
  let fieldStart = true
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++
        else quoted = false
      }
      continue
    }
    if (c === '"' && fieldStart) {
      quoted = true
      fieldStart = false
      continue
    }
    if (c === '\r') return text[i + 1] === '\n' ? '\r\n' : i + 1 < text.length ? '\r' : ['\r\n', '\n', '\r']
    if (c === '\n') return '\n'
    fieldStart = c === delimiter
  }
  return ['\r\n', '\n', '\r']
}

/** Fields per record of the first `max` complete records (the sample's last, maybe cut, record left out). */
function fieldCounts(text: string, delimiter: string, max: number): number[] {
  const counts: number[] = []
  let fields = 1
  let quoted = false
  let fieldStart = true
  let empty = true
  for (let i = 0; i < text.length && counts.length < max; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++
        else quoted = false
      }
      continue
    }
    if (c === '"' && fieldStart) {
      quoted = true
      fieldStart = false
      empty = false
      continue
    }
    if (c === delimiter) {
      fields++
      fieldStart = true
      empty = false
      continue
    }
    if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      if (!empty) counts.push(fields)
      fields = 1
      fieldStart = true
      empty = true
      continue
    }
    fieldStart = false
    empty = false
  }
  return counts
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
