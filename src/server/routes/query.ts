import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../contract'
import { emptyIpcStream } from '../../core/arrow'
import { viewSchema } from '../../core/query'
import { ORDER_APPLIED_HEADER, ARROW_FILE, ARROW_STREAM } from '../../core/namespace'
import { streamToFile } from '../arrowBody'
import { tableOf } from '../ids'
import type { RouteContext } from './context'
import { parseQueryRequest, predicateOf, versionOf } from './queryRequest'


/**
 * The data routes of the REST contract (rest-contract.md §3.3): query (QueryTableRequest: filter, vector search,
 * full-text search, columns, offset, version, row ids, fast search; plus our `order_by`), count_rows
 * (`predicate`, `version`; a bare integer), explain_plan and analyze_plan (a bare JSON string).
 * Every field is type-checked: a wrong type is 400 / code 13, never ignored.
 */
export function registerQueryRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const bodyOf = (request: FastifyRequest) =>
    request.body && typeof request.body === 'object' && !(request.body instanceof Uint8Array) && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {}
  const parse = (request: FastifyRequest, reply: FastifyReply, b: Record<string, unknown>) => {
    const catalog = ctx.catalogOf(request)
    const id = tableOf(request)
    return parseQueryRequest(b, async () => (await catalog.descriptions.describe(id, ctx.signalOf(request, reply))).schema, ctx.maxQueryRows)
  }

  app.post('/v1/table/:id/query', ctx.read, async (request, reply) => {
    const id = tableOf(request)
    const catalog = ctx.catalogOf(request)
    const q = await parse(request, reply, bodyOf(request))
    const signal = ctx.signalOf(request, reply)
    // No version asked for: the latest, as the (cheap, change-token checked) description names it, so a
    // write by another process since the last request is seen — never rows of a stale handle.
    const view = q.view.version !== undefined ? q.view : { ...q.view, version: (await catalog.descriptions.describe(id, signal)).version }
    let stream: Uint8Array
    if (q.limit === 0) {
      const d = await catalog.client.describeTable(id, { signal, version: view.version })
      stream = emptyIpcStream(viewSchema(d.schema, view))
    } else {
      stream = await catalog.client.readPage(id, { offset: q.offset, limit: q.limit, view, withRowId: q.withRowId, fastSearch: q.fastSearch, signal })
    }
    if (q.view.sort && !q.view.search) reply.header(ORDER_APPLIED_HEADER, 'true')
    // The contract's reply is an Arrow IPC file; a client that asks for the stream (ours) gets it as it is.
    if (prefersStream(request.headers.accept)) return reply.code(200).type(ARROW_STREAM).send(Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength))
    return reply.code(200).type(ARROW_FILE).send(Buffer.from(streamToFile(stream)))
  })

  const countRows = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = tableOf(request)
    const b = bodyOf(request)
    if (b.branch !== undefined && b.branch !== null) throw new AppError('unsupported', 'This server reads the main branch only')
    const predicate = predicateOf(b)
    const version = versionOf(b)
    const catalog = ctx.catalogOf(request)
    const signal = ctx.signalOf(request, reply)
    const n =
      predicate === undefined && version === undefined
        ? (await catalog.descriptions.describe(id, signal)).rowCount
        : await catalog.client.countRows(id, { view: { ...(version !== undefined ? { version } : {}), ...(predicate !== undefined ? { filter: predicate } : {}) }, signal })
    // A bare integer, as the spec and the Rust client expect (not the adapter's {"count": n}).
    return reply.code(200).type('application/json').send(String(n))
  }
  app.get('/v1/table/:id/count_rows', ctx.read, countRows)
  app.post('/v1/table/:id/count_rows', ctx.read, countRows)

  const plan = async (request: FastifyRequest, reply: FastifyReply, analyze: boolean) => {
    const id = tableOf(request)
    const b = bodyOf(request)
    let fields = b
    let verbose: boolean | undefined
    if (!analyze) {
      if (typeof b.query !== 'object' || b.query === null || Array.isArray(b.query)) throw new AppError('invalid_input', 'query must be a QueryTableRequest object')
      fields = b.query as Record<string, unknown>
      if (b.verbose !== undefined && b.verbose !== null && typeof b.verbose !== 'boolean') throw new AppError('invalid_input', 'verbose must be true or false')
      verbose = (b.verbose as boolean | null | undefined) ?? undefined
    }
    const q = await parse(request, reply, fields)
    const text = await ctx.catalogOf(request).client.explainQuery(id, q.view, { analyze, verbose, offset: q.offset, limit: q.limit, signal: ctx.signalOf(request, reply) })
    return reply.code(200).type('application/json').send(JSON.stringify(text))
  }
  app.post('/v1/table/:id/explain_plan', ctx.read, (request, reply) => plan(request, reply, false))
  app.post('/v1/table/:id/analyze_plan', ctx.read, (request, reply) => plan(request, reply, true))
}

/** True when the Accept header names the Arrow stream type ahead of (or without) the file type. */
function prefersStream(accept: string | undefined): boolean {
  if (!accept) return false
  const types = accept.split(',').map((part) => {
    const [type, ...params] = part.trim().split(';')
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)).find(Boolean)
    return { type: type!.trim().toLowerCase(), q: q ? Number(q[1]) : 1 }
  })
  const stream = types.find((t) => t.type === ARROW_STREAM)
  if (!stream || stream.q <= 0) return false
  const file = types.find((t) => t.type === ARROW_FILE)
  return !file || stream.q >= file.q
}
