/**
 * Errors cross every boundary (IPC, harness HTTP) as data, never as thrown exceptions:
 * Electron's `ipcMain.handle` would keep only `message` and drop the code.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'not_found'
  | 'already_exists'
  | 'not_empty'
  | 'permission_denied'
  | 'unauthenticated'
  | 'unsupported'
  | 'unavailable'
  | 'throttled'
  | 'timeout'
  | 'cancelled'
  | 'corrupt'
  | 'not_a_catalog'
  | 'conflict'
  | 'internal'

export interface AppErrorData {
  code: ErrorCode
  /** One sentence a person can act on. Never contains a secret. */
  message: string
  /** Optional technical detail (the underlying error text), shown collapsed. */
  detail?: string
  /** Suggested action, e.g. "Choose another directory". */
  hint?: string
  /** Where in the user's own text (a filter) the error stands: UTF-16 offsets [start, end), for the box to underline. */
  span?: { start: number; end: number }
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorData }

/** A typed error that carries an {@link AppErrorData}; thrown inside core, turned into data at the edge. */
export class AppError extends Error {
  readonly code: ErrorCode
  readonly detail?: string
  readonly hint?: string
  readonly span?: { start: number; end: number }
  constructor(code: ErrorCode, message: string, options: { detail?: string; hint?: string; span?: { start: number; end: number }; cause?: unknown } = {}) {
    super(message, { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.detail = options.detail
    this.hint = options.hint
    if (options.span) this.span = options.span
  }
  toData(): AppErrorData {
    const data: AppErrorData = { code: this.code, message: this.message }
    if (this.detail !== undefined) data.detail = this.detail
    if (this.hint !== undefined) data.hint = this.hint
    if (this.span !== undefined) data.span = { ...this.span }
    return data
  }
  static fromData(data: AppErrorData): AppError {
    return new AppError(data.code, data.message, { detail: data.detail, hint: data.hint, span: data.span })
  }
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value }
}

export function fail<T = never>(error: AppErrorData): Result<T> {
  return { ok: false, error }
}
