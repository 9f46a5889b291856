import type { FastifyReply } from 'fastify'
import { AppError } from '../contract'
import { toAppError } from '../core/errors'
import { httpStatusOf, wireCodeOf } from '../core/namespace/rest/errors'

/** Which object a route is about, to pick between "namespace" and "table" codes (1/2 vs 4/5). */
export type Subject = 'namespace' | 'table'

/**
 * Every error reply is `{"error": string, "code": int}` (+`detail`): the REST clients decide the kind by
 * `code` alone and fail on anything else (rest-contract.md §2).
 */
export function sendError(reply: FastifyReply, error: unknown, subject: Subject): FastifyReply {
  const e = toAppError(error)
  const aboutNamespace = subject === 'namespace' || /^(the parent of )?namespace\b|database/i.test(e.message)
  const exact = (e as { wireCode?: unknown }).wireCode
  const code = typeof exact === 'number' ? exact : wireCodeOf(e.code, aboutNamespace ? 'namespace' : 'table', subject)
  const body: { error: string; code: number; detail?: string } = { error: e.message, code }
  // Internal details of unexpected failures stay in the server; the caller gets the sentence.
  // Lance's own texts name files (`…/t.lance/_versions/9.manifest`): no server path leaves in `detail`.
  if (e.detail && e.code !== 'internal') body.detail = redactPaths(e.detail)
  return reply.code(httpStatusOf(code)).type('application/json').send(body)
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
