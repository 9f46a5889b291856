import http from 'node:http'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Table as ArrowTable } from 'apache-arrow'
import { AppError } from '../contract'
import type { CreateMode } from '../core/namespace/client'
import { formatTableId, type NamespacePath, type TableId } from '../core/namespace/path'
import { schemaToJson } from '../core/namespace/rest/jsonSchema'
import { normalizeMode } from '../core/namespace/rest/wire'
import { readArrowBody } from './arrowBody'
import { ApiKeys } from './auth'
import { DecodeGuard } from './decodeGuard'
import { bodies, checkBody, parseJsonBody } from './jsonBody'
import { DATABASE_HEADER, type Catalog, type Catalogs } from './catalogs'
import { namespaceOf, tableNameParam, tableOf } from './ids'
import { registerQueryRoutes } from './routes/query'
import { versionOf } from './routes/queryRequest'
import { invalid, sendError, type Subject } from './wireErrors'
import { asClientError, refuseSchemaDifference, refuseTakenByNamespace, refuseTakenByTable } from './writeChecks'
import { registerLifecycleRoutes } from './routes/lifecycle'
import { registerRegisterRoutes } from './routes/register'
import { registerMetadataRoutes } from './routes/metadata'
import { allTables } from './allTables'

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

/**
 * The REST catalog server: the Lance REST namespace contract (rest-contract.md) over directory catalogs,
 * through our `dir` client. Routes are registered for both methods where clients disagree (§9.5), success
 * replies always carry a JSON body (§9.4) and errors `{error, code}` (§9.3).
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
    serverFactory: (handler) =>
      http.createServer({ requestTimeout, headersTimeout: Math.min(requestTimeout, 60_000), connectionsCheckingInterval: Math.max(50, Math.min(5_000, requestTimeout / 4)) }, handler),
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

  const catalogOf = (request: FastifyRequest): Catalog => {
    try {
      return options.catalogs.select(request.headers[DATABASE_HEADER])
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') throw new AppError('not_found', `Namespace root: ${error.message}`)
      throw error
    }
  }
  const read = { handlerTimeout: readTimeout }
  const json = (reply: FastifyReply, body: unknown) => reply.code(200).type('application/json').send(JSON.stringify(body ?? {}))
  const q = (request: FastifyRequest) => request.query as Record<string, string | undefined>
  const body = (request: FastifyRequest) => (request.body && typeof request.body === 'object' && !(request.body instanceof Uint8Array) ? (request.body as Record<string, unknown>) : {})
  // Aborted when the caller goes away before the reply is sent (reads stop early; writes never take it).
  // One listener per response (not per socket: keep-alive sockets would collect them).
  const signals = new WeakMap<FastifyRequest, AbortSignal>()
  const signalOf = (request: FastifyRequest, reply: FastifyReply): AbortSignal => {
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
  }
  const listParams = (request: FastifyRequest) => {
    const { page_token: pageToken, limit } = q(request)
    const n = limit === undefined || limit === '' ? undefined : Number(limit)
    if (n !== undefined && (!Number.isSafeInteger(n) || n < 1)) throw invalid('limit must be a whole number ≥ 1')
    return { pageToken: pageToken === '' ? undefined : pageToken, limit: n }
  }
  const page = (key: 'namespaces' | 'tables', p: { items: string[]; pageToken?: string }) =>
    p.pageToken ? { [key]: p.items, page_token: p.pageToken } : { [key]: p.items }

  // ---- namespaces ---------------------------------------------------------------------------

  app.get('/v1/namespace/:id/list', read, async (request, reply) => {
    const ns = namespaceOf(request)
    const p = await catalogOf(request).client.listNamespaces(ns, { ...listParams(request), signal: signalOf(request, reply) })
    return json(reply, page('namespaces', p))
  })

  app.post('/v1/namespace/:id/create', async (request, reply) => {
    const ns = namespaceOf(request)
    const b = checkBody(bodies.createNamespace, body(request))
    const mode = normalizeMode(b.mode) ?? 'create'
    if (!['create', 'existok', 'overwrite'].includes(mode)) throw invalid(`Unknown mode "${String(b.mode)}"; use Create, ExistOk or Overwrite`)
    const properties = stringMap(b.properties, 'properties')
    const catalog = catalogOf(request)
    const work = async () => {
      await refuseTakenByTable(catalog, ns)
      await catalog.client.createNamespace(ns, { mode: mode === 'create' ? 'create' : 'exist_ok', properties })
    }
    // Only a plain create can lose to another: ExistOk and Overwrite succeed whoever made the namespace.
    await (mode === 'create' && ns.length > 0 ? catalog.create(ns, 'namespace', work) : catalog.write(work))
    return json(reply, properties ? { properties } : {})
  })

  app.post('/v1/namespace/:id/describe', read, async (request, reply) => {
    const ns = namespaceOf(request)
    const d = await catalogOf(request).client.describeNamespace(ns, { signal: signalOf(request, reply) })
    return json(reply, { properties: d.properties })
  })

  app.post('/v1/namespace/:id/drop', async (request, reply) => {
    const ns = namespaceOf(request)
    const b = checkBody(bodies.dropNamespace, body(request))
    const mode = normalizeMode(b.mode) ?? 'fail'
    const behavior = normalizeMode(b.behavior) ?? 'restrict'
    if (!['fail', 'skip'].includes(mode)) throw invalid(`Unknown mode "${String(b.mode)}"; use Fail or Skip`)
    if (!['restrict', 'cascade'].includes(behavior)) throw invalid(`Unknown behavior "${String(b.behavior)}"; use Restrict or Cascade`)
    const catalog = catalogOf(request)
    try {
      await catalog.write(() => catalog.client.dropNamespace(ns, { behavior: behavior as 'restrict' | 'cascade' }))
    } catch (error) {
      if (!(mode === 'skip' && error instanceof AppError && error.code === 'not_found')) throw error
    }
    return json(reply, {})
  })

  // NamespaceExists and TableExists answer "Success, no content" (the spec): 200 and an empty body.
  const noContent = (reply: FastifyReply) => reply.code(200).send()

  app.post('/v1/namespace/:id/exists', read, async (request, reply) => {
    const ns = namespaceOf(request)
    await catalogOf(request).client.describeNamespace(ns, { signal: signalOf(request, reply) })
    return noContent(reply)
  })

  /** `include_declared=false` leaves out tables declared but not yet written (the spec's default is true). */
  const includeDeclared = (request: FastifyRequest): boolean => {
    const value = q(request).include_declared
    if (value === undefined || value === '' || value === 'true') return true
    if (value === 'false') return false
    throw invalid('include_declared must be true or false')
  }
  const withData = async (catalog: Catalog, ids: TableId[]): Promise<TableId[]> => {
    const located = await Promise.all(ids.map((id) => catalog.locator.locate(id).catch(() => null)))
    return ids.filter((_, i) => located[i]?.hasData)
  }
  const listTables = async (request: FastifyRequest, reply: FastifyReply, ns: NamespacePath) => {
    const catalog = catalogOf(request)
    const declared = includeDeclared(request)
    const p = await catalog.client.listTables(ns, { ...listParams(request), signal: signalOf(request, reply) })
    const items = declared ? p.items : (await withData(catalog, p.items.map((name) => ({ namespace: ns, name })))).map((id) => id.name)
    return json(reply, page('tables', { ...p, items }))
  }
  app.get('/v1/namespace/:id/table/list', read, (request, reply) => listTables(request, reply, namespaceOf(request)))
  // ListAllTables: every table of every namespace, as its id joined with `$` (`t` at the root, `a$b$t` below),
  // sorted; the page token is the last id of a page (the next page starts after it), as for the other lists.
  app.get('/v1/table', read, async (request, reply) => {
    const catalog = catalogOf(request)
    const { pageToken, limit } = listParams(request)
    const signal = signalOf(request, reply)
    let ids = await allTables(catalog, signal)
    if (!includeDeclared(request)) ids = await withData(catalog, ids)
    const names = ids.map((id) => [...id.namespace, id.name].join('$')).sort()
    const start = pageToken === undefined ? 0 : names.findIndex((n) => n > pageToken)
    const rest = start < 0 ? [] : names.slice(start)
    const items = limit === undefined ? rest : rest.slice(0, limit)
    return json(reply, page('tables', { items, pageToken: limit !== undefined && rest.length > limit ? items[items.length - 1] : undefined }))
  })
  // Enterprise: `GET /v1/tables` → {"tables": [...], "page_token"?}.
  app.get('/v1/tables', read, (request, reply) => listTables(request, reply, []))

  // ---- tables -------------------------------------------------------------------------------

  const describe = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = tableOf(request)
    const flags = q(request)
    const catalog = catalogOf(request)
    const detailed = flags.load_detailed_metadata === 'true'
    // The details (when asked) are read alongside the location: one round of disk work, not two.
    const version = versionOf(body(request))
    const describeDetails = () => (version === undefined ? catalog.descriptions.describe(id, signalOf(request, reply)) : catalog.client.describeTable(id, { version, signal: signalOf(request, reply) }))
    const details = detailed ? describeDetails().then((d) => ({ d }), (error: unknown) => ({ error })) : undefined
    const located = await catalog.locator.locate(id)
    if (!located) {
      // No location: ask the client, whose message says whether the table or its namespace is missing.
      const outcome = await (details ?? catalog.client.describeTable(id, { signal: signalOf(request, reply) }).then((d) => ({ d }), (error: unknown) => ({ error })))
      if ('error' in outcome) throw outcome.error
      throw new AppError('not_found', `Table ${[...id.namespace, id.name].join('/')} does not exist`)
    }
    const out: Record<string, unknown> = { location: located.location, ...vended(catalog) }
    if (flags.with_table_uri === 'true') out.table_uri = located.location
    if (!located.hasData) {
      // Declared, not yet written (the lancedb client writes the data itself after declare).
      out.is_only_declared = true
      return json(reply, out)
    }
    if (details) {
      const outcome = await details
      if ('error' in outcome) throw outcome.error
      const d = outcome.d
      // `num_rows` is our extension (unknown fields are ignored by other clients): it saves a count_rows call.
      Object.assign(out, { table: id.name, namespace: [...id.namespace], version: d.version, schema: schemaToJson(d.schema), num_rows: d.rowCount })
    }
    return json(reply, out)
  }
  app.post('/v1/table/:id/describe', read, describe)

  app.post('/v1/table/:id/declare', async (request, reply) => {
    const id = tableOf(request)
    const catalog = catalogOf(request)
    const location = await catalog.create([...id.namespace, id.name], 'table', async () => {
      if (id.namespace.length > 0) await catalog.client.describeNamespace(id.namespace)
      await refuseTakenByNamespace(catalog, id)
      return catalog.locator.declare(id)
    })
    return json(reply, { location, ...vended(catalog) })
  })

  const create = async (request: FastifyRequest, reply: FastifyReply, id: TableId, mode: CreateMode) => {
    const data = await readArrowBody(request.body, decodeGuard)
    const catalog = catalogOf(request)
    const work = async () => {
      await refuseTakenByNamespace(catalog, id)
      // Checked under the name's claim: a table another process made is never overwritten by a create.
      if (mode === 'create' && (await catalog.locator.locate(id))?.hasData) throw new AppError('already_exists', `Table ${formatTableId(id)} already exists`)
      return createFrom(catalog, id, data, mode).finally(() => catalog.forget(id))
    }
    const d = await (mode === 'create' ? catalog.create([...id.namespace, id.name], 'table', work) : catalog.write(work))
    const located = await catalog.locator.locate(id)
    return json(reply, { ...(located ? { location: located.location } : {}), version: d.version })
  }
  app.post('/v1/table/:id/create', async (request, reply) => create(request, reply, tableOf(request), createMode(q(request).mode)))
  // Enterprise: `POST /v1/tables/{table_name}` makes a new root table from an Arrow stream (409 / code 5 if it exists).
  app.post('/v1/tables/:name', async (request, reply) => create(request, reply, tableNameParam(request), 'create'))

  app.post('/v1/table/:id/insert', async (request, reply) => {
    const id = tableOf(request)
    const mode = normalizeMode(q(request).mode) ?? 'append'
    if (mode !== 'append' && mode !== 'overwrite') throw invalid(`Unknown insert mode "${q(request).mode}"; use append or overwrite`)
    const data = await readArrowBody(request.body, decodeGuard)
    const catalog = catalogOf(request)
    const version = await catalog.write(async () => {
      if (mode === 'overwrite') {
        await catalog.client.describeTable(id) // overwrite replaces an existing table; it never creates one
        return (await createFrom(catalog, id, data, 'overwrite')).version
      }
      refuseSchemaDifference((await catalog.descriptions.describe(id)).schema, data.schema)
      return catalog.client.appendRows(id, data)
    }).finally(() => catalog.forget(id))
    return json(reply, { version, num_inserted_rows: data.numRows })
  })

  registerQueryRoutes(app, { catalogOf, signalOf, read, maxQueryRows })

  app.post('/v1/table/:id/drop', async (request, reply) => {
    const id = tableOf(request)
    const catalog = catalogOf(request)
    const located = await catalog.locator.locate(id)
    await catalog.write(async () => {
      catalog.forget(id)
      try {
        await catalog.client.dropTable(id)
      } catch (error) {
        if (error instanceof AppError && error.code === 'not_found' && (await catalog.locator.dropUnlisted(id))) return
        // Listed but damaged (no data, unreadable): remove its row and directory, so anything listed can go.
        if (!(error instanceof AppError && error.code === 'not_found') || (await catalog.locator.locate(id))) {
          if (await catalog.locator.dropDamaged(id)) return
        }
        throw error
      }
    })
    return json(reply, { id: [...id.namespace, id.name], ...(located ? { location: located.location } : {}) })
  })

  app.post('/v1/table/:id/rename', async (request, reply) => {
    const id = tableOf(request)
    const b = checkBody(bodies.rename, body(request))
    const newName = b.new_table_name
    if (typeof newName !== 'string') throw invalid('new_table_name is required')
    const newNs = b.new_namespace_id ?? b.new_namespace
    if (newNs !== undefined && newNs !== null && (!Array.isArray(newNs) || !newNs.every((p) => typeof p === 'string'))) throw invalid('new_namespace_id must be a list of names')
    const catalog = catalogOf(request)
    catalog.forget(id)
    const newNamespace = (newNs as string[] | null | undefined) ?? undefined
    await catalog.write(async () => {
      await refuseTakenByNamespace(catalog, { namespace: newNamespace ?? id.namespace, name: newName })
      await catalog.client.renameTable(id, newName, { newNamespace })
    })
    // A table renamed inside a child namespace keeps its directory: forget both names' cached locations.
    catalog.forget(id)
    catalog.forget({ namespace: newNamespace ?? id.namespace, name: newName })
    return json(reply, {})
  })

  app.post('/v1/table/:id/exists', read, async (request, reply) => {
    const id = tableOf(request)
    versionOf(body(request)) // type-checked like describe's
    const catalog = catalogOf(request)
    // A declared table exists (it is listed, and describe says `is_only_declared`); otherwise the client's
    // describe says whether the table or its namespace is missing.
    if (!(await catalog.locator.locate(id))) await catalog.client.describeTable(id, { signal: signalOf(request, reply) })
    return noContent(reply)
  })

  app.post('/v1/table/:id/restore', async (request, reply) => {
    const id = tableOf(request)
    const version = checkBody(bodies.restore, body(request)).version
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) throw invalid('version must be a whole number ≥ 1')
    const catalog = catalogOf(request)
    await catalog.write(() => catalog.client.restoreVersion(id, version)).finally(() => catalog.forget(id))
    return json(reply, {})
  })

  registerLifecycleRoutes(app, { catalogOf, json, body, read, decodeGuard })
  registerRegisterRoutes(app, { catalogOf, json, body })
  registerMetadataRoutes(app, { catalogOf, json, body })
  return app
}

/** The routes that take Arrow IPC bodies (and so the large body limit). */
const ARROW_ROUTES = [
  { prefix: '/v1/table/', suffix: '/create' },
  { prefix: '/v1/table/', suffix: '/insert' },
  { prefix: '/v1/table/', suffix: '/merge_insert' },
  { prefix: '/v1/tables/', suffix: '' },
]

function createMode(value: string | undefined): CreateMode {
  const mode = normalizeMode(value) ?? 'create'
  if (mode === 'create') return 'create'
  if (mode === 'overwrite') return 'overwrite'
  if (mode === 'existok') return 'exist_ok'
  throw invalid(`Unknown create mode "${value}"; use create, overwrite or exist_ok`)
}

/** An empty stream (schema, no rows) makes an empty table (the spec's rule). */
async function createFrom(catalog: Catalog, id: TableId, data: ArrowTable, mode: CreateMode) {
  if (data.numRows === 0) return catalog.client.createEmptyTable(id, data.schema, { mode })
  return catalog.client.createTable(id, data, { mode })
}

/** `storage_options` (rest-contract §3): what a client needs to reach the location, when the operator allows it. */
function vended(catalog: Catalog): { storage_options?: Record<string, string> } {
  return catalog.vended && Object.keys(catalog.vended).length > 0 ? { storage_options: { ...catalog.vended } } : {}
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : bytes >= 1024 && bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

function stringMap(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string'))
    throw invalid(`${what} must be a map of strings`)
  return value as Record<string, string>
}
