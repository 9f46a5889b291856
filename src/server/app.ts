import http from 'node:http'
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify'
import { AppError } from '../contract'
import { ApiKeys } from './auth'
import type { Catalogs } from './catalogs'
import { DecodeGuard } from './decodeGuard'
import { parseJsonBody } from './jsonBody'
import { routeContext } from './routes/context'
import { registerLifecycleRoutes } from './routes/lifecycle'
import { registerMetadataRoutes } from './routes/metadata'
import { registerNamespaceRoutes } from './routes/namespaces'
import { registerQueryRoutes } from './routes/query'
import { registerRegisterRoutes } from './routes/register'
import { registerTableRoutes } from './routes/tables'
import { sendError, type Subject } from './wireErrors'
import { asClientError } from './writeChecks'

export interface AppOptions {
  catalogs: Catalogs
  apiKeys: readonly string[]
  /** Largest request body (Arrow uploads), bytes. Larger → 413. */
  bodyLimit?: number
  /** Largest body of the routes that take JSON (all but the Arrow routes), bytes. Larger → 413. */
  jsonBodyLimit?: number
  /** Time to receive a whole request, ms (socket level). */
  requestTimeoutMs?: number
  /** Time a read may take, ms (reads are cancelled cooperatively; writes always finish). */
  readTimeoutMs?: number
  /** Longest an Arrow body may take to decode (in a worker), ms; longer → 400. */
  decodeDeadlineMs?: number
  /** Largest `k` of a query. */
  maxQueryRows?: number
  /** One line per request (method, path, status); never headers or bodies. */
  log?: (line: string) => void
}

/** How long an idle connection is kept: longer than the clients' pools keep theirs (hyper's 90 s). */
export const KEEP_ALIVE_MS = 120_000

/**
 * The REST catalog server: the Lance REST namespace contract (rest-contract.md) over directory catalogs,
 * through our `dir` client. This file is the HTTP setup (limits, body parsers, auth, errors); the routes live in
 * routes/, one file per part of the contract, each handed one RouteContext (routes/context.ts). Routes are registered for both
 * methods where clients disagree (§9.5), success replies always carry a JSON body (§9.4) and errors
 * `{error, code}` (§9.3).
 */
export function buildApp(options: AppOptions): FastifyInstance {
  const keys = new ApiKeys(options.apiKeys)
  const readTimeout = options.readTimeoutMs ?? 60_000
  const maxQueryRows = options.maxQueryRows ?? 1_000_000
  const requestTimeout = options.requestTimeoutMs ?? 120_000
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? 256 * 1024 * 1024,
    requestTimeout,
    // Node checks request timeouts only every `connectionsCheckingInterval` (30 s by default), which is
    // fixed when the server is made: make it fit the timeout.
    serverFactory: (handler) => {
      const server = http.createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000), connectionsCheckingInterval: Math.max(50, Math.min(5_000, requestTimeout / 4)) }, handler)
      // With a serverFactory Fastify leaves keep-alive at Node's 5 s. lancedb's REST client (reqwest/hyper) keeps an
      // idle connection for 90 s and ignores the Keep-Alive hint, so a request it sent as the server closed that
      // connection failed with "IncompleteMessage" (fresh-clone run 40). Outlasting its pool, the client always
      // closes first.
      server.keepAliveTimeout = KEEP_ALIVE_MS
      return server
    },
    forceCloseConnections: 'idle',
    // We answer requests that arrive during shutdown ourselves, in the contract's error shape.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 32 * 1024 },
    // A path the router cannot decode (malformed percent-encoding) never reaches the hooks: check the key
    // here too (auth first, always), then answer in the contract's shape.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as unknown as FastifyReply
      if (!keys.accepts(ApiKeys.presented(request.headers))) {
        return reply.code(401).type('application/json').send({ error: 'Missing or invalid API key', code: 16 })
      }
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
      return reply.code(status).type('application/json').send({ error: status === 414 ? 'The path is too long' : 'The path is not valid percent-encoding', code: 13 })
    },
  })

  // Bodies: JSON (empty and `null` tolerated: clients send both); Arrow and anything else as raw bytes.
  // Size is capped per route (below) while the body arrives; depth by a bounded scan before JSON.parse.
  app.removeContentTypeParser(['application/json', 'text/plain'])
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body: Buffer, done) => {
    try {
      done(null, parseJsonBody(body))
    } catch (error) {
      done(error as Error, undefined)
    }
  })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) => done(null, new Uint8Array(body.buffer, body.byteOffset, body.byteLength)))

  // Only the Arrow routes take big bodies; every other route gets the small JSON limit.
  const jsonBodyLimit = options.jsonBodyLimit ?? 1024 * 1024
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit === undefined && !ARROW_ROUTES.some((r) => route.url.startsWith(r.prefix) && route.url.endsWith(r.suffix))) route.bodyLimit = jsonBodyLimit
  })

  const decodeGuard = new DecodeGuard(options.decodeDeadlineMs ?? 10_000)
  app.addHook('onClose', async () => decodeGuard.close())

  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  // Auth on every route, including unknown ones: nothing is revealed to a caller without a key.
  app.addHook('onRequest', async (request, reply) => {
    if (closing) {
      reply.header('connection', 'close')
      return reply.code(503).type('application/json').send({ error: 'The server is shutting down', code: 17 })
    }
    if (!keys.accepts(ApiKeys.presented(request.headers))) {
      return reply.code(401).type('application/json').send({ error: 'Missing or invalid API key', code: 16 })
    }
  })
  if (options.log) {
    const log = options.log
    app.addHook('onResponse', async (request, reply) => {
      log(`${request.method} ${(request.raw.url ?? '').split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)}ms`)
    })
  }

  app.setErrorHandler((error, request, reply) => {
    const code = (error as { code?: string }).code
    const subject: Subject = request.url.startsWith('/v1/namespace') && !request.url.includes('/table/') ? 'namespace' : 'table'
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // The limit of this route: 1 MiB for JSON routes, --max-body-mb for the Arrow ones.
      const limit = request.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0
      const route = request.routeOptions.url ?? ''
      const arrow = ARROW_ROUTES.some((r) => route.startsWith(r.prefix) && route.endsWith(r.suffix))
      return reply.code(413).type('application/json').send({ error: `The request body is larger than this route accepts: ${arrow ? 'Arrow bodies' : 'JSON bodies'} up to ${sizeText(limit)} (${limit} bytes)`, code: 13 })
    }
    if (code === 'FST_ERR_HANDLER_TIMEOUT') return reply.code(503).type('application/json').send({ error: 'The server took too long to answer', code: 17 })
    if (typeof code === 'string' && code.startsWith('FST_ERR_CTP'))
      return reply.code(400).type('application/json').send({ error: (error as Error).message, code: 13 })
    if ((error as { statusCode?: number }).statusCode === 400 && !(error instanceof AppError))
      return reply.code(400).type('application/json').send({ error: (error as Error).message, code: 13 })
    // Lance's refusals of the client's data, and lost races, are the client's to hear about (4xx).
    return sendError(reply, asClientError(error), subject)
  })
  app.setNotFoundHandler((request, reply) => {
    // The route itself does not exist: "unsupported" (code 0), so clients can disable the action.
    reply.code(404).type('application/json').send({ error: `This server has no route ${request.method} ${(request.raw.url ?? '').split('?')[0]}`, code: 0 })
  })

  const ctx = routeContext({ catalogs: options.catalogs, readTimeoutMs: readTimeout, maxQueryRows, decodeGuard })
  registerNamespaceRoutes(app, ctx)
  registerTableRoutes(app, ctx)
  registerQueryRoutes(app, ctx)
  registerLifecycleRoutes(app, ctx)
  registerRegisterRoutes(app, ctx)
  registerMetadataRoutes(app, ctx)
  return app
}

/** The routes that take Arrow IPC bodies (and so the large body limit). */
const ARROW_ROUTES = [
  { prefix: '/v1/table/', suffix: '/create' },
  { prefix: '/v1/table/', suffix: '/insert' },
  { prefix: '/v1/table/', suffix: '/merge_insert' },
  { prefix: '/v1/tables/', suffix: '' },
]

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}
