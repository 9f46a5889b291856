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
  if (isLancePanic(text)) return lancePanicError(err)
  return new AppError('internal', `Unexpected error: ${firstLine(text)}`, { detail: text, cause: err })
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/**
 * A panic inside Lance (or lancedb) reaches JS as the bare text "Panic in async function" (napi-rs catches it: the
 * process lives on); the panic's own message is printed to stderr only, so it is in the app's log, never in the error.
 */
export function isLancePanic(text: string): boolean {
  return /^Panic in async function|panicked at/i.test(text)
}

/** A Lance panic in words: what happened, that nothing is half-done, and what the user can do. */
export function lancePanicError(cause: Error, subject = 'the table'): AppError {
  return new AppError('internal', `Lance stopped on an internal failure (a panic) while it worked on ${subject}, so the step did not finish`, {
    detail: `${cause.message}. Lance printed the panic's cause to the app's log (stderr), not to this error.`,
    hint: 'Nothing was changed by this step (Lance writes a table version only when a step completes). Try again; if it fails the same way, the table or the data holds something this Lance release cannot handle — the app\'s log names it; convert that column (or export the table and import it again) and report the log line',
    cause,
  })
}
