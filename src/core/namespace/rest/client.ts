import * as arrow from 'apache-arrow'
import { AppError, type Page } from '../../../contract'
import { viewPredicate, type TableViewSpec } from '../../../contract'
import { operationOf, ORDER_APPLIED_HEADER, queryTableRequest } from './queryRequest'
import { restScan, countFromReply, indexesFromReply } from './queries'
import type { CallOptions, CreateMode, DescribeOptions, ExplainOptions, IndexSummary, ListOptions, NamespaceClient, ReadPageOptions, ScanOptions, TableDescription, ViewOptions } from '../client'
import { assertComponent, assertNamespacePath, assertTableId, formatNamespace, formatTableId, type NamespacePath, type TableId } from '../path'
import { CapabilityMap, type Operation } from './capabilities'
import { headerOf, RestTransport, type RequestSpec } from './http'
import { describeFields, schemaFromJson, type JsonArrowSchema } from './jsonSchema'
import { ARROW_FILE, ARROW_STREAM, DEFAULT_DELIMITER, encodeId } from './wire'
import { RestLifecycle } from './lifecycle'
import { ROUTES, type Route } from './routes'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../../contract/lifecycle'

export interface RestClientOptions {
  uri: string
  headers?: Record<string, string>
  delimiter?: string
  timeoutMs?: number
  maxRetries?: number
  backoffMs?: number
  maxRetryAfterMs?: number
  /** Keep-alive connections to the server (default 8). */
  connections?: number
}

interface ListResponse {
  namespaces?: string[]
  tables?: string[]
  page_token?: string | null
}

interface DescribeTableResponse {
  location?: string
  version?: number
  schema?: JsonArrowSchema
  table?: string
  namespace?: string[]
  properties?: Record<string, string> | null
  /** Our server's extension: the row count, so no count_rows call is needed. */
  num_rows?: number
}

/**
 * The REST namespace client (rest-contract.md): ids `$`-joined and form-encoded in the path, the root
 * namespace addressed by the delimiter, `?delimiter=%24`, JSON bodies without absent optionals, errors by
 * their integer `code`, Arrow IPC stream bodies for writes and Arrow IPC file replies for queries.
 * Also the enterprise routes `GET /v1/tables` and `POST /v1/tables/{table_name}`.
 */
export class RestNamespaceClient implements NamespaceClient {
  readonly implementation = 'rest' as const
  readonly capabilities = new CapabilityMap()
  private readonly http: RestTransport
  private readonly delimiter: string
  private readonly closing = new AbortController()
  /** Learned: the server puts `num_rows` into detailed describe replies (ours does). */
  private describeHasRowCount = false

  constructor(options: RestClientOptions) {
    this.delimiter = options.delimiter ?? DEFAULT_DELIMITER
    this.http = new RestTransport({
      uri: options.uri,
      headers: options.headers ?? {},
      delimiter: this.delimiter,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 3,
      backoffMs: options.backoffMs ?? 200,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 30_000,
      connections: options.connections ?? 8,
      capabilities: this.capabilities,
      closed: this.closing.signal,
    })
    // Known before any request: the contract has no route for it (the UI disables Optimize with this reason).
    this.capabilities.markUnsupported('table.optimize', 'the REST namespace contract has no optimize route; optimize the table where it is stored')
  }

  /** Where this client points (for labels; never credentials). */
  get endpoint(): string {
    return this.http.base.toString().replace(/\/$/, '')
  }

  // ---- namespaces -------------------------------------------------------------------------------

  async listNamespaces(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const r = await this.http.json<ListResponse>(
      this.call(ROUTES.listNamespaces, this.id(namespace), options, { what: `list the namespaces of ${formatNamespace(namespace)}`, query: { page_token: options.pageToken, limit: options.limit } }),
    )
    return page(r.namespaces, r.page_token, 'namespaces')
  }

  async createNamespace(
    namespace: NamespacePath,
    options: { mode?: 'create' | 'exist_ok'; properties?: Record<string, string> } & CallOptions = {},
  ): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) throw new AppError('invalid_input', 'The root namespace always exists; give the new namespace a name')
    await this.http.json(
      this.call(ROUTES.createNamespace, this.id(namespace), options, {
        what: `create the namespace ${formatNamespace(namespace)}`,
        json: compact({ id: [...namespace], mode: options.mode === 'exist_ok' ? 'ExistOk' : undefined, properties: options.properties }),
      }),
    )
  }

  async describeNamespace(namespace: NamespacePath, options: CallOptions = {}): Promise<{ properties: Record<string, string> }> {
    assertNamespacePath(namespace)
    const r = await this.http.json<{ properties?: Record<string, string> | null }>(
      this.call(ROUTES.describeNamespace, this.id(namespace), options, { what: `describe the namespace ${formatNamespace(namespace)}`, json: { id: [...namespace] } }),
    )
    return { properties: r.properties ?? {} }
  }

  async dropNamespace(namespace: NamespacePath, options: { behavior?: 'restrict' | 'cascade' } & CallOptions = {}): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) throw new AppError('invalid_input', 'The root namespace cannot be dropped')
    await this.http.json(
      this.call(ROUTES.dropNamespace, this.id(namespace), options, {
        what: `drop the namespace ${formatNamespace(namespace)}`,
        json: compact({ id: [...namespace], behavior: options.behavior === 'cascade' ? 'Cascade' : options.behavior === 'restrict' ? 'Restrict' : undefined }),
      }),
    )
  }

  /** `POST /v1/namespace/{id}/exists`: 2xx = yes, "not found" = no. */
  async namespaceExists(namespace: NamespacePath, options: CallOptions = {}): Promise<boolean> {
    assertNamespacePath(namespace)
    return this.exists(this.call(ROUTES.namespaceExists, this.id(namespace), options, { what: `check the namespace ${formatNamespace(namespace)}`, json: { id: [...namespace] } }))
  }

  // ---- tables -----------------------------------------------------------------------------------

  async listTables(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const r = await this.http.json<ListResponse>(
      this.call(ROUTES.listTables, this.id(namespace), options, { what: `list the tables of ${formatNamespace(namespace)}`, query: { page_token: options.pageToken, limit: options.limit } }),
    )
    return page(r.tables, r.page_token, 'tables')
  }

  /** Enterprise route `GET /v1/tables`: the tables of the database (the verification sequence's list). */
  async listAllTables(options: ListOptions = {}): Promise<Page<string>> {
    const r = await this.http.json<ListResponse>(
      this.call(ROUTES.listAllTables, '', options, { what: 'list the tables of the database', query: { page_token: options.pageToken, limit: options.limit } }),
    )
    return page(r.tables, r.page_token, 'tables')
  }

  /** Enterprise route `POST /v1/tables/{table_name}`: a new table from an Arrow IPC stream. */
  async createTableFromStream(name: string, stream: Uint8Array, options: CallOptions = {}): Promise<void> {
    assertComponent(name, 'table name')
    await this.http.json(this.call(ROUTES.createTableFromStream, encodeURIComponent(name), options, { what: `create the table ${name}`, body: stream }))
  }

  async describeTable(id: TableId, options: DescribeOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    if (options.version !== undefined || options.indexes) return this.describeForView(id, options)
    const describe = () => this.detailedDescribe(id, options)
    let d: DescribeTableResponse
    let rowCount: number
    if (this.describeHasRowCount) {
      // Our server answers `num_rows` with the details: one round trip.
      d = await describe()
      rowCount = typeof d.num_rows === 'number' ? d.num_rows : await this.countRows(id, options)
    } else {
      // Other servers: describe and count in parallel, so two round trips cost one.
      ;[d, rowCount] = await Promise.all([describe(), this.countRows(id, options)])
      if (typeof d.num_rows === 'number') this.describeHasRowCount = true
    }
    let schema: arrow.Schema
    try {
      // A server that ignores load_detailed_metadata sends only `location`: read the schema from an empty query.
      schema = d.schema ? schemaFromJson(d.schema) : await this.schemaByQuery(id, options)
    } catch (error) {
      if (error instanceof AppError) throw error
      throw new AppError('internal', `The server described ${formatTableId(id)} with a schema we cannot read`, { detail: String(error) })
    }
    return { name: id.name, namespace: [...id.namespace], rowCount, version: Number(d.version ?? 0), schema, fields: describeFields(schema) }
  }

  /** `GET /v1/table/{id}/count_rows` (what the Rust client sends); a bare integer, or `{"count": n}`. */
  async countRows(id: TableId, options: ViewOptions & { predicate?: string } = {}): Promise<number> {
    assertTableId(id)
    const view = options.view
    if (view?.search) {
      // count_rows has no search: count the search's results (at most k rows, no columns).
      const reply = await this.query(id, { offset: 0, limit: view.search.k, view: { ...view, columns: [] }, signal: options.signal })
      return countFromReply(reply.bytes)
    }
    const predicate = viewPredicate(view) ?? options.predicate
    if (view && (predicate !== undefined || view.version !== undefined)) {
      const value = await this.http.json<unknown>(
        this.call(predicate !== undefined ? ROUTES.countFiltered : ROUTES.countRowsAt, this.tableId(id), options, {
          what: `count the rows of ${formatTableId(id)}`,
          json: compact({ id: [...id.namespace, id.name], predicate, version: view.version }),
        }),
      )
      const n = typeof value === 'number' ? value : (value as { count?: unknown } | null)?.count
      if (typeof n !== 'number' || !Number.isFinite(n)) throw new AppError('internal', `The server sent an unreadable row count for ${formatTableId(id)}`)
      return n
    }
    const spec = this.call(options.predicate ? ROUTES.countRowsAt : ROUTES.countRows, this.tableId(id), options, {
      what: `count the rows of ${formatTableId(id)}`,
      json: options.predicate ? { id: [...id.namespace, id.name], predicate: options.predicate } : undefined,
    })
    const value = await this.http.json<unknown>(spec)
    const n = typeof value === 'number' ? value : (value as { count?: unknown } | null)?.count
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new AppError('internal', `The server sent an unreadable row count for ${formatTableId(id)}`)
    return n
  }

  async readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array> {
    assertTableId(id)
    const reply = await this.query(id, options)
    return toStream(reply.bytes, reply.contentType, `the rows of ${formatTableId(id)}`)
  }

  // ---- views (src/core/query): filter, sort, search, version ---------------------------------------

  /** `POST /v1/table/{id}/describe?load_detailed_metadata=true` (at `version` when given): location, schema, version. */
  private detailedDescribe(id: TableId, options: CallOptions, version?: number): Promise<DescribeTableResponse> {
    return this.http.json<DescribeTableResponse>(
      this.call(ROUTES.describeTable, this.tableId(id), options, {
        what: `describe the table ${formatTableId(id)}`,
        query: { load_detailed_metadata: 'true' },
        json: compact({ id: [...id.namespace, id.name], version }),
      }),
    )
  }

  /**
   * Describe at a version (the contract's `version` field), then the latest version and the indexes
   * (`index/list`; a server without it leaves `indexes` absent, which hides the search boxes).
   */
  private async describeForView(id: TableId, options: DescribeOptions): Promise<TableDescription> {
    const r = await this.detailedDescribe(id, options, options.version)
    if (!r.schema || typeof r.version !== 'number') {
      // A server that ignores load_detailed_metadata: the plain describe (schema from an empty query), latest only.
      if (options.version !== undefined) throw new AppError('unsupported', 'This server does not describe older table versions')
      const plain = await this.describeTable(id, { signal: options.signal })
      const indexes = options.indexes ? await this.listIndexes(id, options).catch(() => undefined) : undefined
      return { ...plain, latestVersion: plain.version, ...(indexes ? { indexes } : {}) }
    }
    const version = Number(r.version ?? 0)
    if (options.version !== undefined && version !== options.version) throw new AppError('unsupported', `This server ignored the version asked for (${options.version}) and described version ${version}`)
    const schema = schemaFromJson(r.schema)
    const [rowCount, latestVersion, indexes] = await Promise.all([
      typeof r.num_rows === 'number' ? r.num_rows : this.countRows(id, { signal: options.signal, view: { version } }),
      options.version === undefined ? version : this.latestVersion(id, options),
      options.indexes ? this.indexSummaries(id, options, options.version).catch((error: unknown) => (error instanceof AppError && error.code === 'unsupported' ? undefined : Promise.reject(error))) : undefined,
    ])
    return { name: id.name, namespace: [...id.namespace], rowCount, version, latestVersion, schema, fields: describeFields(schema), ...(indexes ? { indexes } : {}) }
  }

  /** `POST /v1/table/{id}/index/list` (ListTableIndices), at `version` when given (the request's `version` field). */
  private async indexSummaries(id: TableId, options: CallOptions, version?: number): Promise<IndexSummary[]> {
    const r = await this.http.json<unknown>(
      this.call(ROUTES.listIndexes, this.tableId(id), options, {
        what: `list the indexes of ${formatTableId(id)}`,
        json: { id: [...id.namespace, id.name], ...(version !== undefined ? { version } : {}) },
      }),
    )
    return indexesFromReply(r)
  }

  async latestVersion(id: TableId, options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    const r = await this.detailedDescribe(id, options)
    if (typeof r.version !== 'number') throw new AppError('unsupported', 'This server does not report table versions')
    return r.version
  }

  scan(id: TableId, view: TableViewSpec, options: ScanOptions = {}): AsyncIterable<arrow.RecordBatch> {
    assertTableId(id)
    return restScan((offset, limit) => this.readPage(id, { offset, limit, view, signal: options.signal }), view, options.signal)
  }

  async explainQuery(id: TableId, view: TableViewSpec, options: ExplainOptions = {}): Promise<string> {
    assertTableId(id)
    const query = queryTableRequest([...id.namespace, id.name], view, { offset: options.offset, limit: options.limit ?? view.search?.k ?? 10 })
    const plan = await this.http.json<unknown>(
      this.call(options.analyze ? ROUTES.analyzePlan : ROUTES.explainPlan, this.tableId(id), options, {
        what: `explain a query on ${formatTableId(id)}`,
        json: options.analyze ? query : compact({ id: [...id.namespace, id.name], query, verbose: options.verbose }),
      }),
    )
    if (typeof plan !== 'string') throw new AppError('internal', `The server sent an unreadable query plan for ${formatTableId(id)}`)
    return plan
  }

  async createTable(id: TableId, data: arrow.Table, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    await this.create(id, arrow.tableToIPC(data, 'stream'), options)
    return this.describeTable(id, options)
  }

  async createEmptyTable(id: TableId, schema: arrow.Schema, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    // The contract: an empty stream (schema, no batches) makes an empty table.
    await this.create(id, arrow.tableToIPC(new arrow.Table(schema), 'stream'), options)
    return this.describeTable(id, options)
  }

  async appendRows(id: TableId, data: arrow.Table, options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    const r = await this.http.json<{ version?: number }>(
      this.call(ROUTES.insert, this.tableId(id), options, { what: `append rows to ${formatTableId(id)}`, query: { mode: 'append' }, body: arrow.tableToIPC(data, 'stream') }),
    )
    if (typeof r.version === 'number') return r.version
    return (await this.describeTable(id, options)).version
  }

  async restoreVersion(id: TableId, version: number, options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    await this.http.json(
      this.call(ROUTES.restore, this.tableId(id), options, { what: `restore ${formatTableId(id)} to version ${version}`, json: { id: [...id.namespace, id.name], version } }),
    )
  }

  async dropTable(id: TableId, options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    await this.http.json(this.call(ROUTES.dropTable, this.tableId(id), options, { what: `drop the table ${formatTableId(id)}`, json: { id: [...id.namespace, id.name] } }))
  }

  async renameTable(id: TableId, newName: string, options: { newNamespace?: NamespacePath } & CallOptions = {}): Promise<void> {
    assertTableId(id)
    assertComponent(newName, 'new table name')
    if (options.newNamespace) assertNamespacePath(options.newNamespace)
    await this.http.json(
      this.call(ROUTES.renameTable, this.tableId(id), options, {
        what: `rename the table ${formatTableId(id)}`,
        json: compact({ id: [...id.namespace, id.name], new_table_name: newName, new_namespace_id: options.newNamespace ? [...options.newNamespace] : undefined }),
      }),
    )
  }

  async tableExists(id: TableId, options: CallOptions = {}): Promise<boolean> {
    assertTableId(id)
    return this.exists(this.call(ROUTES.tableExists, this.tableId(id), options, { what: `check the table ${formatTableId(id)}`, json: { id: [...id.namespace, id.name] } }))
  }

  /** Stops every request in flight (they fail as "cancelled") and closes the connections. */
  async close(): Promise<void> {
    this.closing.abort()
    await this.http.close()
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private id(namespace: NamespacePath): string {
    return encodeId(namespace, this.delimiter)
  }

  private tableId(id: TableId): string {
    return encodeId([...id.namespace, id.name], this.delimiter)
  }

  private spec(options: CallOptions, spec: Omit<RequestSpec, 'signal'>): RequestSpec {
    if (this.closing.signal.aborted) throw new AppError('cancelled', 'This connection is closed')
    return { ...spec, signal: options.signal }
  }

  /** A request on one of the {@link ROUTES}: `id` fills the path's `{id}`; a view's read names its own operation. */
  private call(route: Route, id: string, options: CallOptions, request: Pick<RequestSpec, 'what' | 'query' | 'json' | 'body'> & { operation?: Operation }): RequestSpec {
    const { path, ...rest } = route
    return this.spec(options, { ...rest, ...request, operation: request.operation ?? route.operation, path: path.replace('{id}', () => id) })
  }

  private async exists(spec: RequestSpec): Promise<boolean> {
    try {
      await this.http.request(spec)
      return true
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return false
      throw error
    }
  }

  private async create(id: TableId, stream: Uint8Array, options: { mode?: CreateMode } & CallOptions): Promise<void> {
    // A new root table goes through the specification's enterprise route, POST /v1/tables/{table_name};
    // servers without it (the capability map learns that from its 404/406) get the namespace contract's route.
    const mode = options.mode ?? 'create'
    if (id.namespace.length === 0 && mode === 'create' && this.capabilities.isSupported('table.createFromStream') !== false) {
      try {
        return await this.createTableFromStream(id.name, stream, options)
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'unsupported')) throw error
      }
    }
    await this.http.json(this.call(ROUTES.createTable, this.tableId(id), options, { what: `create the table ${formatTableId(id)}`, query: { mode }, body: stream }))
  }

  /**
   * `POST /v1/table/{id}/query`. QueryTableRequest requires `k` and `vector`: k = the page size, and an
   * empty vector object, which means "no vector search" (rest-contract.md §3.3).
   */
  private async query(
    id: TableId,
    q: { offset: number; limit: number; columns?: string[]; view?: TableViewSpec; version?: number; withRowId?: boolean; fastSearch?: boolean; signal?: AbortSignal },
  ): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    if (q.view) {
      const view = { ...(q.version !== undefined && q.view.version === undefined ? { version: q.version } : {}), ...q.view, ...(q.columns ? { columns: q.columns } : {}) }
      return this.viewQuery(id, { ...q, view })
    }
    const json = compact({
      id: [...id.namespace, id.name],
      k: q.limit,
      vector: {},
      offset: q.offset > 0 ? q.offset : undefined,
      version: q.version,
      columns: q.columns ? { column_names: q.columns } : undefined,
    })
    const r = await this.http.request(this.call(ROUTES.query, this.tableId(id), q, { what: `read the rows of ${formatTableId(id)}`, json }))
    return { bytes: r.bytes, contentType: headerOf(r.headers, 'content-type') ?? null }
  }

  /** A query through a view (QueryTableRequest with filter, search, version, columns; `order_by` for a sort). */
  private async viewQuery(id: TableId, q: { offset: number; limit: number; view: TableViewSpec; withRowId?: boolean; fastSearch?: boolean; signal?: AbortSignal }): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    const operation = operationOf(q.view)
    const r = await this.http.request(
      this.call(ROUTES.query, this.tableId(id), q, {
        operation,
        what: `read the rows of ${formatTableId(id)}`,
        json: queryTableRequest([...id.namespace, id.name], q.view, { offset: q.offset, limit: q.limit, withRowId: q.withRowId, fastSearch: q.fastSearch }),
      }),
    )
    if (operation === 'table.sort' && headerOf(r.headers, ORDER_APPLIED_HEADER) !== 'true') {
      // The REST contract has no sort: a server that ignored our `order_by` sent unsorted rows. Say so, once.
      const reason = 'The REST namespace contract has no sort, and this server ignored ours'
      this.capabilities.markUnsupported('table.sort', reason)
      throw new AppError('unsupported', `This server does not support: ${this.capabilities.label('table.sort')}`, { detail: reason })
    }
    return { bytes: r.bytes, contentType: headerOf(r.headers, 'content-type') ?? null }
  }

  private async schemaByQuery(id: TableId, options: CallOptions & { version?: number }): Promise<arrow.Schema> {
    const r = await this.query(id, { offset: 0, limit: 1, signal: options.signal, version: options.version })
    return readIpc(r.bytes, `the schema of ${formatTableId(id)}`).schema
  }

  // ---- lifecycle (./lifecycle.ts) -------------------------------------------------------------

  private get lifecycle(): RestLifecycle {
    return new RestLifecycle({ json: (options, spec) => this.http.json(this.spec(options, spec)), tableId: (id) => this.tableId(id) })
  }
  listVersions(id: TableId, options: CallOptions = {}): Promise<VersionInfo[]> {
    return this.lifecycle.listVersions(id, options)
  }
  listTags(id: TableId, options: CallOptions = {}): Promise<TagInfo[]> {
    return this.lifecycle.listTags(id, options)
  }
  createTag(id: TableId, tag: string, version: number, options: CallOptions = {}): Promise<void> {
    return this.lifecycle.createTag(id, tag, version, options)
  }
  deleteTag(id: TableId, tag: string, options: CallOptions = {}): Promise<void> {
    return this.lifecycle.deleteTag(id, tag, options)
  }
  tagVersion(id: TableId, tag: string, options: CallOptions = {}): Promise<number> {
    return this.lifecycle.tagVersion(id, tag, options)
  }
  listIndexes(id: TableId, options: CallOptions = {}): Promise<IndexInfo[]> {
    return this.lifecycle.listIndexes(id, options)
  }
  createIndex(id: TableId, spec: IndexSpec, options: CallOptions = {}): Promise<void> {
    return this.lifecycle.createIndex(id, spec, options)
  }
  dropIndex(id: TableId, name: string, options: CallOptions = {}): Promise<void> {
    return this.lifecycle.dropIndex(id, name, options)
  }
  tableStats(id: TableId, options: CallOptions = {}): Promise<TableStats> {
    return this.lifecycle.tableStats(id, options)
  }
  optimize(id: TableId, options: { pruneOlderThanDays?: number } & CallOptions = {}): Promise<OptimizeResult> {
    return this.lifecycle.optimize(id, options)
  }
  addColumns(id: TableId, columns: NewColumn[], options: CallOptions = {}): Promise<number> {
    return this.lifecycle.addColumns(id, columns, options)
  }
  alterColumns(id: TableId, alterations: ColumnAlteration[], options: CallOptions = {}): Promise<number> {
    return this.lifecycle.alterColumns(id, alterations, options)
  }
  dropColumns(id: TableId, names: string[], options: CallOptions = {}): Promise<number> {
    return this.lifecycle.dropColumns(id, names, options)
  }
  deleteRows(id: TableId, predicate: string, options: CallOptions = {}): Promise<number> {
    return this.lifecycle.deleteRows(id, predicate, options)
  }
}

function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

function page(items: unknown, token: string | null | undefined, field: string): Page<string> {
  if (!Array.isArray(items) || !items.every((i) => typeof i === 'string'))
    throw new AppError('internal', `The server's reply has no "${field}" list`, { hint: 'Is the endpoint a Lance REST catalog?' })
  const out: Page<string> = { items }
  // `null`, absent and "" all mean the end (contract §4).
  if (typeof token === 'string' && token !== '') out.pageToken = token
  return out
}

function readIpc(bytes: Uint8Array, what: string): arrow.Table {
  try {
    return arrow.tableFromIPC(bytes)
  } catch (error) {
    throw new AppError('corrupt', `The server sent ${what} as Arrow data we cannot read`, { detail: String(error) })
  }
}

/** The query route answers an Arrow IPC *file*; the app wants stream bytes. A stream reply passes through. */
function toStream(bytes: Uint8Array, contentType: string | null, what: string): Uint8Array {
  if (contentType?.startsWith(ARROW_STREAM)) return bytes
  if (contentType && !contentType.startsWith(ARROW_FILE) && !contentType.startsWith('application/octet-stream'))
    throw new AppError('internal', `The server sent ${what} as ${contentType}, not Arrow data`)
  return arrow.tableToIPC(readIpc(bytes, what), 'stream')
}
