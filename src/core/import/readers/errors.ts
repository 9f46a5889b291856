import { AppError } from '../../../contract'
import { DecodeLimit } from '../../arrow/ipc/codecs'

/** Wrap a reader library's error (apache-arrow, hyparquet, csv-parse) as a `corrupt` AppError naming the file. */
export function corrupt(fileName: string, what: string, error: unknown, hint?: string): AppError {
  if (error instanceof AppError) return error
  // Not damage: a limit met (see checkDeclared).
  if (error instanceof DecodeLimit) return new AppError('unsupported', `${fileName} ${error.message}`, { hint: error.hint })
  const detail = error instanceof Error ? error.message : String(error)
  // A TypeError/RangeError is the reader tripping over bad bytes ("Cannot read properties of null"),
  // which means nothing to a person: say what it means instead and keep the text as detail.
  const crashed = error instanceof TypeError || error instanceof RangeError
  const reason = crashed ? 'its contents are truncated or damaged' : firstLine(detail)
  return new AppError('corrupt', `${fileName} is not a valid ${what}: ${reason}`, {
    detail,
    hint: hint ?? 'The file may be truncated or damaged; export it again',
    cause: error,
  })
}

function firstLine(text: string): string {
  const line = (text.split('\n')[0] ?? text).trim()
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError('cancelled', 'The import was cancelled')
}
