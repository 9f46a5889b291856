import { AppError } from '../contract'

/**
 * Turn anything thrown into an AppError with a message a person can act on.
 * Implementations throw AppErrors for what they understand; this catches the rest
 * (Node fs errors, Lance errors) by their codes and texts.
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error
  const err = error instanceof Error ? error : new Error(String(error))
  const code = (err as NodeJS.ErrnoException).code
  const text = err.message
  if (err.name === 'AbortError' || code === 'ABORT_ERR') return new AppError('cancelled', 'The request was cancelled', { cause: err })
  if (code === 'ENOENT') return new AppError('not_found', 'The file or directory does not exist', { detail: text, cause: err })
  if (code === 'EACCES' || code === 'EPERM')
    return new AppError('permission_denied', 'Permission denied', { detail: text, hint: 'Check the folder permissions', cause: err })
  if (/not found/i.test(text)) return new AppError('not_found', firstLine(text), { detail: text, cause: err })
  if (/already exists/i.test(text)) return new AppError('already_exists', firstLine(text), { detail: text, cause: err })
  if (/not empty/i.test(text)) return new AppError('not_empty', firstLine(text), { detail: text, cause: err })
  if (/permission denied/i.test(text)) return new AppError('permission_denied', 'Permission denied', { detail: text, cause: err })
  return new AppError('internal', `Unexpected error: ${firstLine(text)}`, { detail: text, cause: err })
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}
