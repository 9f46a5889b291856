import { createReadStream } from 'node:fs'
import { rm, stat } from 'node:fs/promises'
import { AppError, type Input, type Output, type SqlNames } from '../../contract'
import type { Handlers } from '../handlers'
import type { ImportModule } from '../import'
import type { NamespaceClient } from '../namespace/client'
import { formatNamespace } from '../namespace/path'
import { describeOrNull } from '../import/write'
import { SqlEngine, type OtherCatalogs, type SqlCatalog } from './engine'
import { MemorySqlHistoryStore, withEntry, type SqlHistoryStore } from './history'
import { sqlLimitsFromEnv, type SqlEngineLimits } from './instance'
import { catalogNames } from './names'
import { ResultTables } from './resultTables'

type SqlMethod = Extract<keyof Handlers, `sql/${string}`>

export interface SqlModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** Where a connection's catalog lives: its history is kept under it (connection ids change between runs). */
  location: (connectionId: string) => string | undefined
  /** What the tree shows for a connection's root: how a statement names another open catalog. */
  label?: (connectionId: string) => string | undefined
  /** Save as table writes through the import path (a job with progress and cancel, crash-safe). */
  imports: ImportModule
  cancellable: <T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>
  history?: SqlHistoryStore
  limits?: Partial<SqlEngineLimits>
}

/**
 * SQL over a catalog (`sql/*`): DuckDB in this process reads the catalog's tables by name through our own scans
 * (src/core/sql/engine.ts), kept queries are paged from its streaming result, and the query history is kept in the
 * settings per catalog.
 */
export class SqlModule {
  private readonly history: SqlHistoryStore
  readonly engine: SqlEngine
  /** Finished results opened as read-only tables (Summary, Map, Export… of a result), under `SQL_RESULTS_CONNECTION`. */
  readonly results: ResultTables
  private saved = 0

  constructor(private readonly deps: SqlModuleDeps) {
    this.history = deps.history ?? new MemorySqlHistoryStore()
    this.engine = new SqlEngine({ ...sqlLimitsFromEnv(), ...deps.limits })
    this.results = new ResultTables(this.engine)
  }

  private catalogOf(connectionId: string): string {
    const location = this.deps.location(connectionId)
    if (location === undefined) throw new AppError('not_found', `No open connection ${connectionId}`)
    return location
  }

  /** The other open catalogs a statement run on `connectionId` may name, by label (null: two share one). */
  private others(connectionId: string, ids: readonly string[] = []): OtherCatalogs {
    const others = new Map<string, SqlCatalog | null>()
    for (const id of new Set(ids)) {
      if (id === connectionId) continue
      const label = this.deps.label?.(id) ?? id
      others.set(label, others.has(label) ? null : { client: this.deps.client(id), catalog: this.catalogOf(id) })
    }
    return others
  }

  async saveAsTable(input: Input<'sql/saveAsTable'>): Promise<Output<'sql/saveAsTable'>> {
    const sql = input.sql ?? this.engine.sqlOf(input.queryId!)
    const client = this.deps.client(input.connectionId)
    // A name that is taken is said before the query runs (the import checks again when its job starts).
    if (input.mode === 'create' && (await describeOrNull(client, { namespace: input.namespace, name: input.name }))) {
      throw new AppError('already_exists', `A table named "${input.name}" already exists in ${formatNamespace(input.namespace)}`, {
        hint: 'Choose another name, or save in overwrite or append mode',
      })
    }
    const path = await this.engine.toParquet(client, this.catalogOf(input.connectionId), sql, `save-${++this.saved}.parquet`, this.others(input.connectionId, input.catalogs))
    try {
      const { size } = await stat(path)
      // Staged as an upload: the import job deletes its copy when it ends, whatever the end.
      const staged = await this.deps.imports.stageUpload(createReadStream(path), { fileName: `${input.name}.parquet`, size })
      return await this.deps.imports.start({ connectionId: input.connectionId, namespace: input.namespace, name: input.name, mode: input.mode, dataFormat: input.dataFormat, source: { uploadId: staged.uploadId } })
    } finally {
      await rm(path, { force: true })
    }
  }

  async names(connectionId: string): Promise<SqlNames> {
    // A query view asks for the names when it opens: DuckDB starts meanwhile (~0.2–0.4 s the first time in a
    // process), not when the first statement runs.
    this.engine.warm()
    return catalogNames(this.deps.client(connectionId))
  }

  async closeAll(): Promise<void> {
    await this.engine.closeAll()
    await this.results.closeAll()
  }

  get handlers(): Pick<Handlers, SqlMethod> {
    return {
      'sql/run': ({ connectionId, sql, requestId, catalogs }) =>
        this.deps.cancellable(requestId, (signal) => this.engine.run(this.deps.client(connectionId), this.catalogOf(connectionId), connectionId, sql, signal, this.others(connectionId, catalogs))),
      'sql/page': async ({ queryId, offset, limit }) => this.engine.page(queryId, offset, limit),
      'sql/status': async ({ queryId }) => this.engine.status(queryId),
      'sql/cancel': async ({ queryId }) => this.engine.cancel(queryId),
      'sql/close': async ({ queryId }) => {
        this.engine.close(queryId)
        await this.results.drop(queryId)
        return null
      },
      'sql/explain': ({ connectionId, sql, catalogs }) => this.engine.explain(this.deps.client(connectionId), this.catalogOf(connectionId), sql, this.others(connectionId, catalogs)),
      'sql/names': ({ connectionId }) => this.names(connectionId),
      'sql/history/list': async ({ connectionId }) => this.history.sqlHistoryOf(this.catalogOf(connectionId)),
      'sql/history/add': async ({ connectionId, entry }) => {
        const key = this.catalogOf(connectionId)
        await this.history.setSqlHistory(key, withEntry(await this.history.sqlHistoryOf(key), entry))
        return null
      },
      'sql/history/clear': async ({ connectionId }) => {
        await this.history.setSqlHistory(this.catalogOf(connectionId), [])
        return null
      },
      'sql/saveAsTable': (input) => this.saveAsTable(input),
      'sql/resultTable': ({ queryId, requestId }) => this.deps.cancellable(requestId, (signal) => this.results.table(queryId, signal)),
    }
  }
}
