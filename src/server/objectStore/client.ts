import { connect, connectNamespace, type Connection, type Table as LanceTable } from '@lancedb/lancedb'
import { Table as ArrowTableClass, type RecordBatch, type Schema, type Table as ArrowTable } from 'apache-arrow'
import { AppError, type Page, type TableViewSpec } from '../../contract'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../contract/lifecycle'
import type { StorageOptions } from '../../contract/objectStore'
import { listAll, type CallOptions, type CreateMode, type DescribeOptions, type ExplainOptions, type ListOptions, type NamespaceClient, type ReadPageOptions, type TableDescription, type ViewOptions } from '../../core/namespace/client'
import { schemaFields } from '../../core/arrow'
import { addArrowTable } from '../../core/namespace/dir/add'
import { fromLanceError } from '../../core/namespace/dir/errors'
import { assertComponent, assertNamespacePath, assertTableId, formatTableId, type NamespacePath, type TableId } from '../../core/namespace/path'
import * as lifecycle from '../../core/lifecycle/dirTable'
import { indexNotFound, tagExists, tagNotFound, versionNotFound } from '../../core/lifecycle/errors'
import { DirQueries } from '../../core/query/dirQueries'
import { objectStoreUnsupported } from './unsupported'

const DEFAULT_LIST_LIMIT = 1000
/** How many table handles are kept for reads. */
const OPEN_TABLES = 64

/**
 * A directory catalog on object storage (`s3://`, `gs://`, `az://`), served by our REST server: lancedb's
 * `connectNamespace("dir")` with the storage options given three ways (as `storage.<key>` properties, as the
 * connection's options, and to every `openTable`/`createTable`), which lancedb 0.31.0 needs on object storage.
 *
 * Only what is ONE Lance or namespace commit is offered (a crash or a racing process can then never leave half of
 * it): namespaces, create/overwrite/drop of a table through lancedb's own namespace calls, appends and every
 * one-commit lifecycle operation. What needs an edit of `__manifest` we cannot make on object storage with
 * lancedb 0.31.0 (rename, register) answers `unsupported` with the reason ({@link objectStoreUnsupported}).
 */
export class ObjectStoreClient implements NamespaceClient {
  readonly implementation = 'dir' as const
  readonly isObjectStore = true
  private listingDb: Promise<Connection> | undefined
  /** Latest-version handles of recently read tables (see {@link latest}). */
  private readonly handles = new Map<string, Promise<LanceTable>>()
  private readonly queries = new DirQueries({ open: (id) => this.openTable(id), mapError: (error, id) => fromLanceError(error, { table: id, hasManifest: true }) })

  private constructor(
    readonly root: string,
    private readonly db: Connection,
    private readonly storageOptions: StorageOptions,
  ) {}

  /**
   * Open (or, on an empty prefix, start) a catalog at `root`. lancedb writes `__manifest` when it is missing: a
   * server given an object-store root makes it a catalog with namespaces.
   */
  static async open(root: string, storageOptions: StorageOptions): Promise<ObjectStoreClient> {
    const properties: Record<string, string> = { root }
    for (const [key, value] of Object.entries(storageOptions)) properties[`storage.${key}`] = value
    try {
      const db = await connectNamespace('dir', properties, { storageOptions } as never)
      const client = new ObjectStoreClient(root, db, storageOptions)
      await client.assertReachable()
      return client
    } catch (error) {
      throw fromLanceError(error, { hasManifest: true })
    }
  }

  /**
   * lancedb falls back to "directory listing only" when it cannot read or make `__manifest` (it only logs a
   * warning), so a wrong key or a missing container would still "connect". A namespace that cannot exist tells the
   * two apart: the manifest answers "not found". Otherwise the listing database says what the store answered.
   */
  private async assertReachable(): Promise<void> {
    try {
      await this.db.describeNamespace(['__lcb_probe__'])
    } catch (error) {
      if (fromLanceError(error, { hasManifest: true }).code === 'not_found') return
      const answer = await (await this.listing()).tableNames().then(
        () => undefined,
        (e: unknown) => storeAnswer(e),
      )
      throw new AppError('unavailable', `Cannot open the catalog at ${this.root}: ${answer ?? 'its __manifest cannot be read or created'}`, { hint: 'Check the storage options (credentials, endpoint, region) and that the bucket or container exists' })
    }
  }

  // ---- namespaces -------------------------------------------------------------------------

  async listNamespaces(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const limit = listLimit(options.limit)
    if (options.pageToken !== undefined) assertComponent(options.pageToken, 'page token')
    options.signal?.throwIfAborted()
    const response = await this.call(() => this.db.listNamespaces([...namespace], { pageToken: options.pageToken, limit: limit + 1 }), { namespace })
    if (response.namespaces.length === 0 && namespace.length > 0 && options.pageToken === undefined) await this.describeNamespace(namespace)
    return pageOf(response.namespaces, limit)
  }

  async createNamespace(namespace: NamespacePath, options: { mode?: 'create' | 'exist_ok'; properties?: Record<string, string> } & CallOptions = {}): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) {
      if (options.mode === 'exist_ok') return
      throw new AppError('already_exists', 'The root namespace always exists')
    }
    try {
      // lancedb 0.31.0 ignores mode "exist_ok" and fails with "already exists", so we handle that mode here.
      await this.call(() => this.db.createNamespace([...namespace], { mode: 'create', properties: options.properties }), { namespace })
    } catch (error) {
      if (options.mode === 'exist_ok' && error instanceof AppError && error.code === 'already_exists') return
      throw error
    }
  }

  async describeNamespace(namespace: NamespacePath, _options: CallOptions = {}): Promise<{ properties: Record<string, string> }> {
    assertNamespacePath(namespace)
    const response = await this.call(() => this.db.describeNamespace([...namespace]), { namespace })
    return { properties: response.properties ?? {} }
  }

  async dropNamespace(namespace: NamespacePath, options: { behavior?: 'restrict' | 'cascade' } & CallOptions = {}): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) throw new AppError('invalid_input', 'The root namespace cannot be dropped')
    await this.describeNamespace(namespace)
    if (options.behavior === 'cascade') {
      for (const child of await listAll((o) => this.listNamespaces(namespace, o))) await this.dropNamespace([...namespace, child], options)
      for (const name of await listAll((o) => this.listTables(namespace, o))) await this.dropTable({ namespace, name })
    }
    await this.call(() => this.db.dropNamespace([...namespace], { mode: 'fail', behavior: 'restrict' }), { namespace })
  }

  // ---- tables -----------------------------------------------------------------------------

  async listTables(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const limit = listLimit(options.limit)
    if (options.pageToken !== undefined) assertComponent(options.pageToken, 'page token')
    options.signal?.throwIfAborted()
    const names = await this.call(() => this.db.tableNames([...namespace], { startAfter: options.pageToken, limit: limit + 1 }), { namespace })
    if (names.length === 0 && namespace.length > 0 && options.pageToken === undefined) await this.describeNamespace(namespace)
    return pageOf(names, limit)
  }

  async describeTable(id: TableId, options: DescribeOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    if (options.version !== undefined || options.indexes) return this.queries.describe(id, options)
    const table = await this.latest(id)
    options.signal?.throwIfAborted()
    return this.call(async () => {
      const [rowCount, version, schema] = await Promise.all([table.countRows(), table.version(), table.schema()])
      return { name: id.name, namespace: [...id.namespace], rowCount, version, schema, fields: schemaFields(schema) }
    }, { table: id })
  }

  /** The table's full location (`az://…/t.lance`), as Lance itself resolved it. */
  async locationOf(id: TableId): Promise<string> {
    return tableUri(await this.latest(id))
  }

  async readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array> {
    assertTableId(id)
    const { offset, limit, columns } = options
    if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError('invalid_input', 'offset must be a whole number ≥ 0')
    if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
    const view: TableViewSpec = options.view ? { ...options.view, ...(columns ? { columns } : {}) } : columns ? { columns } : {}
    if (options.version !== undefined && view.version === undefined) view.version = options.version
    return this.queries.page(id, view, { offset, limit, signal: options.signal, withRowId: options.withRowId, fastSearch: options.fastSearch })
  }

  async countRows(id: TableId, options: ViewOptions = {}): Promise<number> {
    assertTableId(id)
    return this.queries.count(id, options.view ?? {}, options)
  }

  scan(id: TableId, view: TableViewSpec, options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
    assertTableId(id)
    return this.queries.scan(id, view, options)
  }

  async explainQuery(id: TableId, view: TableViewSpec, options: ExplainOptions = {}): Promise<string> {
    assertTableId(id)
    return this.queries.explain(id, view, options)
  }

  async latestVersion(id: TableId, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    return this.queries.latestVersion(id)
  }

  /**
   * One Lance commit each: a new dataset's first commit is conditional, so of two racing creators one loses
   * cleanly; an overwrite is one commit on the existing dataset (lancedb's own namespace overwrite loses the
   * storage options on object storage: "no Azure account name").
   */
  async createTable(id: TableId, data: ArrowTable, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    return this.create(id, options.mode, data, () => this.db.createTable(id.name, data, [...id.namespace], { mode: 'create', storageOptions: this.storageOptions } as never))
  }

  async createEmptyTable(id: TableId, schema: Schema, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    return this.create(id, options.mode, new ArrowTableClass(schema), () =>
      this.db.createEmptyTable(id.name, schema, [...id.namespace], { mode: 'create', storageOptions: this.storageOptions } as never),
    )
  }

  private async create(id: TableId, mode: CreateMode = 'create', data: ArrowTable, make: () => Promise<unknown>): Promise<TableDescription> {
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    if (mode !== 'create') {
      const existing = await this.openTable(id).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') return null
        throw error
      })
      if (existing && mode === 'exist_ok') return this.describeTable(id)
      if (existing) {
        await this.call(() => existing.add(data, { mode: 'overwrite' }), { table: id })
        return this.describeTable(id)
      }
    }
    await this.call(make, { table: id })
    return this.describeTable(id)
  }

  async appendRows(id: TableId, data: ArrowTable, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    this.forget(id)
    const table = await this.openTable(id)
    return (await this.call(() => addArrowTable(table, data), { table: id })).version
  }

  async restoreVersion(id: TableId, version: number, _options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    const table = await this.openTable(id)
    await this.assertVersion(table, id, version)
    this.forget(id)
    await this.call(async () => {
      await table.checkout(version)
      await table.restore()
    }, { table: id })
  }

  async dropTable(id: TableId, _options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    this.forget(id)
    try {
      await this.call(() => this.db.dropTable(id.name, [...id.namespace]), { table: id })
    } catch (error) {
      // A root table that a client wrote itself at `{root}/{name}.lance` (after declare) has no `__manifest` row:
      // lancedb lists and opens it, but its namespace drop does not see it. The listing database drops it.
      if (!(error instanceof AppError && error.code === 'not_found' && id.namespace.length === 0)) throw error
      await this.openTable(id)
      await this.call(async () => (await this.listing()).dropTable(id.name), { table: id })
    }
  }

  /** lancedb's listing database on the root (`{name}.lance` directories); the root already has its `__manifest`. */
  private listing(): Promise<Connection> {
    return (this.listingDb ??= connect(this.root, { storageOptions: this.storageOptions }))
  }

  async renameTable(id: TableId, _newName: string, _options: { newNamespace?: NamespacePath } & CallOptions = {}): Promise<void> {
    assertTableId(id)
    throw objectStoreUnsupported('rename')
  }

  // ---- lifecycle (src/core/lifecycle/dirTable.ts): each one Lance commit --------------------

  listVersions(id: TableId): Promise<VersionInfo[]> {
    return this.onTable(id, (t) => lifecycle.listVersions(t))
  }

  listTags(id: TableId): Promise<TagInfo[]> {
    return this.onTable(id, (t) => lifecycle.listTags(t))
  }

  async createTag(id: TableId, tag: string, version: number): Promise<void> {
    assertComponent(tag, 'tag')
    await this.onTable(id, async (t) => {
      await this.assertVersion(t, id, version)
      if ((await lifecycle.listTags(t)).some((x) => x.name === tag)) throw tagExists(tag)
      await lifecycle.createTag(t, tag, version)
    })
  }

  async deleteTag(id: TableId, tag: string): Promise<void> {
    await this.onTable(id, async (t) => {
      if (!(await lifecycle.listTags(t)).some((x) => x.name === tag)) throw tagNotFound(tag)
      await lifecycle.deleteTag(t, tag)
    })
  }

  tagVersion(id: TableId, tag: string): Promise<number> {
    return this.onTable(id, async (t) => {
      const found = (await lifecycle.listTags(t)).find((x) => x.name === tag)
      if (!found) throw tagNotFound(tag)
      return found.version
    })
  }

  listIndexes(id: TableId): Promise<IndexInfo[]> {
    return this.onTable(id, (t) => lifecycle.listIndexes(t))
  }

  async createIndex(id: TableId, spec: IndexSpec): Promise<void> {
    await this.onTable(id, (t) => lifecycle.createIndex(t, spec), true)
  }

  async dropIndex(id: TableId, name: string): Promise<void> {
    await this.onTable(id, async (t) => {
      if (!(await t.listIndices()).some((i) => i.name === name)) throw indexNotFound(name)
      await t.dropIndex(name)
    }, true)
  }

  tableStats(id: TableId): Promise<TableStats> {
    return this.onTable(id, (t) => lifecycle.tableStats(t))
  }

  optimize(id: TableId, options: { pruneOlderThanDays?: number } & CallOptions = {}): Promise<OptimizeResult> {
    return this.onTable(id, (t) => lifecycle.optimize(t, options.pruneOlderThanDays), true)
  }

  addColumns(id: TableId, columns: NewColumn[]): Promise<number> {
    return this.onTable(id, (t) => lifecycle.addColumns(t, columns), true)
  }

  alterColumns(id: TableId, alterations: ColumnAlteration[]): Promise<number> {
    return this.onTable(id, (t) => lifecycle.alterColumns(t, alterations), true)
  }

  dropColumns(id: TableId, names: string[]): Promise<number> {
    return this.onTable(id, (t) => lifecycle.dropColumns(t, names), true)
  }

  async close(): Promise<void> {
    this.queries.clear()
    this.handles.clear()
    if (this.db.isOpen()) this.db.close()
    const listing = await this.listingDb?.catch(() => undefined)
    if (listing?.isOpen()) listing.close()
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** Open afresh (another process may have written since): the latest version, with the storage options. */
  private openTable(id: TableId): Promise<LanceTable> {
    return this.call(() => this.db.openTable(id.name, [...id.namespace], { storageOptions: this.storageOptions }), { table: id })
  }

  /** Run work on the latest table; the lifecycle routes use it too. */
  async onTable<T>(id: TableId, work: (table: LanceTable) => Promise<T>, writes = false): Promise<T> {
    assertTableId(id)
    const table = await this.openTable(id)
    try {
      return await this.call(() => work(table), { table: id })
    } finally {
      if (writes) this.forget(id)
    }
  }

  private async assertVersion(table: LanceTable, id: TableId, version: number): Promise<void> {
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
    const versions = await this.call(() => table.listVersions(), { table: id })
    if (!versions.some((v) => v.version === version)) throw versionNotFound(id, version)
  }

  private forget(id: TableId): void {
    this.queries.forget(id)
    this.handles.delete(formatTableId(id))
  }

  /**
   * A kept handle brought to the latest version (`checkoutLatest`: Lance reads the version list, a round trip or
   * two) instead of a fresh open (a `__manifest` lookup plus the dataset's open: several). Others may drop or
   * re-create the table meanwhile: a handle that cannot refresh is dropped and the table opened afresh, which then
   * says "not found" if it is gone.
   */
  private async latest(id: TableId): Promise<LanceTable> {
    const key = formatTableId(id)
    const kept = this.handles.get(key)
    if (kept) {
      try {
        const table = await kept
        await table.checkoutLatest()
        return table
      } catch {
        if (this.handles.get(key) === kept) this.handles.delete(key)
      }
    }
    const opened = this.openTable(id)
    this.handles.delete(key)
    this.handles.set(key, opened)
    opened.catch(() => {
      if (this.handles.get(key) === opened) this.handles.delete(key)
    })
    while (this.handles.size > OPEN_TABLES) this.handles.delete(this.handles.keys().next().value!)
    return opened
  }

  /** lancedb creates a table in a namespace that does not exist (0.31.0); refuse that first. */
  private async assertNamespaceExists(namespace: NamespacePath): Promise<void> {
    if (namespace.length > 0) await this.describeNamespace(namespace)
  }

  private async call<T>(work: () => Promise<T>, context: { table?: TableId; namespace?: NamespacePath }): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw fromLanceError(error, { ...context, hasManifest: true })
    }
  }
}

/**
 * Where Lance keeps `table`. lancedb 0.31.0 has no accessor for it; `display()` prints
 * `NativeTable(<name>, uri=<uri>, read_consistency_interval=…)`, and the URI is what the namespace resolved
 * (for child-namespace tables the random directory named by `__manifest`).
 */
export function tableUri(table: LanceTable): string {
  const match = /\buri=(.*?), read_consistency_interval=/.exec(table.display())
  if (!match?.[1]) throw new AppError('internal', `Cannot tell where table ${table.name} is stored (lancedb changed its display format)`)
  return match[1]
}

/** What the object store answered, in words (lance's texts carry the HTTP status of the failed request). */
function storeAnswer(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  const status = /status: (\d{3})/.exec(text)?.[1] ?? /\b(40[134])\b/.exec(text)?.[1]
  if (status === '401' || status === '403') return `the object store refused the credentials (HTTP ${status})`
  if (status === '404' || /ContainerNotFound|NoSuchBucket/i.test(text)) return 'the bucket or container does not exist (HTTP 404)'
  if (/error sending request|connect|dns|timed out/i.test(text)) return 'the object store endpoint cannot be reached'
  return text.split('\n')[0]!.slice(0, 200)
}

function listLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
  return limit
}

function pageOf(items: string[], limit: number): Page<string> {
  if (items.length <= limit) return { items }
  const page = items.slice(0, limit)
  return { items: page, pageToken: page[page.length - 1] }
}
