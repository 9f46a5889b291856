import type { FastifyReply } from 'fastify'
import { AppError } from '../contract'
import { toAppError } from '../core'
import { httpStatusOf, wireCodeOf } from '../core/namespace'

/** An AppError that also names the wire code to answer with (when the AppError code alone is ambiguous). */
export class WireError extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    message: string,
    readonly wireCode: number,
    options?: ConstructorParameters<typeof AppError>[2],
  ) {
    super(code, message, options)
  }
}

/** Which object a route is about, to pick between "namespace" and "table" codes (1/2 vs 4/5). */
export type Subject = 'namespace' | 'table'

/**
 * Every error reply is `{"error": string, "code": int}` (+`detail`): the REST clients decide the kind by
 * `code` alone and fail on anything else (rest-contract.md §2).
 */
export function sendError(reply: FastifyReply, error: unknown, subject: Subject): FastifyReply {
  let e = toAppError(error)
  if (/ENAMETOOLONG|name too long/i.test(`${e.message} ${e.detail ?? ''}`))
    e = new AppError('invalid_input', 'A name is too long for the catalog\'s file system', { hint: 'Use a shorter table or namespace name' })
  const aboutNamespace = subject === 'namespace' || /^(the parent of )?namespace\b|database/i.test(e.message)
  const wire = (error as { wireCode?: unknown }).wireCode
  const code = typeof wire === 'number' ? wire : wireCodeOf(e.code, aboutNamespace ? 'namespace' : 'table', subject)
  // No server path ever leaves the server (messages of file-system errors carry them).
  const body: { error: string; code: number; detail?: string } = { error: withoutPaths(e.message), code }
  // Internal details of unexpected failures stay in the server; the caller gets the sentence.
  // Lance's own texts also name files relative to the root (`…/t.lance/_versions/9.manifest`): redact those too.
  if (e.detail && e.code !== 'internal') body.detail = redactPaths(withoutPaths(e.detail))
  return reply.code(httpStatusOf(code)).type('application/json').send(body)
}

/** Absolute file paths (and file:// URLs) in a text, each cut to its last component. */
export function withoutPaths(text: string): string {
  return text.replace(/(?:file:\/\/)?(?:[A-Za-z]:)?[/\\](?:[^\s'"`,;()[\]{}<>/\\]+[/\\])+([^\s'"`,;()[\]{}<>/\\]*)/g, (_m, last: string) => `…/${last}`)
}

export function invalid(message: string, hint?: string): AppError {
  return new AppError('invalid_input', message, { hint })
}

/** Replace anything that looks like a file-system path (absolute or Lance's root-relative form) in a detail text. */
export function redactPaths(text: string): string {
  return text
    .replace(/(?:[A-Za-z]:)?(?:[\\/]?[\w.@$%+~-]+)?(?:[\\/][\w.@$%+~-]+){2,}[\\/]?/g, '<path>')
    .replace(/\/usr\/local\/cargo\S*/g, '<path>')
}
