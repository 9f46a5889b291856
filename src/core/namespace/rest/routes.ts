import type { Operation } from './capabilities'
import { ARROW_FILE, ARROW_STREAM } from './wire'

/**
 * One route of the REST namespace contract (rest-contract.md) as the client calls it: the operation it counts
 * under (the capability map's key), the verb, the path, and whether a failed call may be sent again.
 */
export interface Route {
  operation: Operation
  method: 'GET' | 'POST'
  /** Below the base URL; `{id}` stands for the encoded namespace or table id (the table name on `/v1/tables`). */
  path: string
  /** Reads are; writes are never retried blindly. */
  idempotent: boolean
  /** The enterprise `/v1/tables` routes take no `delimiter=`; every namespace route does. */
  withDelimiter?: false
  contentType?: string
  accept?: string
}

/** A query's reply: the contract answers an Arrow file; servers that can (ours) send the stream we want directly. */
const ARROW_REPLY = `${ARROW_STREAM}, ${ARROW_FILE};q=0.9, application/json;q=0.5`

/** Every route RestNamespaceClient calls (the lifecycle routes are RestLifecycle's, lifecycle.ts), in one table. */
export const ROUTES = {
  listNamespaces: { operation: 'namespace.list', method: 'GET', path: '/v1/namespace/{id}/list', idempotent: true },
  createNamespace: { operation: 'namespace.create', method: 'POST', path: '/v1/namespace/{id}/create', idempotent: false },
  describeNamespace: { operation: 'namespace.describe', method: 'POST', path: '/v1/namespace/{id}/describe', idempotent: true },
  dropNamespace: { operation: 'namespace.drop', method: 'POST', path: '/v1/namespace/{id}/drop', idempotent: false },
  namespaceExists: { operation: 'namespace.exists', method: 'POST', path: '/v1/namespace/{id}/exists', idempotent: true },
  listTables: { operation: 'table.list', method: 'GET', path: '/v1/namespace/{id}/table/list', idempotent: true },
  listAllTables: { operation: 'table.listAll', method: 'GET', path: '/v1/tables', idempotent: true, withDelimiter: false },
  createTableFromStream: { operation: 'table.createFromStream', method: 'POST', path: '/v1/tables/{id}', idempotent: false, withDelimiter: false, contentType: ARROW_STREAM },
  createTable: { operation: 'table.create', method: 'POST', path: '/v1/table/{id}/create', idempotent: false, contentType: ARROW_STREAM },
  describeTable: { operation: 'table.describe', method: 'POST', path: '/v1/table/{id}/describe', idempotent: true },
  /** What the Rust client sends; a predicate or a version goes in a POST body instead ({@link ROUTES.countRowsAt}). */
  countRows: { operation: 'table.countRows', method: 'GET', path: '/v1/table/{id}/count_rows', idempotent: true },
  countRowsAt: { operation: 'table.countRows', method: 'POST', path: '/v1/table/{id}/count_rows', idempotent: true },
  countFiltered: { operation: 'table.countFiltered', method: 'POST', path: '/v1/table/{id}/count_rows', idempotent: true },
  listIndexes: { operation: 'table.indexList', method: 'POST', path: '/v1/table/{id}/index/list', idempotent: true },
  explainPlan: { operation: 'table.explain', method: 'POST', path: '/v1/table/{id}/explain_plan', idempotent: true },
  analyzePlan: { operation: 'table.explain', method: 'POST', path: '/v1/table/{id}/analyze_plan', idempotent: true },
  /** Every read of rows; a view's reads count under the view's operation (filter, sort, search), given by the call. */
  query: { operation: 'table.query', method: 'POST', path: '/v1/table/{id}/query', idempotent: true, accept: ARROW_REPLY },
  insert: { operation: 'table.insert', method: 'POST', path: '/v1/table/{id}/insert', idempotent: false, contentType: ARROW_STREAM },
  restore: { operation: 'table.restore', method: 'POST', path: '/v1/table/{id}/restore', idempotent: false },
  dropTable: { operation: 'table.drop', method: 'POST', path: '/v1/table/{id}/drop', idempotent: false },
  renameTable: { operation: 'table.rename', method: 'POST', path: '/v1/table/{id}/rename', idempotent: false },
  tableExists: { operation: 'table.exists', method: 'POST', path: '/v1/table/{id}/exists', idempotent: true },
} as const satisfies Record<string, Route>
