import { createInterface } from 'node:readline'
import { Transform, type TransformCallback } from 'node:stream'
import { AppError } from '../../../contract'
import type { BatchSource, OpenOptions } from '../source'
import { depthOver, tooDeep } from './jsonDepth'
import { JsonSplitter } from './jsonSplit'
import { MAX_RECORD_CHARS } from '../../limits'
import { parseJsonLine } from './jsonLine'
import { recordSource, type RecordRow as Row } from './records'
import { COMPRESSION_LABELS, openTextStream, type TextStream } from './text'


/**
 * JSON lines: one object per line, blank lines skipped. Columns are the keys seen in the first
 * rows (in first-seen order) with types inferred there; later rows must fit (a missing key is null),
 * a line that is not a JSON object, or a value of another type, stops the import with its line.
 */
export async function openJsonLines(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const stream = textStream(path, options)
  const input = stream.text.pipe(new LineLengthGuard(fileName))
  const rl = createInterface({ input, crlfDelay: Infinity })
  // A read error must fail the import, not look like the end of the file: keep it and close the lines.
  let readError: Error | null = null
  const failed = (error: Error) => {
    readError = error
    rl.close()
  }
  stream.text.on('error', failed)
  input.on('error', failed)
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
      const deep = depthOver(text)
      if (deep !== null) throw tooDeep(fileName, `line ${lineNo}`, deep)
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
  return recordSource({ format: 'jsonl', path, options, bytesRead: () => stream.bytesRead(), next, close, readAs: () => compressed(options), where: (line) => `line ${line}` })
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
  const shape = () => {
    if (splitter.shape === 'array') return 'rows: the elements of the top-level array'
    if (splitter.shape === 'key') return `rows: the array under the key "${splitter.key}"`
    return 'rows: the top-level objects'
  }
  return recordSource({ format: 'json', path, options, bytesRead: () => stream.bytesRead(), next, close, readAs: () => [...compressed(options), shape()], where: (line) => `line ${line}` })
}

/**
 * readline holds a line until its end comes: a line longer than {@link MAX_RECORD_CHARS} (a file of one endless line)
 * is refused as it streams in, before readline holds more than that and a chunk.
 */
class LineLengthGuard extends Transform {
  private run = 0
  private line = 1

  constructor(private readonly fileName: string) {
    super({ decodeStrings: false, encoding: 'utf8' })
  }

  override _transform(chunk: string, _enc: BufferEncoding, done: TransformCallback): void {
    const last = chunk.lastIndexOf('\n')
    if (last === -1) this.run += chunk.length
    else {
      for (let i = chunk.indexOf('\n'); i !== -1 && i < last; i = chunk.indexOf('\n', i + 1)) this.line++
      this.line++
      this.run = chunk.length - last - 1
    }
    if (this.run > MAX_RECORD_CHARS) {
      return done(
        new AppError('unsupported', `${this.fileName} line ${this.line}: a line longer than ${MAX_RECORD_CHARS / 1024 / 1024} Mi characters, the most import holds at once`, {
          hint: 'Each line of JSON lines holds one record: split the long records, or import a JSON array instead',
        }),
      )
    }
    done(null, chunk)
  }
}

function textStream(path: string, options: OpenOptions): TextStream {
  return openTextStream(path, { fileName: options.fileName, compression: options.compression ?? null, encoding: options.encoding ?? 'utf-8' })
}

function compressed(options: OpenOptions): string[] {
  return options.compression ? [`${COMPRESSION_LABELS[options.compression]}-compressed, decompressed as it is read`] : []
}

function readFailure(fileName: string, error: unknown): AppError {
  if (error instanceof AppError) return error
  const message = error instanceof Error ? error.message : String(error)
  return new AppError('corrupt', `${fileName} cannot be read: ${message}`, { detail: message, cause: error })
}
