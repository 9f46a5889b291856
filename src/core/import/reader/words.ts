import { AppError } from '../../../contract'
import { FORMAT_LABELS, type ImportFormat } from '../sniff'
import { STDERR_MARK, type ColumnNote } from './protocol'

/** How a reader process ended, when it did not end by answering. */
export type ReaderEnding =
  | { kind: 'cancelled' }
  /** Over the resident-memory ceiling (seen by the host, or by the reader's own watch: `self`). */
  | { kind: 'memory'; rssBytes: number; ceilingBytes: number }
  /** Over its time: the whole budget of a preview, or the time without progress of an import. */
  | { kind: 'time'; seconds: number; budget: 'total' | 'idle' }
  /** The host could not talk to it (its chunks' socket failed): our own fault. */
  | { kind: 'failed'; message: string }
  /** Ended on its own: an exit code or a signal, with the tail of what it wrote to stderr. */
  | { kind: 'exit'; code: number | null; signal: NodeJS.Signals | null; stderr: string }

/** What the host knows of the file when its reader ended: its name, and what the reader told before it ended. */
export interface ReaderContext {
  fileName: string
  format?: ImportFormat
  columns?: ColumnNote[]
  /** What the reader was doing, for the messages: "previewing", "importing", "looking at". */
  doing: 'preview' | 'import' | 'sniff'
  heapMb: number
}

const MiB = 1024 * 1024

/**
 * The reader's end in words. Known native panics are named ("The Parquet reader stopped on the timestamp zone +05:30
 * in column `ts`"); any other crash says which reader stopped, how (the signal) and the panic's own line. Codes: the
 * file is beyond what the reader handles (`unsupported`, also over a ceiling), the budget ran out (`timeout`), the
 * reader was killed from outside (`unavailable`: try again), or it failed in our own code (`internal`).
 */
export function readerEndedError(ending: ReaderEnding, context: ReaderContext): AppError {
  const reader = `The ${context.format ? `${FORMAT_LABELS[context.format]} ` : ''}reader`
  const { fileName } = context
  switch (ending.kind) {
    case 'cancelled':
      return new AppError('cancelled', `Reading ${fileName} was cancelled`)
    case 'memory':
      return new AppError('unsupported', `${reader} needed more than ${mib(ending.ceilingBytes)} of memory for ${fileName}, so it was stopped`, {
        detail: `Resident memory ${mib(ending.rssBytes)}; the ceiling is ${mib(ending.ceilingBytes)} (LCB_IMPORT_READER_RSS_MB)`,
        hint: 'Split the file into smaller ones, or save it in a columnar format (Parquet, Arrow) and import that',
      })
    case 'time':
      return ending.budget === 'total'
        ? new AppError('timeout', `${reader} took more than ${seconds(ending.seconds)} to ${context.doing === 'sniff' ? 'look at' : 'preview'} ${fileName}, so it was stopped`, {
            hint: 'The file may be unusually built (very many columns, a huge first row); convert it, or split it',
          })
        : new AppError('timeout', `${reader} made no progress on ${fileName} for ${seconds(ending.seconds)}, so the import was stopped`, {
            hint: 'The file may be unusually built (very many columns, a huge row); convert it, or split it',
          })
    case 'failed':
      return new AppError('internal', `${reader} could not hand over what it read of ${fileName}`, { detail: ending.message })
    case 'exit':
      return exitError(reader, ending, context)
  }
}

function exitError(reader: string, ending: Extract<ReaderEnding, { kind: 'exit' }>, context: ReaderContext): AppError {
  const { fileName } = context
  const own = ownWords(ending.stderr)
  if (own) {
    const memory = /memory (\d+) over (\d+)/.exec(own)
    if (memory) return readerEndedError({ kind: 'memory', rssBytes: Number(memory[1]), ceilingBytes: Number(memory[2]) }, context)
  }
  if (/JavaScript heap out of memory|Reached heap limit/.test(ending.stderr)) {
    return new AppError('unsupported', `${reader} needed more than its ${context.heapMb} MiB of JavaScript memory for ${fileName}, so it stopped`, {
      detail: `JavaScript heap out of memory; the limit is ${context.heapMb} MiB (LCB_IMPORT_READER_HEAP_MB)`,
      hint: 'Split the file into smaller ones, or save it in a columnar format (Parquet, Arrow) and import that',
    })
  }
  const how = ending.signal ? `it was killed by ${ending.signal}` : `it exited with code ${ending.code}`
  const panic = panicMessage(ending.stderr)
  if (panic) {
    const zone = /unable to parse time ?zone:? '([^']*)'/i.exec(panic)?.[1]
    if (zone !== undefined) {
      const columns = (context.columns ?? []).filter((c) => c.zone === zone).map((c) => `\`${c.name}\``)
      const where = columns.length === 1 ? ` in column ${columns[0]}` : columns.length > 1 ? ` in columns ${columns.join(', ')}` : ''
      return new AppError('unsupported', `${reader} stopped on the timestamp zone ${zone}${where} of ${fileName}`, {
        detail: `${how}: ${panic}`,
        hint: 'Convert the timestamps to UTC, or give them a zone name such as Asia/Kolkata, and export the file again',
      })
    }
    return new AppError('unsupported', `${reader} stopped unexpectedly on ${fileName} (${how}): ${firstSentence(panic)}`, {
      detail: tail(ending.stderr),
      hint: 'The file uses something this reader cannot handle; convert it (for example to Parquet or Arrow with another tool) and import that',
    })
  }
  if (ending.signal === 'SIGKILL') {
    return new AppError('unavailable', `${reader} was stopped from outside while it read ${fileName} (${how})`, {
      detail: tail(ending.stderr) || undefined,
      hint: 'Try again; if it happens again, the machine may be short of memory',
    })
  }
  if (ending.signal) {
    return new AppError('unsupported', `${reader} stopped unexpectedly on ${fileName} (${how})`, {
      detail: tail(ending.stderr) || undefined,
      hint: 'The file uses something this reader cannot handle; convert it (for example to Parquet or Arrow with another tool) and import that',
    })
  }
  return new AppError('internal', `${reader} ended unexpectedly while it read ${fileName} (${how})`, { detail: tail(ending.stderr) || undefined })
}

/**
 * A Rust panic's message: `thread '…' panicked at <file>:<line>:<col>:\n<message>`; an `unwrap` of an error names the
 * error's own text (`ErrString("…")`), which is what a person can read. The first panic is the cause (a second one,
 * "panic in a function that cannot unwind", only says why the process aborted).
 */
export function panicMessage(stderr: string): string | null {
  const match = /thread '[^']*'(?: \(\d+\))? panicked at [^\n]*:\n([^\n]+)/.exec(stderr)
  if (!match) return null
  const line = match[1]!.trim()
  const inner = /ErrString\("((?:[^"\\]|\\.)*)"\)/.exec(line)?.[1]
  const text = inner ? inner.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1') : line
  return text.split('\n')[0]!.trim()
}

function ownWords(stderr: string): string | null {
  const lines = stderr.split('\n').filter((l) => l.startsWith(STDERR_MARK))
  return lines.at(-1) ?? null
}

function firstSentence(text: string): string {
  const sentence = /^(.*?[.!?])(\s|$)/.exec(text)?.[1] ?? text
  return sentence.length > 200 ? `${sentence.slice(0, 200)}…` : sentence
}

function tail(text: string): string {
  const trimmed = text.trim()
  return trimmed.length > 4000 ? `…${trimmed.slice(-4000)}` : trimmed
}

const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`
const seconds = (s: number) => (s === 1 ? '1 second' : `${s} seconds`)
