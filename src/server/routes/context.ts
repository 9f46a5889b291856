import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../contract'
import { DATABASE_HEADER, type Catalog, type Catalogs } from '../catalogs'
import type { DecodeGuard } from '../decodeGuard'
import { invalid } from '../wireErrors'

/** What every route file is handed: the served catalogs, the request helpers and the limits. */
export interface RouteContext {
  /** The catalog a request names (`x-service-database`), or the default one. */
  catalogOf(request: FastifyRequest): Catalog
  /** Aborted when the caller goes away before the reply is sent (reads stop early; writes never take it). */
  signalOf(request: FastifyRequest, reply: FastifyReply): AbortSignal
  /** A 200 with a JSON body (success replies always carry one, rest-contract §9.4). */
  json(reply: FastifyReply, body: unknown): FastifyReply
  /** The request's JSON object body; `{}` for none, `null`, or a binary body. */
  body(request: FastifyRequest): Record<string, unknown>
  /** The request's query string. */
  query(request: FastifyRequest): Record<string, string | undefined>
  /** Route options of reads (the read timeout). */
  read: { handlerTimeout: number }
  /** Bounded decoding of Arrow bodies (src/server/decodeGuard.ts). */
  decodeGuard: DecodeGuard
  /** Largest `k` of a query. */
  maxQueryRows: number
}

export function routeContext(options: { catalogs: Catalogs; readTimeoutMs: number; maxQueryRows: number; decodeGuard: DecodeGuard }): RouteContext {
  // One listener per response (not per socket: keep-alive sockets would collect them).
  const signals = new WeakMap<FastifyRequest, AbortSignal>()
  return {
    catalogOf: (request) => {
      try {
        return options.catalogs.select(request.headers[DATABASE_HEADER])
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found') throw new AppError('not_found', `Namespace root: ${error.message}`)
        throw error
      }
    },
    signalOf: (request, reply) => {
      let signal = signals.get(request)
      if (!signal) {
        const controller = new AbortController()
        const response = reply.raw
        response.once('close', () => {
          if (!response.writableFinished) controller.abort()
        })
        signal = controller.signal
        signals.set(request, signal)
      }
      return signal
    },
    json: (reply, body) => reply.code(200).type('application/json').send(JSON.stringify(body ?? {})),
    body: (request) => (request.body && typeof request.body === 'object' && !(request.body instanceof Uint8Array) ? (request.body as Record<string, unknown>) : {}),
    query: (request) => request.query as Record<string, string | undefined>,
    read: { handlerTimeout: options.readTimeoutMs },
    decodeGuard: options.decodeGuard,
    maxQueryRows: options.maxQueryRows,
  }
}

/** A list's `page_token` and `limit` (a whole number ≥ 1). */
export function listParams(ctx: RouteContext, request: FastifyRequest): { pageToken?: string; limit?: number } {
  const { page_token: pageToken, limit } = ctx.query(request)
  const n = limit === undefined || limit === '' ? undefined : Number(limit)
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 1)) throw invalid('limit must be a whole number ≥ 1')
  return { pageToken: pageToken === '' ? undefined : pageToken, limit: n }
}

/** One page of a list on the wire: the names under `key`, and the next page's token when there is one. */
export function page(key: 'namespaces' | 'tables', p: { items: string[]; pageToken?: string }): Record<string, unknown> {
  return p.pageToken ? { [key]: p.items, page_token: p.pageToken } : { [key]: p.items }
}

/** NamespaceExists and TableExists answer "Success, no content" (the spec): 200 and an empty body. */
export function noContent(reply: FastifyReply): FastifyReply {
  return reply.code(200).send()
}

/** `storage_options` (rest-contract §3): what a client needs to reach the location, when the operator allows it. */
export function vended(catalog: Catalog): { storage_options?: Record<string, string> } {
  return catalog.vended && Object.keys(catalog.vended).length > 0 ? { storage_options: { ...catalog.vended } } : {}
}
