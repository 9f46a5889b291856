import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { connect, connectNamespace, type Connection, type Query, type Table as LanceTable } from '@lancedb/lancedb'
import { Schema as ArrowSchema, Table as ArrowTable, tableFromIPC, type Schema } from 'apache-arrow'
import { AppError, DEFAULT_DATA_FORMAT, type CatalogDataFormats, type DataFormat, type Page } from '../../../contract'
import { emptyIpcStream, fileBuffersToStream, toIpcStream } from '../../arrow'
import { DirQueries } from './queries'
import { TableHandles } from './handles'
import type { CallOptions, CreateMode, CreateOptions, ListOptions, NamespaceClient, ReadPageOptions, TableDescription } from '../client'
import { assertComponent, assertNamespacePath, assertTableId, formatNamespace, formatTableId, type NamespacePath, type TableId } from '../path'
import { clearIntent, recordIntent } from './journal'
import { isStagingName, stagingName } from './staging'
import { addArrowTable, addIpcFile, createFromIpc } from './add'
import { fromLanceError } from './errors'
import { assertPageWindow, LanceDirClient, listWindow, type TableWrite } from './lanceClient'
import { CatalogManifest, DELIMITER, objectIdOf, tableObjectId } from './manifest'
import { moveTable, serialized, swapTables, type MoveContext } from './moves'
import { pendingRecovery, recoverCatalog } from './recover'
import { deregisterTable, registerTable } from './register'
import { inspectRoot, type RootLayout } from './root'
import { manifestStamp } from './versionStamp'
import { majorityFormat, readDataFormat, tableUri } from './dataFormat'
import type { StorageOptions } from '../../../contract/objectStore'
import type { CapabilitySnapshot } from '../../../contract/connections'
import { fromStoreMessage, inspectStoreRoot, objectStoreCapabilities, objectStoreUnsupported, parseRoot, redactSecrets, storageProperties, type ObjectStoreLocation } from '../objectStore'

export { DEFAULT_LIST_LIMIT } from './lanceClient'

/** Tables whose format {@link DirNamespaceClient.catalogDataFormats} reads at most (one small file each). */
const FORMAT_SAMPLE = 200
const FORMATS_KEPT_MS = 60_000

/** How many table handles a connection keeps open (the latest of recently read tables, and pinned versions). */
const OPEN_TABLES = 64

export interface DirOpenOptions {
  /** Make the directory (and its `__manifest`) if it is missing or empty. Off for browsing. */
  create?: boolean
  /** For an object-store root (`az://`, `s3://`, `gs://`): the storage options Lance needs (keys, endpoint, …). */
  storageOptions?: StorageOptions
  /**
   * Finish or undo what crashed writers left, while opening (default true). False (a read-only connection):
   * write nothing; {@link DirNamespaceClient.pendingRecovery} says what was found, {@link DirNamespaceClient.recover} acts.
   */
  recover?: boolean
}

/**
 * The `dir` namespace: a local directory catalog read and written through @lancedb/lancedb's
 * `connectNamespace("dir", { root })`.
 *
 * Never write on read: lancedb 0.31.0 creates `root/` and `root/__manifest` when they are missing, at connect time.
 * {@link inspectRoot} refuses such directories unless `create` is set, and a catalog of bare `*.lance` tables
 * (no `__manifest`) is opened with `manifest_enabled=false`, which leaves it untouched.
 */
export class DirNamespaceClient extends LanceDirClient implements NamespaceClient {
  readonly implementation = 'dir' as const
  /** Open table handles: readPage's, describe's latest, and the versions views are pinned to (see {@link TableHandles}). */
  private readonly handles = new TableHandles(OPEN_TABLES)
  /**
   * Handles kept between the appends of one import into its staging table: reopening it for every chunk meant a
   * `__manifest` lookup plus a dataset open, 100 times for 1M rows (profiled: `openTable` on the JS thread). Staging names are
   * private to the import that made them, so no one else writes there; any other operation on the table
   * ({@link forget}) drops the handle.
   */
  private readonly writers = new Map<string, LanceTable>()
  /** The `__manifest` edits lancedb lacks (rename, publish, swap); null for a catalog of bare `*.lance` tables. */
  private readonly manifest: CatalogManifest | null
  /** What opening recovered from crashed writers (journal entries, staging leftovers), in words. */
  recovered: string[] = []
  /** What crashed writers left that opening did not recover (opened with `recover: false`), in words. */
  pendingRecovery: string[] = []
  /** Limits of this catalog worth telling the user (an object-store root listed without its manifest), in words. */
  readonly notes: string[] = []
  /** On object storage: lancedb's listing database on the root (`{name}.lance` directories), opened when needed. */
  private listingDb: Promise<Connection> | undefined
  /** The catalog's data formats ({@link catalogDataFormats}), kept a short while. */
  private formats: { at: number; value: Promise<CatalogDataFormats> } | undefined
  /** Reads through a view, each at exactly its version (src/core/query). */
  protected readonly queries = new DirQueries({ open: (id) => this.openTable(id), mapError: (error, id) => this.mapError(error, { table: id }), handles: this.handles })

  private constructor(
    readonly root: string,
    readonly layout: RootLayout,
    db: Connection,
    /** The object-store location of the catalog; null for a local directory. */
    readonly store: ObjectStoreLocation | null = null,
    private readonly storageOptions: StorageOptions = {},
  ) {
    super(db)
    // Our own manifest edits need a local directory (a symlink to open `__manifest`, rename(2), the journal).
    this.manifest = layout === 'manifest' && store === null ? new CatalogManifest(root) : null
  }

  /** The catalog lives on object storage: local-only machinery (manifest edits, journal, recovery) never runs. */
  get isObjectStore(): boolean {
    return this.store !== null
  }

  /** For object storage, what the UI must disable and why (`connections/capabilities`); null for a local directory. */
  capabilities(): CapabilitySnapshot | null {
    return this.store ? objectStoreCapabilities() : null
  }

  /**
   * `root` is a local directory, a `file://` URI (the same), or an object-store URI (`az://container/prefix`,
   * `s3://bucket/prefix`, `gs://bucket/prefix`) opened with `options.storageOptions`.
   */
  static async open(root: string, options: DirOpenOptions = {}): Promise<DirNamespaceClient> {
    const parsed = parseRoot(root)
    if ('store' in parsed) return DirNamespaceClient.openStore(parsed.store, options)
    root = parsed.local
    const layout = await inspectRoot(root, options)
    let client
    try {
      const db = await connectNamespace('dir', { root, manifestEnabled: layout === 'manifest' })
      if (layout === 'manifest') await assertManifestReadable(db)
      client = new DirNamespaceClient(root, layout, db)
    } catch (error) {
      throw fromLanceError(error, { hasManifest: layout === 'manifest' })
    }
    if (options.recover === false) {
      client.pendingRecovery = await pendingRecovery(client.moves).catch((error: unknown) => [
        `what a crashed writer left could not be read: ${(error as Error).message}`,
      ])
    } else await client.recover()
    return client
  }

  /**
   * Finish or undo what a crashed writer left (writes only when something was left); returns what was done, in
   * words. A catalog we cannot write (read-only disk, permissions) still opens for browsing.
   */
  async recover(): Promise<string[]> {
    if (this.store) return []
    const done = await serialized(this.root, () => recoverCatalog(this.moves, this.db)).catch((error: unknown) => [
      `Recovery after a crash did not finish: ${(error as Error).message}`,
    ])
    this.recovered = done
    this.pendingRecovery = []
    return done
  }

  /**
   * An object-store root: listed read-only first ({@link inspectStoreRoot}), because lancedb writes `__manifest`
   * at connect when it is missing; the storage options go everywhere lancedb needs them (the `storage.*`
   * properties, the connection, and every table open and create), or it fails with "no Azure account name" or
   * tries to resolve an S3 bucket's region from the real cloud. No journal and no recovery: they are local files.
   */
  private static async openStore(store: ObjectStoreLocation, options: DirOpenOptions): Promise<DirNamespaceClient> {
    const storageOptions = { ...(options.storageOptions ?? {}) }
    const mapError = (error: unknown, hasManifest: boolean) => storeError(error, store, storageOptions, { hasManifest })
    let probed
    try {
      probed = await inspectStoreRoot(store, storageOptions, { create: options.create })
    } catch (error) {
      throw mapError(error, false)
    }
    const layout: RootLayout = probed === 'unknown' ? 'tables-only' : probed
    try {
      const db = await connectNamespace('dir', { root: store.uri, manifestEnabled: layout === 'manifest', extraProperties: storageProperties(storageOptions) }, { storageOptions })
      if (layout === 'manifest') await assertManifestReadable(db)
      // A root the probe could not list: one listing through Lance checks the location and the credentials.
      else await db.tableNames([], { limit: 1 })
      const client = new DirNamespaceClient(store.uri, layout, db, store, storageOptions)
      if (probed === 'unknown') {
        client.notes.push(`Opened ${store.uri} without its __manifest: this kind of credential cannot be checked without lancedb, which would write a __manifest when it is missing, so only the tables at the root are shown`)
      }
      return client
    } catch (error) {
      throw mapError(error, layout === 'manifest')
    }
  }

  private get moves(): MoveContext {
    return { root: this.root, manifest: this.manifest }
  }

  // ---- namespaces -------------------------------------------------------------------------

  async listNamespaces(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    const limit = listWindow(namespace, options)
    // A catalog without __manifest has only the root namespace, and no children under it.
    if (this.layout === 'tables-only') {
      if (namespace.length > 0) throw notFoundNamespace(namespace)
      return { items: [] }
    }
    return this.namespacePage(namespace, options, limit)
  }

  /** Namespaces and tables share one name space (one `object_id` each in the manifest): checked in the same serialized step. */
  protected override async makeNamespace(namespace: NamespacePath, properties: Record<string, string> | undefined): Promise<void> {
    await serialized(this.root, async () => {
      const holder = await this.occupant(namespace.slice(0, -1), namespace[namespace.length - 1]!)
      if (holder === 'table') throw takenBy('table', namespace.slice(0, -1), namespace[namespace.length - 1]!)
      await super.makeNamespace(namespace, properties)
    })
  }

  async describeNamespace(namespace: NamespacePath, _options: CallOptions = {}): Promise<{ properties: Record<string, string> }> {
    assertNamespacePath(namespace)
    if (this.layout === 'tables-only') {
      if (namespace.length > 0) throw notFoundNamespace(namespace)
      return { properties: {} }
    }
    const response = await this.call(() => this.db.describeNamespace([...namespace]), { namespace })
    return { properties: response.properties ?? {} }
  }

  // ---- tables -----------------------------------------------------------------------------

  async listTables(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    const limit = listWindow(namespace, options)
    if (this.layout === 'tables-only' && namespace.length > 0) throw notFoundNamespace(namespace)
    // Tables being written under a staging name are not tables yet. The token stays the last name read.
    const page = await this.tableNamePage(namespace, options, limit)
    return { ...page, items: page.items.filter((n) => !isStagingName(n)) }
  }

  /** Opening afresh picks up what other processes wrote since; later pages read this same version. */
  protected latestTable(id: TableId): Promise<LanceTable> {
    if (this.store) return this.refreshedTable(id)
    return this.handles.keep(id, undefined, this.openTable(id))
  }

  /**
   * On object storage, a kept handle brought to the latest version (`checkoutLatest`: Lance reads the version list,
   * a round trip or two) instead of a fresh open (a `__manifest` lookup plus the dataset's open: several). Others
   * may drop or re-create the table meanwhile: a handle that cannot refresh is dropped and the table opened afresh,
   * which then says "not found" if it is gone.
   */
  private async refreshedTable(id: TableId): Promise<LanceTable> {
    const kept = this.handles.get(id)
    if (kept) {
      try {
        const table = await kept
        await table.checkoutLatest()
        return table
      } catch {
        this.handles.drop(id, undefined, kept)
      }
    }
    return this.handles.keep(id, undefined, this.openTable(id))
  }

  /** The table's full location (a directory, or `az://…/t.lance` on object storage), as Lance itself resolved it. */
  async locationOf(id: TableId): Promise<string> {
    assertTableId(id)
    return tableUri(await this.latestTable(id))
  }

  /**
   * A cheap identity of `version`'s commit (see {@link manifestStamp}), read where the handle pinned at that
   * version says the table is; null on object storage (a manifest read there is a round trip like the version list).
   */
  async versionStamp(id: TableId, version: number): Promise<string | null> {
    assertTableId(id)
    if (this.store) return null
    const table = await (this.handles.get(id, version) ?? this.latestTable(id))
    return manifestStamp(tableUri(table), version)
  }

  async readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array> {
    assertTableId(id)
    assertPageWindow(options)
    const { offset, limit, columns } = options
    if (options.view) return this.queries.page(id, columns ? { ...options.view, columns } : options.view, { offset, limit, signal: options.signal, withRowId: options.withRowId, fastSearch: options.fastSearch })
    const table = await this.cachedTable(id, options.version)
    options.signal?.throwIfAborted()
    return this.call(async () => {
      let query = table.query().offset(offset).limit(limit)
      if (columns) query = query.select(columns)
      const buffers = await nativeBuffers(query)
      if (buffers === null) {
        const page = await query.toArrow()
        if (page.batches.length > 0) return toIpcStream(page)
      } else if (buffers.length > 0) {
        return fileBuffersToStream(buffers) ?? toIpcStream(new ArrowTable(buffers.flatMap((b) => tableFromIPC(b).batches)))
      }
      // Past the end lancedb returns a table without batches and without a schema; keep the columns.
      const schema = await table.schema()
      return emptyIpcStream(columns ? projectSchema(schema, columns) : schema)
    }, { table: id })
  }

  async createTableIpc(id: TableId, ipcFile: Uint8Array, options: CreateOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    const format = await this.formatFor(options.dataFormat)
    const created = await this.createStaged(id, options.mode, (t, mode) => createFromIpc(this.db, t.name, [...t.namespace], ipcFile, mode, this.createOptions(format).storageOptions))
    this.counted(id, format)
    return created
  }

  protected async createWith(id: TableId, mode: CreateMode | undefined, data: ArrowTable, write: TableWrite, format: DataFormat | undefined): Promise<TableDescription> {
    const created = this.store ? await this.createInStore(id, mode, write, data) : await this.createStaged(id, mode, write)
    this.counted(id, format)
    return created
  }

  /**
   * The one rule for the format of every table this client creates (import, New table, the demo, a future "Save
   * as table"): the format asked for, else the catalog's majority ({@link catalogDataFormats}), so that the
   * releases that read the catalog's tables read the new one too. On object storage the formats are not read:
   * Lance's default, unless one is asked for.
   */
  protected override async formatFor(dataFormat: DataFormat | undefined): Promise<DataFormat | undefined> {
    if (dataFormat !== undefined || this.store) return dataFormat
    // The default is a courtesy: a catalog whose formats cannot be read still gets its table (in Lance's default).
    return (await this.catalogDataFormats().catch(() => null))?.default
  }

  /** A table was created in `format`: the kept counts take it in (a staging table is counted once published). */
  private counted(id: TableId, format: DataFormat | undefined): void {
    const kept = this.formats
    if (!kept || format === undefined || isStagingName(id.name)) return
    kept.value = kept.value.then((f) => {
      const counts = { ...f.counts, [format]: (f.counts[format] ?? 0) + 1 }
      return { ...f, counts, tablesRead: f.tablesRead + 1, default: majorityFormat(counts) }
    })
  }

  async tableDataFormat(id: TableId): Promise<string | null> {
    assertTableId(id)
    if (this.store) return null
    return readDataFormat(await this.locationOf(id))
  }

  /**
   * The formats of the catalog's tables (at most {@link FORMAT_SAMPLE}: root tables first, then those of child
   * namespaces; one small read of each table's latest manifest), kept for {@link FORMATS_KEPT_MS} or until this
   * client drops a table (a table it creates is counted in).
   */
  catalogDataFormats(): Promise<CatalogDataFormats> {
    if (this.store) return Promise.resolve({ default: DEFAULT_DATA_FORMAT, counts: {}, tablesRead: 0, limited: false, choosable: true, unknownReason: 'the formats of tables on object storage are not read (each would be a round trip)' })
    const kept = this.formats
    if (kept && Date.now() - kept.at < FORMATS_KEPT_MS) return kept.value
    const value = this.readCatalogFormats()
    this.formats = { at: Date.now(), value }
    value.catch(() => (this.formats = undefined))
    return value
  }

  private async readCatalogFormats(): Promise<CatalogDataFormats> {
    // Where each table's directory is, without opening any table: root tables are their `{name}.lance`
    // directories (lancedb 0.31 lists them so), child-namespace tables are found through one `__manifest` query.
    const dirs: string[] = []
    const rootPage = await this.listTables([], { limit: FORMAT_SAMPLE })
    for (const name of rootPage.items) if (!isStagingName(name)) dirs.push(join(this.root, `${name}.lance`))
    let limited = rootPage.pageToken !== undefined
    if (this.layout === 'manifest' && this.manifest?.exists) {
      const rows = await this.manifest.query(`object_type = 'table'`)
      for (const row of rows) {
        const parts = row.object_id.split(DELIMITER)
        if (parts.length < 2 || !row.location || isStagingName(parts[parts.length - 1]!)) continue
        dirs.push(join(this.root, row.location))
      }
    }
    if (dirs.length > FORMAT_SAMPLE) {
      limited = true
      dirs.length = FORMAT_SAMPLE
    }
    const counts: Record<string, number> = {}
    let tablesRead = 0
    for (const format of await Promise.all(dirs.map((dir) => readDataFormat(dir)))) {
      if (format === null) continue
      counts[format] = (counts[format] ?? 0) + 1
      tablesRead++
    }
    return { default: majorityFormat(counts), counts, tablesRead, limited, choosable: true }
  }

  /**
   * A table appears under its name only when complete: `write` makes it under a hidden staging name
   * ({@link stagingName}), then one atomic step publishes it (a rename; for `overwrite`, a swap). A staging
   * name given by the caller (the import writes its chunks into one) is written directly.
   */
  private async createStaged(id: TableId, mode: CreateMode = 'create', write: TableWrite): Promise<TableDescription> {
    if (this.store) return this.createInStore(id, mode, write)
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    if (isStagingName(id.name)) {
      await this.call(() => write(id, 'create'), { table: id })
      return this.describeTable(id)
    }
    const holder = await this.occupant(id.namespace, id.name)
    if (holder === 'namespace' || (holder === 'table' && mode === 'create')) throw takenBy(holder, id.namespace, id.name)
    if (holder === 'table' && mode === 'exist_ok') return this.describeTable(id)
    if (holder === 'table' && mode === 'overwrite') {
      // One call, one Lance commit: lancedb's own overwrite is atomic and keeps the table's history.
      await this.call(() => write(id, 'overwrite'), { table: id })
      return this.describeTable(id)
    }
    const staging: TableId = { namespace: id.namespace, name: stagingName(id.name) }
    try {
      await this.call(() => write(staging, 'create'), { table: id })
      await this.publish(staging, id, mode)
    } catch (error) {
      await this.dropTable(staging).catch(() => undefined)
      throw error
    }
    return this.describeTable(id)
  }

  /**
   * On object storage a table is created by ONE lancedb call (one Lance commit of the dataset, then lancedb's own
   * `__manifest` row for a child namespace): there is no staging-and-publish, because publishing is a manifest
   * edit. The import's staging tables are refused before anything is written.
   */
  private async createInStore(id: TableId, mode: CreateMode = 'create', write: TableWrite, data?: ArrowTable): Promise<TableDescription> {
    if (isStagingName(id.name)) throw objectStoreUnsupported('import')
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    const holder = await serialized(this.root, () => this.occupant(id.namespace, id.name))
    if (holder === 'namespace' || (holder === 'table' && mode === 'create')) throw takenBy(holder, id.namespace, id.name)
    if (holder === 'table' && mode === 'exist_ok') return this.describeTable(id)
    if (holder === 'table' && data) {
      // One commit on the existing dataset: lancedb's own namespace overwrite loses the storage options on object
      // storage ("no Azure account name").
      const existing = await this.openTable(id)
      await this.call(() => existing.add(data, { mode: 'overwrite' }), { table: id })
      return this.describeTable(id)
    }
    await this.call(() => write(id, holder === 'table' ? 'overwrite' : 'create'), { table: id })
    return this.describeTable(id)
  }

  /** Give the complete staging table its final name (checked free in the same serialized step). */
  private publish(staging: TableId, id: TableId, mode: CreateMode): Promise<void> {
    return serialized(this.root, async () => {
      const holder = await this.occupant(id.namespace, id.name)
      if (holder === 'table' && mode === 'overwrite') return this.swapUnlocked(staging, id)
      if (holder) throw takenBy(holder, id.namespace, id.name)
      await moveTable(this.moves, staging, id, await this.tableDir(staging))
    })
  }

  async replaceTable(staging: TableId, target: TableId): Promise<void> {
    assertTableId(staging)
    assertTableId(target)
    if (this.store) throw objectStoreUnsupported('import')
    this.forget(target)
    await serialized(this.root, () => this.swapUnlocked(staging, target))
  }

  private async swapUnlocked(staging: TableId, target: TableId): Promise<void> {
    if (this.layout === 'tables-only' || !this.manifest?.exists) {
      // Without a manifest, root tables are their directories: the same journaled directory swap.
      await swapTables(this.moves, target, staging, async () => undefined)
      return
    }
    await swapTables(this.moves, target, staging, () => this.dropUnlocked(staging))
  }

  async recordAppend(id: TableId, version: number): Promise<() => Promise<void>> {
    // The journal is a local file; an import's append is refused before it writes (see OBJECT_STORE_REASONS).
    if (this.store) throw objectStoreUnsupported('import')
    const file = await recordIntent(this.root, { op: 'append', table: { namespace: [...id.namespace], name: id.name }, version })
    return () => clearIntent(file)
  }

  async appendRows(id: TableId, data: ArrowTable, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    const key = tableKey(id)
    const kept = this.writers.get(key)
    this.forget(id)
    const table = kept ?? (await this.openTable(id))
    const result = await this.call(() => addArrowTable(table, data), { table: id })
    if (isStagingName(id.name)) this.writers.set(key, table)
    return result.version
  }

  async appendIpc(id: TableId, ipcFile: Uint8Array, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    const key = tableKey(id)
    const kept = this.writers.get(key)
    this.forget(id)
    const table = kept ?? (await this.openTable(id))
    const result = await this.call(() => addIpcFile(table, ipcFile), { table: id })
    if (isStagingName(id.name)) this.writers.set(key, table)
    return result.version
  }

  async dropTable(id: TableId, _options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    this.forget(id)
    if (!isStagingName(id.name)) this.formats = undefined
    if (this.store) return this.dropInStore(id)
    await serialized(this.root, () => this.dropUnlocked(id))
  }

  /** On object storage only lancedb removes tables (we hold no manifest handle and no local directory). */
  private async dropInStore(id: TableId): Promise<void> {
    try {
      await this.call(() => this.db.dropTable(id.name, [...id.namespace]), { table: id })
    } catch (error) {
      // A root table that a client wrote itself at `{root}/{name}.lance` (after declare) has no `__manifest` row:
      // lancedb lists and opens it, but its namespace drop does not see it. The listing database drops it.
      if (!(toCode(error) === 'not_found' && id.namespace.length === 0)) throw error
      await this.openTable(id)
      await this.call(async () => (await this.listing()).dropTable(id.name), { table: id })
    }
  }

  /** lancedb's listing database on an object-store root (`{name}.lance` directories); the root has its `__manifest`. */
  private listing(): Promise<Connection> {
    return (this.listingDb ??= connect(this.root, { storageOptions: this.storageOptions }))
  }

  /**
   * Anything listed can be dropped: when lancedb cannot (the directory is gone, holds no version yet, or is
   * half written), the manifest row and the directory are removed here.
   */
  private async dropUnlocked(id: TableId): Promise<void> {
    // lancedb deletes every manifest row with the table's object id: where a namespace shares it (a manifest
    // damaged by an older writer), it would take the namespace too, so only the table's own row goes.
    if (this.manifest?.exists && (await this.manifest.find(tableObjectId(id))).some((r) => r.object_type === 'namespace')) {
      if (!(await this.dropDamaged(id))) throw new AppError('not_found', `Table ${formatTableId(id)} does not exist`, { hint: 'Refresh the tree' })
      return
    }
    try {
      await this.call(() => this.db.dropTable(id.name, [...id.namespace]), { table: id })
      return
    } catch (error) {
      const removed = await this.dropDamaged(id)
      // lancedb may fail after removing the row (e.g. "Failed to delete table directory" when it is gone).
      if (!removed && toCode(error) === 'not_found') throw error
    }
  }

  private async dropDamaged(id: TableId): Promise<boolean> {
    let removed = false
    if (this.manifest?.exists) {
      for (const row of await this.manifest.find(tableObjectId(id))) {
        if (row.object_type !== 'table') continue
        if (row.location) await rm(join(this.root, row.location), { recursive: true, force: true })
        await this.manifest.deleteRow(row.object_id)
        removed = true
      }
    }
    if (id.namespace.length === 0) {
      const dir = join(this.root, `${id.name}.lance`)
      if (existsSync(dir)) {
        await rm(dir, { recursive: true, force: true })
        removed = true
      }
    }
    return removed
  }

  /**
   * Rename a table, also into another namespace, through the catalog's `__manifest` and `rename(2)` of its
   * directory (see dir/moves.ts for the steps and why an interruption never loses or duplicates the table).
   * The target namespace must exist, and the new name must not be taken by a table or a namespace.
   */
  async renameTable(id: TableId, newName: string, options: { newNamespace?: NamespacePath } & CallOptions = {}): Promise<void> {
    assertTableId(id)
    assertComponent(newName, 'new table name')
    if (options.newNamespace) assertNamespacePath(options.newNamespace)
    const to: TableId = { namespace: [...(options.newNamespace ?? id.namespace)], name: newName }
    if (formatTableId(to) === formatTableId(id)) throw new AppError('invalid_input', 'The new name is the table’s current name')
    if (this.store) throw objectStoreUnsupported('rename')
    if (this.layout === 'tables-only' && to.namespace.length > 0) throw notFoundNamespace(to.namespace)
    await this.assertNamespaceExists(to.namespace)
    this.forget(id)
    this.forget(to)
    await serialized(this.root, async () => {
      const fromDir = await this.tableDir(id)
      const holder = await this.occupant(to.namespace, to.name)
      if (holder) throw takenBy(holder, to.namespace, to.name)
      await moveTable(this.moves, id, to, fromDir)
    })
  }

  /** Register an existing Lance dataset directory inside the root as `id` (src/core/namespace/dir/register.ts); answers its location. */
  async registerTable(id: TableId, location: string): Promise<string> {
    assertTableId(id)
    if (this.store) throw objectStoreUnsupported('register')
    if (this.layout === 'tables-only' && id.namespace.length > 0) throw notFoundNamespace(id.namespace)
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    return serialized(this.root, async () => {
      const holder = await this.occupant(id.namespace, id.name)
      if (holder) throw takenBy(holder, id.namespace, id.name)
      return registerTable(this.moves, id, location)
    })
  }

  /** Stop listing `id` and keep its data; answers where the data now is (relative to the root). */
  async deregisterTable(id: TableId): Promise<string> {
    assertTableId(id)
    if (this.store) throw objectStoreUnsupported('register')
    this.forget(id)
    return serialized(this.root, async () => deregisterTable(this.moves, id, await this.tableDir(id)))
  }

  /** Let go of every lancedb handle without closing one that a running call may still use (LanceDirClient.released says why). */
  async close(): Promise<void> {
    this.released = true
    this.handles.clear()
    this.writers.clear()
    await this.manifest?.close()
    this.listingDb = undefined
  }

  // ---- helpers ----------------------------------------------------------------------------

  protected async openTable(id: TableId): Promise<LanceTable> {
    if (this.layout === 'tables-only' && id.namespace.length > 0) throw notFoundNamespace(id.namespace)
    return this.call(() => this.db.openTable(id.name, [...id.namespace], this.tableOptions()), { table: id })
  }

  /** Open `id` at `version` (read-only); a version that does not exist is "not found", in words. */
  private async openVersion(id: TableId, version: number): Promise<LanceTable> {
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
    if (this.layout === 'tables-only' && id.namespace.length > 0) throw notFoundNamespace(id.namespace)
    try {
      return await this.db.openTable(id.name, [...id.namespace], { version, ...this.tableOptions() })
    } catch (error) {
      // Only a failure pays for listing the versions: it tells a missing version from a missing table.
      const latest = await this.openTable(id)
      await this.assertVersion(latest, id, version)
      throw this.mapError(error, { table: id })
    }
  }

  private cachedTable(id: TableId, version?: number): Promise<LanceTable> {
    return this.handles.get(id, version) ?? this.handles.keep(id, version, version === undefined ? this.openTable(id) : this.openVersion(id, version))
  }

  protected forget(id: TableId): void {
    this.handles.forget(id)
    this.writers.delete(tableKey(id))
  }

  /**
   * What holds `name` in `namespace`: a table or a namespace (they share one name space: one `object_id` in the
   * manifest; a root table is also its `{name}.lance` directory). Writers check this inside {@link serialized},
   * so two writes in this process cannot both take a name. Across processes the manifest commit is the only
   * arbiter and lancedb offers no conditional rename (a rename is an UPDATE of the row): a second process
   * taking the same name in the same instant is not excluded for child namespaces; for root tables `rename(2)`
   * onto a non-empty `{name}.lance` fails, which is the check.
   */
  private async occupant(namespace: NamespacePath, name: string): Promise<'table' | 'namespace' | null> {
    if (this.store) return this.storeOccupant(namespace, name)
    if (this.manifest?.exists) {
      const rows = await this.manifest.find(objectIdOf(namespace, name))
      if (rows.some((r) => r.object_type === 'namespace')) return 'namespace'
      if (rows.some((r) => r.object_type === 'table')) return 'table'
    }
    if (namespace.length === 0 && existsSync(join(this.root, `${name}.lance`))) return 'table'
    return null
  }

  /** {@link occupant} on object storage, asked through lancedb (a namespace describe, a table open). */
  private async storeOccupant(namespace: NamespacePath, name: string): Promise<'table' | 'namespace' | null> {
    const child = [...namespace, name]
    if (this.layout === 'manifest') {
      const isNamespace = await this.describeNamespace(child).then(
        () => true,
        (error: unknown) => (toCode(error) === 'not_found' ? false : Promise.reject(error)),
      )
      if (isNamespace) return 'namespace'
    }
    return this.openTable({ namespace, name }).then(
      () => 'table' as const,
      (error: unknown) => (toCode(error) === 'not_found' ? null : Promise.reject(error)),
    )
  }

  /** The directory (relative to the root) that holds `id`; "not found" when there is none. */
  private async tableDir(id: TableId): Promise<string> {
    if (this.manifest?.exists) {
      const row = (await this.manifest.find(tableObjectId(id))).find((r) => r.object_type === 'table')
      // Root tables are found by their `{name}.lance` directory whatever their row says (lancedb 0.31.0).
      if (row?.location && id.namespace.length > 0) return row.location
    }
    if (id.namespace.length === 0 && existsSync(join(this.root, `${id.name}.lance`))) return `${id.name}.lance`
    throw new AppError('not_found', `Table ${formatTableId(id)} does not exist`, { hint: 'Refresh the tree' })
  }

  protected mapError(error: unknown, context: { table?: TableId; namespace?: NamespacePath }): AppError {
    const hasManifest = this.layout === 'manifest'
    return this.store ? storeError(error, this.store, this.storageOptions, { ...context, hasManifest }) : fromLanceError(error, { ...context, hasManifest })
  }

  /** What every lancedb table call takes on object storage (see {@link openStore}). */
  protected tableOptions(): { storageOptions?: StorageOptions } {
    return this.store ? { storageOptions: this.storageOptions } : {}
  }
}

/**
 * lancedb falls back to "directory listing only" when `__manifest` cannot be read (logging a warning), and then
 * shows an empty tree. Asking for a namespace that cannot exist tells the two apart: the manifest answers
 * "not found", the fallback answers "only supports root namespace operations".
 */
async function assertManifestReadable(db: Connection): Promise<void> {
  try {
    await db.describeNamespace(['__lcb_probe__'])
  } catch (error) {
    const mapped = fromLanceError(error, { hasManifest: true })
    if (mapped.code !== 'not_found') throw mapped
  }
}

/**
 * An error on an object-store catalog: the store's refusals in words first (credentials, container, endpoint),
 * then the catalog errors every directory catalog has; secrets never reach the message or the detail.
 */
function storeError(error: unknown, store: ObjectStoreLocation, options: StorageOptions, context: Parameters<typeof fromLanceError>[1]): AppError {
  const text = error instanceof Error ? error.message : String(error)
  const mapped = error instanceof AppError ? error : (fromStoreMessage(text, store) ?? fromLanceError(error, context))
  const detail = mapped.detail ?? (mapped === error ? undefined : text)
  return new AppError(mapped.code, redactSecrets(mapped.message, options), {
    hint: mapped.hint,
    // No `cause`: the raw error may carry a signed URL or a secret, and causes end up in logs.
    detail: detail === undefined ? undefined : redactSecrets(detail, options).slice(0, 2000),
  })
}

/** The fields named by `columns`, in that order (what a projected query answers). */
function projectSchema(schema: Schema, columns: string[]): Schema {
  const fields = columns.map((name) => {
    const field = schema.fields.find((f) => f.name === name)
    if (!field) throw new AppError('invalid_input', `Unknown column: ${name}`)
    return field
  })
  return new ArrowSchema(fields, schema.metadata)
}

/** The shape of lancedb's protected `QueryBase.nativeExecute` (0.31.0): an iterator of IPC file-format buffers. */
interface NativeQuery {
  nativeExecute?: () => Promise<{ next(): Promise<Uint8Array | null> }>
}

/**
 * The page's IPC file-format buffers straight from lancedb's native iterator: `toArrow()` would decode them
 * into an Arrow Table only for us to encode it again, and this is the hot path of scrolling (tests/bench/dir.ts).
 * Null when that protected method is missing (another lancedb version): the caller then uses `toArrow()`.
 */
async function nativeBuffers(query: Query): Promise<Uint8Array[] | null> {
  const native = query as unknown as NativeQuery
  if (typeof native.nativeExecute !== 'function') return null
  const iterator = await native.nativeExecute()
  const buffers: Uint8Array[] = []
  for (let buffer = await iterator.next(); buffer; buffer = await iterator.next()) buffers.push(buffer)
  return buffers
}

function toCode(error: unknown): string {
  return error instanceof AppError ? error.code : 'internal'
}

/** `already_exists`, saying which kind of object holds the name. */
function takenBy(holder: 'table' | 'namespace', namespace: NamespacePath, name: string): AppError {
  const where = namespace.length === 0 ? 'at the root of the catalog' : `in namespace ${formatNamespace(namespace)}`
  return new AppError('already_exists', `The name "${name}" is taken by a ${holder} ${where}`, {
    hint: holder === 'namespace' ? 'Tables and namespaces share one set of names: choose another name' : 'Choose another name',
  })
}

function tableKey(id: TableId, version?: number): string {
  return version === undefined ? formatTableId(id) : `${formatTableId(id)}@${version}`
}

function notFoundNamespace(namespace: NamespacePath): AppError {
  return new AppError('not_found', `Namespace ${formatNamespace(namespace)} does not exist`, {
    hint: 'This directory has no __manifest, so it holds tables only at its root',
  })
}
