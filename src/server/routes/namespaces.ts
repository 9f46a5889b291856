import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../contract'
import { type NamespacePath, type TableId, normalizeMode } from '../../core/namespace'
import { allTables } from '../allTables'
import type { Catalog } from '../catalogs'
import { namespaceOf } from '../ids'
import { bodies, checkBody } from '../jsonBody'
import { invalid } from '../wireErrors'
import { refuseTakenByTable } from '../writeChecks'
import { listParams, noContent, page, type RouteContext } from './context'

/**
 * The namespace routes of the REST namespace contract (rest-contract.md §3.1) and the table lists: ListTables of
 * a namespace, ListAllTables (`GET /v1/table`) and Enterprise's `GET /v1/tables`.
 */
export function registerNamespaceRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { catalogOf, signalOf, json, body, read } = ctx

  app.get('/v1/namespace/:id/list', read, async (request, reply) => {
    const ns = namespaceOf(request)
    const p = await catalogOf(request).client.listNamespaces(ns, { ...listParams(ctx, request), signal: signalOf(request, reply) })
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

  app.post('/v1/namespace/:id/exists', read, async (request, reply) => {
    const ns = namespaceOf(request)
    await catalogOf(request).client.describeNamespace(ns, { signal: signalOf(request, reply) })
    return noContent(reply)
  })

  /** `include_declared=false` leaves out tables declared but not yet written (the spec's default is true). */
  const includeDeclared = (request: FastifyRequest): boolean => {
    const value = ctx.query(request).include_declared
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
    const p = await catalog.client.listTables(ns, { ...listParams(ctx, request), signal: signalOf(request, reply) })
    const items = declared ? p.items : (await withData(catalog, p.items.map((name) => ({ namespace: ns, name })))).map((id) => id.name)
    return json(reply, page('tables', { ...p, items }))
  }
  app.get('/v1/namespace/:id/table/list', read, (request, reply) => listTables(request, reply, namespaceOf(request)))
  // ListAllTables: every table of every namespace, as its id joined with `$` (`t` at the root, `a$b$t` below),
  // sorted; the page token is the last id of a page (the next page starts after it), as for the other lists.
  app.get('/v1/table', read, async (request, reply) => {
    const catalog = catalogOf(request)
    const { pageToken, limit } = listParams(ctx, request)
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
}

function stringMap(value: unknown, what: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string'))
    throw invalid(`${what} must be a map of strings`)
  return value as Record<string, string>
}
