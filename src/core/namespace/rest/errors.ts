import { AppError, type ErrorCode } from '../../../contract'

/**
 * The integer error codes of the REST namespace contract (rest-contract.md §2). The client decides the
 * kind of an error by this code alone; the HTTP status counts only when the body carries no code.
 */
export const WireCode = {
  Unsupported: 0,
  NamespaceNotFound: 1,
  NamespaceAlreadyExists: 2,
  NamespaceNotEmpty: 3,
  TableNotFound: 4,
  TableAlreadyExists: 5,
  TableIndexNotFound: 6,
  TableIndexAlreadyExists: 7,
  TableTagNotFound: 8,
  TableTagAlreadyExists: 9,
  TransactionNotFound: 10,
  TableVersionNotFound: 11,
  TableColumnNotFound: 12,
  InvalidInput: 13,
  ConcurrentModification: 14,
  PermissionDenied: 15,
  Unauthenticated: 16,
  ServiceUnavailable: 17,
  Internal: 18,
  InvalidTableState: 19,
  TableSchemaValidationError: 20,
  Throttling: 21,
  TableBranchNotFound: 22,
  TableBranchAlreadyExists: 23,
} as const

/** The HTTP status our server sends with each code (the reference adapter's mapping). */
export function httpStatusOf(code: number): number {
  switch (code) {
    case 0: return 406
    case 1: case 4: case 6: case 8: case 10: case 11: case 12: case 22: return 404
    case 2: case 3: case 5: case 7: case 9: case 14: case 19: case 23: return 409
    case 13: case 20: return 400
    case 15: return 403
    case 16: return 401
    case 17: return 503
    case 21: return 429
    default: return 500
  }
}

/** Our AppError code for a wire code. */
export function appCodeOf(code: number): ErrorCode {
  switch (code) {
    case 0: return 'unsupported'
    case 1: case 4: case 6: case 8: case 10: case 11: case 12: case 22: return 'not_found'
    case 2: case 5: case 7: case 9: case 23: return 'already_exists'
    case 3: return 'not_empty'
    case 13: case 20: return 'invalid_input'
    case 14: case 19: return 'conflict'
    case 15: return 'permission_denied'
    case 16: return 'unauthenticated'
    case 17: return 'unavailable'
    case 21: return 'throttled'
    default: return 'internal'
  }
}

/** Inverse mapping, used by our server to answer an AppError with a wire code. */
export function wireCodeOf(code: ErrorCode, notFoundKind: 'namespace' | 'table' = 'table', existsKind: 'namespace' | 'table' = 'table'): number {
  switch (code) {
    case 'unsupported': return 0
    case 'not_found': return notFoundKind === 'namespace' ? 1 : 4
    case 'already_exists': return existsKind === 'namespace' ? 2 : 5
    case 'not_empty': return 3
    case 'invalid_input': case 'corrupt': return 13
    case 'conflict': return 14
    case 'permission_denied': return 15
    case 'unauthenticated': return 16
    case 'unavailable': case 'timeout': return 17
    case 'throttled': return 21
    default: return 18
  }
}

/** What each kind means to a person, and what they can do about it. */
const sentences: Partial<Record<ErrorCode, { message: string; hint?: string }>> = {
  unauthenticated: { message: 'The server rejected the API key', hint: 'Check the API key or token in the connection settings' },
  permission_denied: { message: 'The server refused permission for this operation', hint: 'Ask the catalog owner for access, or use a key with more rights' },
  throttled: { message: 'The server is throttling requests', hint: 'Wait a moment and try again' },
  unavailable: { message: 'The server is unavailable right now', hint: 'Try again later' },
  unsupported: { message: 'This server does not support this operation' },
}

export interface WireErrorBody {
  error?: string
  code: number
  detail?: string
}

/** Parse an error body; `null` when it is not JSON with an integer `code` (then the status decides). */
export function parseErrorBody(text: string): WireErrorBody | null {
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && Number.isInteger((value as { code?: unknown }).code)) {
      const v = value as { error?: unknown; code: number; detail?: unknown }
      return {
        code: v.code,
        error: typeof v.error === 'string' ? v.error : undefined,
        detail: typeof v.detail === 'string' ? v.detail : undefined,
      }
    }
  } catch {
    /* not JSON */
  }
  return null
}

/** The wire code implied by an HTTP status when the body has none. */
export function wireCodeOfStatus(status: number): number {
  switch (status) {
    case 400: case 413: case 422: return 13
    case 401: return 16
    case 403: return 15
    case 404: return 4
    case 406: case 405: case 501: return 0
    case 409: return 14
    case 429: return 21
    case 502: case 503: case 504: return 17
    default: return 18
  }
}

/**
 * Build the AppError for a failed response. `what` names the operation and its object for the sentence
 * ("list the tables of sales"). The server's own text goes into `detail`, already redacted by the caller.
 */
export function errorFromResponse(
  status: number,
  body: WireErrorBody | null,
  what: string,
  serverText: string | undefined,
): AppError {
  const code = body ? body.code : wireCodeOfStatus(status)
  // A bare 413 maps to code 13, invalid input.
  const appCode = appCodeOf(code)
  const detailParts = [`HTTP ${status}`, body ? `code ${code}` : 'no error code in the reply']
  if (serverText) detailParts.push(serverText)
  const detail = detailParts.join('; ')
  const known = sentences[appCode]
  if (known) return new AppError(appCode, `${known.message} (${what})`, { detail, hint: known.hint })
  const serverSays = body?.error ? `: ${firstLine(body.error)}` : ''
  if (status === 413 && !body) return new AppError('invalid_input', `The server refused to ${what}: the request is too large`, { detail })
  switch (appCode) {
    case 'not_found':
      return new AppError('not_found', `Could not ${what}: not found${serverSays}`, { detail })
    case 'already_exists':
      return new AppError('already_exists', `Could not ${what}: it already exists${serverSays}`, { detail, hint: 'Choose another name' })
    case 'not_empty':
      return new AppError('not_empty', `Could not ${what}: the namespace is not empty${serverSays}`, { detail, hint: 'Drop the tables and namespaces inside it first' })
    case 'invalid_input':
      return new AppError('invalid_input', `The server refused to ${what}: invalid input${serverSays}`, { detail })
    case 'conflict':
      return new AppError('conflict', `Could not ${what}: another change got there first${serverSays}`, { detail, hint: 'Refresh and try again' })
    default:
      return new AppError('internal', `The server failed to ${what}${serverSays}`, { detail })
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/**
 * Network failures in words. undici reports them as `TypeError: fetch failed` with the system error
 * in `cause` (sometimes nested once more).
 */
export function errorFromNetwork(error: unknown, host: string, what: string): AppError {
  const causes: Array<{ code?: string; message?: string }> = []
  let current: unknown = error
  for (let i = 0; i < 4 && current && typeof current === 'object'; i++) {
    causes.push(current as { code?: string; message?: string })
    current = (current as { cause?: unknown }).cause
  }
  const codes = causes.map((c) => c.code).filter((c): c is string => typeof c === 'string')
  const texts = causes.map((c) => c.message).filter((m): m is string => typeof m === 'string')
  const has = (...names: string[]) => codes.some((c) => names.includes(c))
  const detail = [...new Set([...codes, ...texts])].join('; ')
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL'))
    return new AppError('unavailable', `Could not ${what}: the server name "${host}" could not be found (DNS)`, { detail, hint: 'Check the endpoint URL and your network' })
  if (has('ECONNREFUSED'))
    return new AppError('unavailable', `Could not ${what}: ${host} refused the connection`, { detail, hint: 'Check that the server is running and the port is right' })
  if (has('ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'))
    return new AppError('unavailable', `Could not ${what}: the connection to ${host} was closed unexpectedly`, { detail, hint: 'Try again' })
  if (has('UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'))
    return new AppError('timeout', `Could not ${what}: ${host} did not answer in time`, { detail, hint: 'Check the endpoint URL and your network, then try again' })
  if (
    codes.some((c) => /CERT|SSL|TLS|ERR_TLS|SELF_SIGNED|UNABLE_TO_VERIFY|EPROTO/.test(c)) ||
    texts.some((t) => /certificate|ssl|tls|wrong version number/i.test(t))
  )
    return new AppError('unavailable', `Could not ${what}: a secure (TLS) connection to ${host} could not be established`, {
      detail,
      hint: 'Check the certificate, or whether the endpoint should start with http:// instead of https://',
    })
  if (has('ENETUNREACH', 'EHOSTUNREACH'))
    return new AppError('unavailable', `Could not ${what}: ${host} cannot be reached from this network`, { detail })
  return new AppError('unavailable', `Could not ${what}: the request to ${host} failed`, { detail, hint: 'Check the endpoint URL and your network' })
}
