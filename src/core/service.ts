import { api, AppError, fail, isMethod, ok, parseInput, SQL_RESULTS_CONNECTION, type ConnectionInfo, type EventName, type Events, type JobInfo, type Method, type Result, type StorageOptions } from '../contract'
import type { NamespaceClient } from './namespace/client'
import { toAppError } from './errors'
import './namespace/dir'
import './namespace/rest'
import { ImportModule, type ReaderOptions } from './import'
import { ExportModule } from './export'
import { MAP_HISTORY, MapModule } from './map'
import { PROFILE_HISTORY, ProfileModule } from './profile'
import { DIFF_HISTORY, DiffModule } from './diff'
import { RowSetModule } from './rowset'
import { isSqlHistoryStore, SqlModule } from './sql'
import { JobRegistry, jobLimitsFromEnv, type JobBudgetOptions } from './jobs'
import { ConnectionStore, MemoryConnectionRecords } from './connections/store'
import { MemorySecretStore } from './connections/model'
import { capabilityHandlers, RestConnectionKind } from './connections/module'
import { ObjectStoreConnectionKind } from './connections/objectStoreModule'
import { SavedConnectionsModule } from './connections/saved'
import { ObjectStoreConnectionStore, type SavedObjectStore } from './connections/objectStoreStore'
import { OpenConnections, type OpenedCatalog, type RecentsStore } from './connections/openConnections'
import { isReadOnlyStore, MemoryReadOnlyStore, readOnlyKey, type ReadOnlyStore } from './connections/readOnly'
import { isTabsStore, MemoryTabsStore, tabsHandlers, type TabsStore } from './connections/tabsStore'
import { CatalogModule } from './catalog/module'
import { QueryModule } from './query/module'
import { LifecycleModule } from './lifecycle/module'
import { CancellableRequests } from './requests'
import { hostHandlers, type HostOptions } from './host'
import { joinHandlers, type Handlers } from './handlers'
import { MemorySideCache, type SideCache } from './sideCache'
import { sweepTempFoldersAtStart } from './tempFolders'

export { MemoryRecentsStore, type OpenedCatalog, type RecentsStore } from './connections/openConnections'
export type { Handlers } from './handlers'

export interface ServiceOptions extends HostOptions {
  recents: RecentsStore
  /** Saved REST connections; memory-only when absent (the harness). Main passes one backed by safeStorage. */
  connections?: ConnectionStore
  /** Saved object-store catalogs; memory-only when absent (the harness). Main shares the REST store's SecretStore. */
  objectStoreConnections?: ObjectStoreConnectionStore
  /** Where the Read-only switch is remembered; defaults to `recents` when it can (the settings file), else memory. */
  readOnly?: ReadOnlyStore
  /** Where the workbench's tabs are remembered per catalog; defaults to `recents` when it can (the settings file), else memory. */
  tabs?: TabsStore
  /** Where results about a table version are kept (profiles, map coordinates); this process only when absent. */
  sideCache?: SideCache
  /**
   * How dropped files are read: each in a reader process of its own, with a memory ceiling and a time budget
   * (src/core/import/reader). `entry` is the reader's built script; defaults read the environment (LCB_IMPORT_READER_*).
   */
  readers?: ReaderOptions
  /** Push an event to the renderer (job changes: `jobs/progress`). */
  emit?: <E extends EventName>(name: E, payload: Events[E]) => void
  /** The open catalogs changed (the desktop's host process tells main, which reopens them after a restart). */
  onCatalogsChanged?: (open: OpenedCatalog[]) => void
  /** Jobs at once and the memory budget (src/core/jobs/budget.ts); default: its defaults, then `LCB_JOB_MEMORY_MB` / `LCB_JOBS_AT_ONCE`. */
  jobBudget?: JobBudgetOptions
}

/**
 * The use-cases the contract exposes, written once, as wiring: each part of core answers its own methods and
 * this joins them (each method answered by exactly one part). Main (IPC) and the harness (HTTP) are thin
 * adapters over {@link CatalogService.dispatch}: they pass the raw input, it parses and answers a Result.
 */
export class CatalogService {
  /** Requests `requests/cancel` can stop. */
  private readonly requests = new CancellableRequests()
  /** Every job of the session, of every kind (`jobs/list`, `jobs/cancel`, the `jobs/progress` event). */
  readonly jobs: JobRegistry
  /** The catalogs open in this window, with their Read-only switch. */
  private readonly open: OpenConnections
  /** Import jobs and staged uploads (the harness calls `imports.stageUpload` for HTTP bodies). */
  readonly imports: ImportModule
  /** Browsing and plain writes of namespaces and tables (src/core/catalog). */
  readonly catalog: CatalogModule
  /** Table views: counts, query plans, latest versions (src/core/query). */
  readonly queries: QueryModule
  /** Export jobs (files in Electron, downloads in the harness). */
  readonly exports: ExportModule
  /** Column profiles (the Summary), kept per table version. */
  readonly profiles: ProfileModule
  /** Version comparisons (Compare… → Show changes). */
  readonly diffs: DiffModule
  /** Embedding maps of vector columns, kept per table version in the side cache. */
  readonly maps: MapModule
  /** Rows chosen by offset (the map's lasso), named by views (`view.rowSet`). */
  readonly rowSets: RowSetModule
  /** Versions, tags, indexes, stats and maintenance, schema changes. */
  readonly lifecycle: LifecycleModule
  /** SQL over a catalog (DuckDB reading our scans) and each catalog's query history. */
  readonly sql: SqlModule
  /** Saved connections of both kinds (REST servers; object-store catalogs opened as directory catalogs): saving, opening, testing. */
  readonly saved: SavedConnectionsModule

  readonly handlers: Handlers
  /** Results kept per table version beside the settings (src/core/sideCache.ts). */
  readonly sideCache: SideCache

  constructor(private readonly options: ServiceOptions) {
    this.jobs = new JobRegistry({
      emit: (job) => this.options.emit?.('jobs/progress', job),
      history: { profile: PROFILE_HISTORY, diff: DIFF_HISTORY, map: MAP_HISTORY },
      budget: { ...jobLimitsFromEnv(), ...options.jobBudget },
    })
    this.sideCache = options.sideCache ?? new MemorySideCache()
    // Manifest links and download folders left by a killed run (their names say whose they are).
    void sweepTempFoldersAtStart()
    const readOnly = options.readOnly ?? (isReadOnlyStore(options.recents) ? options.recents : new MemoryReadOnlyStore())
    this.open = new OpenConnections({
      recents: options.recents,
      readOnly,
      noteRecovery: (id, label, lines) => this.imports.noteRecovery(id, label, lines),
      onChange: options.onCatalogsChanged,
    })
    // Query results opened as tables (sql/resultTable) answer under their own connection id: the panels read them as tables.
    const client = (connectionId: string) => (connectionId === SQL_RESULTS_CONNECTION ? this.sql.results.client() : this.open.client(connectionId))
    const cancellable = <T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => this.requests.run(requestId, work)
    const addConnection = (kind: ConnectionInfo['kind'], label: string, location: string, built: NamespaceClient, savedId?: string) =>
      this.open.add(kind, label, location, built, savedId)
    const openConnections = () => this.open.infos()

    this.rowSets = new RowSetModule({ client })
    // The parts that read views get a client that resolves a view's row set first.
    const viewClient = (connectionId: string) => this.rowSets.readerOf(connectionId, client(connectionId))
    this.imports = new ImportModule({ client, jobs: this.jobs, readers: options.readers })
    this.catalog = new CatalogModule({ client: viewClient, cancellable })
    this.queries = new QueryModule({ client: viewClient, cancellable })
    this.exports = new ExportModule({ client: viewClient, jobs: this.jobs })
    // Where a connection's catalog lives: results kept beside the settings are keyed by it (not by the session's id).
    const location = (connectionId: string) => this.open.infos().find((c) => c.id === connectionId)?.location
    this.profiles = new ProfileModule({ client: viewClient, jobs: this.jobs, sideCache: this.sideCache, location })
    this.diffs = new DiffModule({ client, jobs: this.jobs })
    this.maps = new MapModule({ client, location, jobs: this.jobs, sideCache: this.sideCache })
    this.lifecycle = new LifecycleModule({ client, cancellable, jobs: this.jobs })
    const label = (connectionId: string) => this.open.infos().find((c) => c.id === connectionId)?.label
    this.sql = new SqlModule({ client, location, label, imports: this.imports, cancellable, history: isSqlHistoryStore(options.recents) ? options.recents : undefined })
    this.saved = new SavedConnectionsModule(
      {
        rest: new RestConnectionKind(options.connections ?? new ConnectionStore(new MemoryConnectionRecords(), new MemorySecretStore()), cancellable),
        'object-store': new ObjectStoreConnectionKind(
          options.objectStoreConnections ?? new ObjectStoreConnectionStore(new MemoryConnectionRecords<SavedObjectStore>(), new MemorySecretStore()),
          (savedId, location) => this.open.readOnlyBeforeOpen({ id: '', kind: 'dir', label: '', location, savedId }),
        ),
      },
      { addConnection, openConnections },
    )
    // Which part answers what: each method has exactly one (checked here, so no part hides another's).
    this.handlers = joinHandlers(
      hostHandlers(options, () => this.open.initial()),
      this.open.handlers,
      this.open.withReadOnlyAnswers(this.saved.handlers),
      capabilityHandlers(client),
      this.catalog.handlers,
      this.queries.handlers,
      this.lifecycle.handlers,
      this.imports.handlers,
      this.exports.handlers,
      this.profiles.handlers,
      this.diffs.handlers,
      this.maps.handlers,
      this.rowSets.handlers,
      tabsHandlers(options.tabs ?? (isTabsStore(options.recents) ? options.recents : new MemoryTabsStore()), (connectionId) => {
        const info = this.open.infos().find((c) => c.id === connectionId)
        if (!info) throw new AppError('not_found', 'This connection is closed', { hint: 'Open it again from the start screen' })
        return readOnlyKey(info)
      }),
      this.sql.handlers,
      this.jobs.handlers,
      this.requests.handlers,
    )
  }

  /** Parse, run, and wrap in a Result. Never throws. */
  async dispatch(method: unknown, rawInput: unknown): Promise<Result<unknown>> {
    if (!isMethod(method)) return fail({ code: 'invalid_input', message: `Unknown method ${JSON.stringify(method)}` })
    try {
      const input = parseInput(api[method].input, rawInput ?? {}, `input of ${method}`)
      this.open.guardWrite(method, input)
      this.sql.results.guardWrite(method, input)
      const handler = this.handlers[method] as (input: unknown) => Promise<unknown>
      return ok(await handler(input))
    } catch (error) {
      return fail(toAppError(error).toData())
    }
  }

  /**
   * Open a directory catalog and make it the connection shown at start. `prepare` runs first
   * (e.g. creating the demo catalog on first run); a failure is kept and reported by app/info.
   */
  openInitial(path: string, prepare?: () => Promise<unknown>, storageOptions?: StorageOptions): Promise<ConnectionInfo> {
    return this.open.openInitial(path, prepare, storageOptions)
  }

  /**
   * After the host restarted (desktop): open again the catalogs that were open, under their old ids, in the order
   * they were opened — the one opened at start through `openInitial`'s path — and keep the records of the jobs the
   * stopped host was running. A catalog that no longer opens is left closed, and the jobs history says why.
   */
  async reopen(catalogs: readonly OpenedCatalog[], lostJobs: readonly JobInfo[] = []): Promise<void> {
    this.jobs.adopt(lostJobs)
    this.open.keepIds(catalogs)
    for (const catalog of catalogs) {
      const [method, input] = reopening(catalog)
      const result = await (catalog.initial ? this.openInitial(catalog.location).then(ok, (error: unknown) => fail(toAppError(error).toData())) : this.dispatch(method, input))
      if (!result.ok) this.imports.jobs.note(catalog.id, catalog.location, `Not opened again after the catalog host restarted: ${result.error.message}`)
    }
  }

  client(connectionId: string): NamespaceClient {
    return this.open.client(connectionId)
  }

  async closeAll(): Promise<void> {
    await this.imports.close()
    await this.exports.close()
    await this.profiles.close()
    await this.diffs.close()
    await this.maps.close()
    await this.lifecycle.indexJobs.close()
    await this.sql.closeAll()
    this.requests.abortAll()
    await this.open.closeAll()
  }
}
export { FileSideCache, MemorySideCache, type SideCache } from './sideCache'

/** The method that opens `catalog` again: a saved REST server or bucket by its saved id, a directory by its path. */
function reopening(catalog: OpenedCatalog): [Method, unknown] {
  if (catalog.savedId) return ['connections/saved/open', { kind: catalog.kind === 'rest' ? 'rest' : 'object-store', id: catalog.savedId }]
  return ['connections/openDirectory', { path: catalog.location }]
}
