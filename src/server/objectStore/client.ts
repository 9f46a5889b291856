import { connect, connectNamespace, type Connection, type Table as LanceTable } from '@lancedb/lancedb'
import type { Table as ArrowTable } from 'apache-arrow'
import { AppError, type Page, type TableViewSpec } from '../../contract'
import type { StorageOptions } from '../../contract/objectStore'
import type { CallOptions, CreateMode, ListOptions, NamespaceClient, ReadPageOptions, TableDescription } from '../../core/namespace/client'
import { addArrowTable } from '../../core/namespace/dir/add'
import { fromLanceError } from '../../core/namespace/dir/errors'
import { assertPageWindow, LanceDirClient, listWindow, type ErrorContext, type TableWrite } from '../../core/namespace/dir/lanceClient'
import { assertNamespacePath, assertTableId, formatTableId, type NamespacePath, type TableId } from '../../core/namespace/path'
import { DirQueries } from '../../core/namespace/dir/queries'
import { objectStoreUnsupported } from './unsupported'

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
export class ObjectStoreClient extends LanceDirClient implements NamespaceClient {
  readonly implementation = 'dir' as const
  readonly isObjectStore = true
  private listingDb: Promise<Connection> | undefined
  /** Latest-version handles of recently read tables (see {@link latestTable}). */
  private readonly handles = new Map<string, Promise<LanceTable>>()
  protected readonly queries = new DirQueries({ open: (id) => this.openTable(id), mapError: (error, id) => this.mapError(error, { table: id }) })

  private constructor(
    readonly root: string,
    db: Connection,
    private readonly storageOptions: StorageOptions,
  ) {
    super(db)
  }

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
    return this.namespacePage(namespace, options, listWindow(namespace, options))
  }

  async describeNamespace(namespace: NamespacePath, _options: CallOptions = {}): Promise<{ properties: Record<string, string> }> {
    assertNamespacePath(namespace)
    const response = await this.call(() => this.db.describeNamespace([...namespace]), { namespace })
    return { properties: response.properties ?? {} }
  }

  // ---- tables -----------------------------------------------------------------------------

  async listTables(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    return this.tableNamePage(namespace, options, listWindow(namespace, options))
  }

  /** The table's full location (`az://…/t.lance`), as Lance itself resolved it. */
  async locationOf(id: TableId): Promise<string> {
    return tableUri(await this.latestTable(id))
  }

  async readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array> {
    assertTableId(id)
    assertPageWindow(options)
    const { offset, limit, columns } = options
    const view: TableViewSpec = options.view ? { ...options.view, ...(columns ? { columns } : {}) } : columns ? { columns } : {}
    if (options.version !== undefined && view.version === undefined) view.version = options.version
    return this.queries.page(id, view, { offset, limit, signal: options.signal, withRowId: options.withRowId, fastSearch: options.fastSearch })
  }

  /**
   * One Lance commit each: a new dataset's first commit is conditional, so of two racing creators one loses
   * cleanly; an overwrite is one commit on the existing dataset (lancedb's own namespace overwrite loses the
   * storage options on object storage: "no Azure account name").
   */
  protected async createWith(id: TableId, mode: CreateMode = 'create', data: ArrowTable, write: TableWrite): Promise<TableDescription> {
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
    await this.call(() => write(id, 'create'), { table: id })
    return this.describeTable(id)
  }

  async appendRows(id: TableId, data: ArrowTable, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    this.forget(id)
    const table = await this.openTable(id)
    return (await this.call(() => addArrowTable(table, data), { table: id })).version
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

  async close(): Promise<void> {
    this.queries.clear()
    this.handles.clear()
    if (this.db.isOpen()) this.db.close()
    const listing = await this.listingDb?.catch(() => undefined)
    if (listing?.isOpen()) listing.close()
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** Open afresh (another process may have written since): the latest version, with the storage options. */
  protected openTable(id: TableId): Promise<LanceTable> {
    return this.call(() => this.db.openTable(id.name, [...id.namespace], this.tableOptions()), { table: id })
  }

  protected tableOptions(): { storageOptions: StorageOptions } {
    return { storageOptions: this.storageOptions }
  }

  protected mapError(error: unknown, context: ErrorContext): AppError {
    return fromLanceError(error, { ...context, hasManifest: true })
  }

  protected forget(id: TableId): void {
    this.queries.forget(id)
    this.handles.delete(formatTableId(id))
  }

  /**
   * A kept handle brought to the latest version (`checkoutLatest`: Lance reads the version list, a round trip or
   * two) instead of a fresh open (a `__manifest` lookup plus the dataset's open: several). Others may drop or
   * re-create the table meanwhile: a handle that cannot refresh is dropped and the table opened afresh, which then
   * says "not found" if it is gone.
   */
  protected async latestTable(id: TableId): Promise<LanceTable> {
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
