import { createInterface } from 'node:readline'
import { AppError } from '../../../contract'
import type { BatchSource, OpenOptions } from '../source'
import { JsonSplitter } from './jsonSplit'
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
