import type { Connection, Table as LanceTable } from '@lancedb/lancedb'
import { Table as ArrowTable, type RecordBatch, type Schema } from 'apache-arrow'
import { AppError, type DataFormat, type Page, type TableViewSpec } from '../../../contract'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../../contract/lifecycle'
import type { StorageOptions } from '../../../contract/objectStore'
import { schemaFields } from '../../arrow'
import * as lifecycle from './lifecycle'
import { indexNotFound, tagExists, tagNotFound, versionNotFound } from '../errors'
import type { DirQueries } from './queries'
import { listAll, type CallOptions, type CreateMode, type CreateOptions, type DescribeOptions, type ExplainOptions, type ListOptions, type ReadPageOptions, type ScanOptions, type TableDescription, type ViewOptions } from '../client'
import { assertComponent, assertNamespacePath, assertTableId, type NamespacePath, type TableId } from '../path'

/** Listing page size when the caller gives none. Always explicit: lancedb's own default was 10 (lancedb#3914). */
export const DEFAULT_LIST_LIMIT = 1000

/** What an error is about, for the error's words. */
export interface ErrorContext {
  table?: TableId
  namespace?: NamespacePath
}

/** Makes a table under `target` with one lancedb call, in lancedb's `mode`. */
export type TableWrite = (target: TableId, mode: 'create' | 'overwrite') => Promise<unknown>

/**
 * What a directory catalog opened through lancedb's `connectNamespace("dir")` does the same way on a local disk and
 * on object storage: namespace create/drop, the listing pages, describe at the latest version, reads through a view
 * (./queries.ts), and the one-commit lifecycle operations on the latest table. How a table is opened and kept, how
 * one is created, and how errors read, {@link DirNamespaceClient} says.
 */
export abstract class LanceDirClient {
  /** Reads through a view, each at exactly its version. */
  protected abstract readonly queries: DirQueries

  /**
   * Set by `close()`, which lets go of lancedb's connection and tables instead of closing them. lancedb's `close()`
   * frees the native object at once, while its async methods borrow that object across an await: a call still
   * running (a listing, a schema read of a page the window asked for) then reads freed memory. That crashed test
   * workers with "malloc(): unsorted double linked list corrupted" (tests/core/close-under-calls.test.ts). Let go,
   * they are freed by the garbage collector once no call holds them; a call made after `close()` is refused.
   */
  protected released = false

  constructor(protected readonly db: Connection) {}

  /** Open `id` afresh at its latest version ("not found" when it is missing). */
  protected abstract openTable(id: TableId): Promise<LanceTable>
  /** The latest version of `id` for {@link describeTable}; the subclass may keep the handle for later reads. */
  protected abstract latestTable(id: TableId): Promise<LanceTable>
  /** Drop what is kept for `id` (handles, cached reads): it is about to change. */
  protected abstract forget(id: TableId): void
  protected abstract mapError(error: unknown, context: ErrorContext): AppError
  /** What every lancedb table call takes (on object storage the storage options, or lancedb loses them). */
  protected abstract tableOptions(): { storageOptions?: StorageOptions }
  /** Create `id` in `mode`; `write` makes a table with one lancedb call, `data` is the content it writes. */
  protected abstract createWith(id: TableId, mode: CreateMode | undefined, data: ArrowTable, write: TableWrite, format: DataFormat | undefined): Promise<TableDescription>

  abstract describeNamespace(namespace: NamespacePath, options?: CallOptions): Promise<{ properties: Record<string, string> }>
  abstract listNamespaces(namespace: NamespacePath, options?: ListOptions): Promise<Page<string>>
  abstract listTables(namespace: NamespacePath, options?: ListOptions): Promise<Page<string>>
  abstract dropTable(id: TableId, options?: CallOptions): Promise<void>

  // ---- namespaces -------------------------------------------------------------------------

  async createNamespace(namespace: NamespacePath, options: { mode?: 'create' | 'exist_ok'; properties?: Record<string, string> } & CallOptions = {}): Promise<void> {
    assertNamespacePath(namespace)
    if (namespace.length === 0) {
      if (options.mode === 'exist_ok') return
      throw new AppError('already_exists', 'The root namespace always exists')
    }
    try {
      await this.makeNamespace(namespace, options.properties)
    } catch (error) {
      if (options.mode === 'exist_ok' && error instanceof AppError && error.code === 'already_exists') return
      throw error
    }
  }

  /** lancedb 0.31.0 ignores mode "exist_ok" and fails with "already exists", so {@link createNamespace} handles that mode. */
  protected async makeNamespace(namespace: NamespacePath, properties: Record<string, string> | undefined): Promise<void> {
    await this.call(() => this.db.createNamespace([...namespace], { mode: 'create', properties }), { namespace })
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

  /** One page of the child namespaces (`limit` from {@link listWindow}). */
  protected async namespacePage(namespace: NamespacePath, options: ListOptions, limit: number): Promise<Page<string>> {
    options.signal?.throwIfAborted()
    // Ask for one more than the page: its presence is how we know more follow (no empty last page).
    const response = await this.call(() => this.db.listNamespaces([...namespace], { pageToken: options.pageToken, limit: limit + 1 }), { namespace })
    // lancedb lists a missing namespace as empty; an empty answer is checked, so a missing one is "not found".
    if (response.namespaces.length === 0 && namespace.length > 0 && options.pageToken === undefined) await this.describeNamespace(namespace)
    return pageOf(response.namespaces, limit)
  }

  /** One page of the table names (`limit` from {@link listWindow}). */
  protected async tableNamePage(namespace: NamespacePath, options: ListOptions, limit: number): Promise<Page<string>> {
    options.signal?.throwIfAborted()
    const names = await this.call(() => this.db.tableNames([...namespace], { startAfter: options.pageToken, limit: limit + 1 }), { namespace })
    if (names.length === 0 && namespace.length > 0 && options.pageToken === undefined) await this.describeNamespace(namespace)
    return pageOf(names, limit)
  }

  // ---- tables -----------------------------------------------------------------------------

  async describeTable(id: TableId, options: DescribeOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    if (options.version !== undefined || options.indexes) return this.queries.describe(id, options)
    const table = await this.latestTable(id)
    options.signal?.throwIfAborted()
    return this.call(async () => {
      const [rowCount, version, schema] = await Promise.all([table.countRows(), table.version(), table.schema()])
      return { name: id.name, namespace: [...id.namespace], rowCount, version, schema, fields: schemaFields(schema) }
    }, { table: id })
  }

  async countRows(id: TableId, options: ViewOptions = {}): Promise<number> {
    assertTableId(id)
    return this.queries.count(id, options.view ?? {}, options)
  }

  scan(id: TableId, view: TableViewSpec, options: ScanOptions = {}): AsyncIterable<RecordBatch> {
    assertTableId(id)
    return this.queries.scan(id, view, options)
  }

  scanRowAddresses(id: TableId, version: number, column: string, options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
    assertTableId(id)
    return this.queries.scanRowAddresses(id, version, column, options)
  }

  takeRows(id: TableId, version: number, offsets: number[], columns: string[], options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
    assertTableId(id)
    return this.queries.takeRows(id, version, offsets, columns, options)
  }

  async explainQuery(id: TableId, view: TableViewSpec, options: ExplainOptions = {}): Promise<string> {
    assertTableId(id)
    return this.queries.explain(id, view, options)
  }

  async latestVersion(id: TableId, _options: CallOptions = {}): Promise<number> {
    assertTableId(id)
    return this.queries.latestVersion(id)
  }

  async createTable(id: TableId, data: ArrowTable, options: CreateOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    const format = await this.formatFor(options.dataFormat)
    return this.createWith(id, options.mode, data, (t, mode) => this.db.createTable(t.name, data, [...t.namespace], { mode, ...this.createOptions(format) }), format)
  }

  async createEmptyTable(id: TableId, schema: Schema, options: CreateOptions = {}): Promise<TableDescription> {
    assertTableId(id)
    const format = await this.formatFor(options.dataFormat)
    return this.createWith(id, options.mode, new ArrowTable(schema), (t, mode) => this.db.createEmptyTable(t.name, schema, [...t.namespace], { mode, ...this.createOptions(format) }), format)
  }

  /** The format a new table is written in: the one chosen, else the catalog's default (the subclass says which). */
  protected async formatFor(dataFormat: DataFormat | undefined): Promise<DataFormat | undefined> {
    return dataFormat
  }

  /**
   * What every create takes: the table options, and the data file format when one is chosen. lancedb 0.31 reads
   * `new_table_data_storage_version` from the storage options of `createTable` (its `dataStorageVersion` option
   * is deprecated); absent, Lance writes its default (2.1).
   */
  protected createOptions(dataFormat: DataFormat | undefined): { storageOptions?: Record<string, string> } {
    const base = this.tableOptions().storageOptions
    if (dataFormat === undefined) return base ? { storageOptions: base } : {}
    return { storageOptions: { ...(base ?? {}), new_table_data_storage_version: dataFormat } }
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

  // ---- lifecycle (./lifecycle.ts): each one Lance commit -------------------------------------

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

  async deleteRows(id: TableId, predicate: string, _options: CallOptions = {}): Promise<number> {
    return this.onTable(id, async (t) => (await t.delete(predicate)).version, true)
  }

  // ---- helpers ----------------------------------------------------------------------------

  /** Run work on the latest table (the server's lifecycle routes use it too); `writes` forgets kept handles so later reads see the change. */
  async onTable<T>(id: TableId, work: (table: LanceTable) => Promise<T>, writes = false): Promise<T> {
    assertTableId(id)
    const table = await this.openTable(id)
    try {
      return await this.call(() => work(table), { table: id })
    } finally {
      if (writes) this.forget(id)
    }
  }

  protected async assertVersion(table: LanceTable, id: TableId, version: number): Promise<void> {
    if (!Number.isSafeInteger(version) || version < 1) throw new AppError('invalid_input', 'version must be a whole number ≥ 1')
    const versions = await this.call(() => table.listVersions(), { table: id })
    if (!versions.some((v) => v.version === version)) throw versionNotFound(id, version)
  }

  /** lancedb creates a table in a namespace that does not exist (0.31.0); refuse that first. */
  protected async assertNamespaceExists(namespace: NamespacePath): Promise<void> {
    if (namespace.length > 0) await this.describeNamespace(namespace)
  }

  protected async call<T>(work: () => Promise<T>, context: ErrorContext): Promise<T> {
    if (this.released) throw new AppError('cancelled', 'This connection is closed')
    try {
      return await work()
    } catch (error) {
      throw this.mapError(error, context)
    }
  }
}

/** Check a listing request; answers the page size. */
export function listWindow(namespace: NamespacePath, options: ListOptions): number {
  assertNamespacePath(namespace)
  const limit = options.limit ?? DEFAULT_LIST_LIMIT
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
  if (options.pageToken !== undefined) assertComponent(options.pageToken, 'page token')
  return limit
}

/** Check the row window of a page read. */
export function assertPageWindow({ offset, limit }: ReadPageOptions): void {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError('invalid_input', 'offset must be a whole number ≥ 0')
  if (!Number.isSafeInteger(limit) || limit < 1) throw new AppError('invalid_input', 'limit must be a whole number ≥ 1')
}

/** `items` was fetched with `limit + 1`: the extra item only says that more follow. Tokens are the last name given. */
function pageOf(items: string[], limit: number): Page<string> {
  if (items.length <= limit) return { items }
  const page = items.slice(0, limit)
  return { items: page, pageToken: page[page.length - 1] }
}
