import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Table as ArrowTable } from 'apache-arrow'
import { AppError } from '../../contract'
import { formatTableId, normalizeMode, schemaToJson, type CreateMode, type TableId } from '../../core/namespace'
import { readArrowBody } from '../arrowBody'
import type { Catalog } from '../catalogs'
import { tableNameParam, tableOf } from '../ids'
import { bodies, checkBody } from '../jsonBody'
import { invalid } from '../wireErrors'
import { refuseSchemaDifference, refuseTakenByNamespace } from '../writeChecks'
import { noContent, vended, type RouteContext } from './context'
import { versionOf } from './queryRequest'

/**
 * The table routes of the REST namespace contract (rest-contract.md §3.2) but the data and lifecycle ones:
 * describe, declare, create (also Enterprise's `POST /v1/tables/{name}`), insert, drop, rename, exists, restore.
 */
export function registerTableRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { catalogOf, signalOf, json, body, read, decodeGuard } = ctx

  const describe = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = tableOf(request)
    const flags = ctx.query(request)
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
  app.post('/v1/table/:id/create', async (request, reply) => create(request, reply, tableOf(request), createMode(ctx.query(request).mode)))
  // Enterprise: `POST /v1/tables/{table_name}` makes a new root table from an Arrow stream (409 / code 5 if it exists).
  app.post('/v1/tables/:name', async (request, reply) => create(request, reply, tableNameParam(request), 'create'))

  app.post('/v1/table/:id/insert', async (request, reply) => {
    const id = tableOf(request)
    const mode = normalizeMode(ctx.query(request).mode) ?? 'append'
    if (mode !== 'append' && mode !== 'overwrite') throw invalid(`Unknown insert mode "${ctx.query(request).mode}"; use append or overwrite`)
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
}

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
