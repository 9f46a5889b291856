import type { FastifyInstance } from 'fastify'
import { AppError } from '../../contract'
import { DirNamespaceClient, objectStoreUnsupported, WireCodedError } from '../../core/namespace'
import type { Catalog } from '../catalogs'
import { tableOf } from '../ids'
import type { RouteContext } from './context'
import { invalid } from '../wireErrors'

/** A name held by a namespace answers the namespace code (2), as every other write path does. */
function namespaceCoded(error: unknown): unknown {
  if (error instanceof AppError && error.code === 'already_exists' && /taken by a namespace/.test(error.message)) return new WireCodedError('already_exists', error.message, 2, { hint: error.hint })
  return error
}

/**
 * `register` and `deregister` (rest-contract §3) over a directory catalog (src/core/namespace/dir/register.ts):
 * register makes a Lance dataset directory inside the root a table; deregister stops listing a table and keeps
 * its data. Locations on the wire are relative to the catalog root (never server paths).
 */
export function registerRegisterRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body } = deps
  const dir = (catalog: Catalog): DirNamespaceClient => {
    if (catalog.isObjectStore) throw objectStoreUnsupported('register')
    if (!(catalog.client instanceof DirNamespaceClient)) throw new AppError('unsupported', 'This catalog cannot register tables')
    return catalog.client
  }

  app.post('/v1/table/:id/register', async (request, reply) => {
    const id = tableOf(request)
    const b = body(request)
    if (typeof b.location !== 'string' || b.location === '' || b.location.length > 4096) throw invalid('location is required (a dataset directory inside the catalog)')
    const mode = b.mode === undefined || b.mode === null ? 'create' : typeof b.mode === 'string' ? b.mode.toLowerCase() : ''
    if (mode === 'overwrite') throw new AppError('unsupported', 'This server registers with mode Create only', { hint: 'Deregister the table first, then register' })
    if (mode !== 'create') throw invalid('mode must be Create or Overwrite')
    const catalog = catalogOf(request)
    const location = await catalog
      .create([...id.namespace, id.name], 'table', () => dir(catalog).registerTable(id, b.location as string))
      .catch((error: unknown) => {
        throw namespaceCoded(error)
      })
      .finally(() => catalog.forget(id))
    return json(reply, { location, properties: {} })
  })

  app.post('/v1/table/:id/deregister', async (request, reply) => {
    const id = tableOf(request)
    const catalog = catalogOf(request)
    const location = await catalog.write(() => dir(catalog).deregisterTable(id)).finally(() => catalog.forget(id))
    return json(reply, { id: [...id.namespace, id.name], location, properties: {} })
  })
}
