import { connectNamespace, type Connection, type Query, type Table as LanceTable } from '@lancedb/lancedb'
import { Schema as ArrowSchema, Table as ArrowTable, tableFromIPC, type Schema } from 'apache-arrow'
import { AppError, type Page } from '../../../contract'
import { emptyIpcStream, fileBuffersToStream, schemaFields, toIpcStream } from '../../arrow'
import { listAll, type CallOptions, type CreateMode, type ListOptions, type NamespaceClient, type ReadPageOptions, type TableDescription } from '../client'
import { assertComponent, assertNamespacePath, assertTableId, formatNamespace, formatTableId, type NamespacePath, type TableId } from '../path'
import { fromLanceError } from './errors'
import { inspectRoot, type RootLayout } from './root'
import * as lifecycle from '../../lifecycle/dirTable'
import { indexNotFound, tagExists, tagNotFound, versionNotFound } from '../../lifecycle/errors'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../../contract/lifecycle'

/** Listing page size when the caller gives none. Always explicit: lancedb's own default was 10 (lancedb#3914). */
export const DEFAULT_LIST_LIMIT = 1000

/** How many table handles readPage keeps open (a handle holds Lance's metadata caches). */
const OPEN_TABLES = 32

export interface DirOpenOptions {
  /** Make the directory (and its `__manifest`) if it is missing or empty. Off for browsing. */
  create?: boolean
}

/**
 * The `dir` namespace: a local directory catalog read and written through @lancedb/lancedb's
 * `connectNamespace("dir", { root })`.
 *
 * Never write on read: lancedb 0.31.0 creates `root/` and `root/__manifest` when they are missing, at connect time.
 * {@link inspectRoot} refuses such directories unless `create` is set, and a catalog of bare `*.lance` tables
 * (no `__manifest`) is opened with `manifest_enabled=false`, which leaves it untouched.
 */
export class DirNamespaceClient implements NamespaceClient {
  readonly implementation = 'dir' as const
  /** Table handles opened by readPage, so paging does not reopen the table each time. describeTable refreshes them. */
  private readonly tables = new Map<string, Promise<LanceTable>>()

  private constructor(
    readonly root: string,
    readonly layout: RootLayout,
    private readonly db: Connection,
  ) {}

  static async open(root: string, options: DirOpenOptions = {}): Promise<DirNamespaceClient> {
    const layout = await inspectRoot(root, options)
    try {
      const db = await connectNamespace('dir', { root, manifestEnabled: layout === 'manifest' })
      if (layout === 'manifest') await assertManifestReadable(db)
      return new DirNamespaceClient(root, layout, db)
    } catch (error) {
      throw fromLanceError(error, { hasManifest: layout === 'manifest' })
    }
  }

  // ---- namespaces -------------------------------------------------------------------------

  async listNamespaces(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const limit = listLimit(options.limit)
    if (options.pageToken !== undefined) assertComponent(options.pageToken, 'page token')
    // A catalog without __manifest has only the root namespace, and no children under it.
    if (this.layout === 'tables-only') {
      if (namespace.length > 0) throw notFoundNamespace(namespace)
      return { items: [] }
    }
    options.signal?.throwIfAborted()
    // Ask for one more than the page: its presence is how we know more follow (no empty last page).
    const response = await this.call(() => this.db.listNamespaces([...namespace], { pageToken: options.pageToken, limit: limit + 1 }), { namespace })
    // lancedb lists a missing namespace as empty; an empty answer is checked, so a missing one is "not found".
    if (response.namespaces.length === 0 && namespace.length > 0 && options.pageToken === undefined) await this.describeNamespace(namespace)
    return pageOf(response.namespaces, limit)
  }

  async createNamespace(
    namespace: NamespacePath,
    options: { mode?: 'create' | 'exist_ok'; properties?: Record<string, string> } & CallOptions = {},
  ): Promise<void> {
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
    if (this.layout === 'tables-only') {
      if (namespace.length > 0) throw notFoundNamespace(namespace)
      return { properties: {} }
    }
    const response = await this.call(() => this.db.describeNamespace([...namespace]), { namespace })
    return { properties: response.properties ?? {} }
  }

  async dropNamespace(namespace: NamespacePath, options: { behavior?: 'restrict' | 'cascade' } & CallOptions = {}): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) throw new AppError('invalid_input', 'The root namespace cannot be dropped')
    await this.describeNamespace(namespace)
    if (options.behavior === 'cascade') {
      // lancedb 0.31.0 refuses "cascade" like "restrict", so we empty the namespace ourselves, deepest first.
      for (const child of await listAll((o) => this.listNamespaces(namespace, o))) {
        await this.dropNamespace([...namespace, child], options)
      }
      for (const name of await listAll((o) => this.listTables(namespace, o))) await this.dropTable({ namespace, name })
    }
    await this.call(() => this.db.dropNamespace([...namespace], { mode: 'fail', behavior: 'restrict' }), { namespace })
  }

  // ---- tables -----------------------------------------------------------------------------

  async listTables(namespace: NamespacePath, options: ListOptions = {}): Promise<Page<string>> {
    assertNamespacePath(namespace)
    const limit = listLimit(options.limit)
    if (options.pageToken !== undefined) assertComponent(options.pageToken, 'page token')
    if (this.layout === 'tables-only' && namespace.length > 0) throw notFoundNamespace(namespace)
    options.signal?.throwIfAborted()
    const names = await this.call(() => this.db.tableNames([...namespace], { startAfter: options.pageToken, limit: limit + 1 }), { namespace })
    if (names.length === 0 && namespace.length > 0 && options.pageToken === undefined && this.layout === 'manifest') await this.describeNamespace(namespace)
    return pageOf(names, limit)
  }

  async describeTable(id: TableId, options: { version?: number } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    // Opening afresh picks up what other processes wrote since; later pages read this same version.
    const opened = options.version === undefined ? this.openTable(id) : this.openVersion(id, options.version)
    this.remember(tableKey(id, options.version), opened)
    const table = await opened
    options.signal?.throwIfAborted()
    return this.call(async () => {
      const [rowCount, version, schema] = await Promise.all([table.countRows(), table.version(), table.schema()])
      return { name: id.name, namespace: [...id.namespace], rowCount, version, schema, fields: schemaFields(schema) }
    }, { table: id })
  }

  async readPage(id: TableId, options: ReadPageOptions): Promise<Uint8Array> {
    assertTableId(id)
    const { offset, limit, columns } = options
    if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError('invalid_input', 'offset must be a whole number ≥ 0')
    if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
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

  async createTable(id: TableId, data: ArrowTable, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    await this.call(() => this.db.createTable(id.name, data, [...id.namespace], lanceCreateOptions(options.mode)), { table: id })
    return this.describeTable(id)
  }

  async createEmptyTable(id: TableId, schema: Schema, options: { mode?: CreateMode } & CallOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    await this.assertNamespaceExists(id.namespace)
    this.forget(id)
    await this.call(() => this.db.createEmptyTable(id.name, schema, [...id.namespace], lanceCreateOptions(options.mode)), { table: id })
    return this.describeTable(id)
  }

  async appendRows(id: TableId, data: ArrowTable, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    const table = await this.openTable(id)
    this.forget(id)
    const result = await this.call(() => table.add(data), { table: id })
    return result.version
  }

  async restoreVersion(id: TableId, version: number, _options: CallOptions = {}): Promise<void> {
    assertTableId(id)
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
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
    await this.call(() => this.db.dropTable(id.name, [...id.namespace]), { table: id })
  }

  async renameTable(id: TableId, newName: string, options: { newNamespace?: NamespacePath } & CallOptions = {}): Promise<void> {
    assertTableId(id)
    assertComponent(newName, 'new table name')
    if (options.newNamespace) assertNamespacePath(options.newNamespace)
    await this.openTable(id) // a missing table is "not found", not "unsupported"
    try {
      await this.db.renameTable(id.name, newName, { namespacePath: [...id.namespace], newNamespacePath: [...(options.newNamespace ?? id.namespace)] })
    } catch (error) {
      const mapped = fromLanceError(error, { table: id })
      if (mapped.code === 'unsupported') {
        throw new AppError('unsupported', 'Directory catalogs cannot rename tables (the Lance "dir" namespace does not implement rename)', {
          detail: mapped.detail,
          hint: 'Create a new table from this one and drop the old one',
        })
      }
      throw mapped
    }
    this.forget(id)
  }

  // ---- lifecycle (src/core/lifecycle/dirTable.ts) -------------------------------------------

  async listVersions(id: TableId, _options: CallOptions = {}): Promise<VersionInfo[]> {
    return this.onTable(id, (t) => lifecycle.listVersions(t))
  }

  async listTags(id: TableId, _options: CallOptions = {}): Promise<TagInfo[]> {
    return this.onTable(id, (t) => lifecycle.listTags(t))
  }

  async createTag(id: TableId, tag: string, version: number, _options: CallOptions = {}): Promise<void> {
    assertComponent(tag, 'tag')
    await this.onTable(id, async (t) => {
      await this.assertVersion(t, id, version)
      if ((await lifecycle.listTags(t)).some((x) => x.name === tag)) throw tagExists(tag)
      await lifecycle.createTag(t, tag, version)
    })
  }

  async deleteTag(id: TableId, tag: string, _options: CallOptions = {}): Promise<void> {
    await this.onTable(id, async (t) => {
      if (!(await lifecycle.listTags(t)).some((x) => x.name === tag)) throw tagNotFound(tag)
      await lifecycle.deleteTag(t, tag)
    })
  }

  async tagVersion(id: TableId, tag: string, _options: CallOptions = {}): Promise<number> {
    return this.onTable(id, async (t) => {
      const found = (await lifecycle.listTags(t)).find((x) => x.name === tag)
      if (!found) throw tagNotFound(tag)
      return found.version
    })
  }

  async listIndexes(id: TableId, _options: CallOptions = {}): Promise<IndexInfo[]> {
    return this.onTable(id, (t) => lifecycle.listIndexes(t))
  }

  async createIndex(id: TableId, spec: IndexSpec, _options: CallOptions = {}): Promise<void> {
    await this.onTable(id, (t) => lifecycle.createIndex(t, spec), true)
  }

  async dropIndex(id: TableId, name: string, _options: CallOptions = {}): Promise<void> {
    await this.onTable(id, async (t) => {
      if (!(await t.listIndices()).some((i) => i.name === name)) throw indexNotFound(name)
      await t.dropIndex(name)
    }, true)
  }

  async tableStats(id: TableId, _options: CallOptions = {}): Promise<TableStats> {
    return this.onTable(id, (t) => lifecycle.tableStats(t))
  }

  async optimize(id: TableId, options: { pruneOlderThanDays?: number } & CallOptions = {}): Promise<OptimizeResult> {
    return this.onTable(id, (t) => lifecycle.optimize(t, options.pruneOlderThanDays), true)
  }

  async addColumns(id: TableId, columns: NewColumn[], _options: CallOptions = {}): Promise<number> {
    return this.onTable(id, (t) => lifecycle.addColumns(t, columns), true)
  }

  async alterColumns(id: TableId, alterations: ColumnAlteration[], _options: CallOptions = {}): Promise<number> {
    return this.onTable(id, (t) => lifecycle.alterColumns(t, alterations), true)
  }

  async dropColumns(id: TableId, names: string[], _options: CallOptions = {}): Promise<number> {
    return this.onTable(id, (t) => lifecycle.dropColumns(t, names), true)
  }

  async close(): Promise<void> {
    this.tables.clear()
    if (this.db.isOpen()) this.db.close()
  }

  // ---- helpers ----------------------------------------------------------------------------

  private async openTable(id: TableId): Promise<LanceTable> {
    if (this.layout === 'tables-only' && id.namespace.length > 0) throw notFoundNamespace(id.namespace)
    return this.call(() => this.db.openTable(id.name, [...id.namespace]), { table: id })
  }

  /** Open `id` at `version` (read-only); a version that does not exist is "not found", in words. */
  private async openVersion(id: TableId, version: number): Promise<LanceTable> {
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
    if (this.layout === 'tables-only' && id.namespace.length > 0) throw notFoundNamespace(id.namespace)
    try {
      return await this.db.openTable(id.name, [...id.namespace], { version })
    } catch (error) {
      // Only a failure pays for listing the versions: it tells a missing version from a missing table.
      const latest = await this.openTable(id)
      await this.assertVersion(latest, id, version)
      throw fromLanceError(error, { table: id, hasManifest: this.layout === 'manifest' })
    }
  }

  private async assertVersion(table: LanceTable, id: TableId, version: number): Promise<void> {
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
    const versions = await this.call(() => table.listVersions(), { table: id })
    if (!versions.some((v) => v.version === version)) throw versionNotFound(id, version)
  }

  /** Run lifecycle work on the latest table; `writes` forgets cached handles so later reads see the change. */
  async onTable<T>(id: TableId, work: (table: LanceTable) => Promise<T>, writes = false): Promise<T> {
    assertTableId(id)
    const table = await this.openTable(id)
    try {
      return await this.call(() => work(table), { table: id })
    } finally {
      if (writes) this.forget(id)
    }
  }

  private cachedTable(id: TableId, version?: number): Promise<LanceTable> {
    const key = tableKey(id, version)
    const cached = this.tables.get(key)
    if (cached) return cached
    const table = version === undefined ? this.openTable(id) : this.openVersion(id, version)
    this.remember(key, table)
    return table
  }

  /** Keep the handle (most recent last), forget it if opening fails, and keep only the last few tables open. */
  private remember(key: string, table: Promise<LanceTable>): void {
    this.tables.delete(key)
    this.tables.set(key, table)
    table.catch(() => {
      if (this.tables.get(key) === table) this.tables.delete(key)
    })
    while (this.tables.size > OPEN_TABLES) this.tables.delete(this.tables.keys().next().value!)
  }

  private forget(id: TableId): void {
    this.tables.delete(tableKey(id))
  }

  /** lancedb creates a table in a namespace that does not exist (0.31.0); refuse that first. */
  private async assertNamespaceExists(namespace: NamespacePath): Promise<void> {
    if (namespace.length > 0) await this.describeNamespace(namespace)
  }

  private async call<T>(work: () => Promise<T>, context: { table?: TableId; namespace?: NamespacePath }): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw fromLanceError(error, { ...context, hasManifest: this.layout === 'manifest' })
    }
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

function listLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIST_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
  return limit
}

/** `items` was fetched with `limit + 1`: the extra item only says that more follow. Tokens are the last name given. */
function pageOf(items: string[], limit: number): Page<string> {
  if (items.length <= limit) return { items }
  const page = items.slice(0, limit)
  return { items: page, pageToken: page[page.length - 1] }
}

function lanceCreateOptions(mode: CreateMode = 'create') {
  if (mode === 'overwrite') return { mode: 'overwrite' as const }
  return { mode: 'create' as const, existOk: mode === 'exist_ok' }
}

function tableKey(id: TableId, version?: number): string {
  return version === undefined ? formatTableId(id) : `${formatTableId(id)}@${version}`
}

function notFoundNamespace(namespace: NamespacePath): AppError {
  return new AppError('not_found', `Namespace ${formatNamespace(namespace)} does not exist`, {
    hint: 'This directory has no __manifest, so it holds tables only at its root',
  })
}
