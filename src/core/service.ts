import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  AppError,
  api,
  type AppErrorData,
  fail,
  isMethod,
  ok,
  parseInput,
  type AppInfo,
  type ConnectionInfo,
  type Input,
  type Method,
  type Output,
  type RecentDirectory,
  type Result,
  type EventName,
  type Events,
  objectStoreScheme,
  type StorageOptions,
} from '../contract'
import { storageProperties } from './namespace/objectStore'
import type { NamespaceClient } from './namespace/client'
import { connectNamespace } from './namespace/connect'
import { toAppError } from './errors'
import './namespace/dir'
import './namespace/rest'
import { ImportModule } from './import'
import { ExportModule } from './export'
import { PROFILE_HISTORY, ProfileModule } from './profile'
import { JobRegistry } from './jobs'
import { ConnectionStore, MemoryConnectionRecords } from './connections/store'
import { MemorySecretStore } from './connections/model'
import { RemoteConnectionsModule } from './connections/module'
import { ObjectStoreConnectionsModule } from './connections/objectStoreModule'
import { ObjectStoreConnectionStore, type SavedObjectStore } from './connections/objectStoreStore'
import { CatalogModule } from './catalog/module'
import { QueryModule } from './query/module'
import { LifecycleModule } from './lifecycle/module'
import { createCatalogHere } from './namespace/dir/createCatalog'
import { defaultReadOnly, isReadOnlyStore, MemoryReadOnlyStore, readOnlyError, readOnlyKey, WRITE_METHODS, type ReadOnlyStore } from './lifecycle/readOnly'

/** Where recent directories live: a JSON file in Electron's userData, memory in tests. */
export interface RecentsStore {
  list(): Promise<RecentDirectory[]>
  add(path: string): Promise<void>
}

export class MemoryRecentsStore implements RecentsStore {
  private entries: RecentDirectory[] = []
  async list(): Promise<RecentDirectory[]> {
    return [...this.entries]
  }
  async add(path: string): Promise<void> {
    this.entries = [{ path, openedAt: Date.now() }, ...this.entries.filter((e) => e.path !== path)].slice(0, 10)
  }
}

export interface ServiceOptions {
  host: AppInfo['host']
  version: string
  recents: RecentsStore
  /** Native folder picker (Electron only). */
  pickDirectory?: () => Promise<string | null>
  /** Native file picker for import (Electron only); resolves with the chosen paths, `[]` when cancelled. */
  pickFiles?: (filters?: { name: string; extensions: string[] }[]) => Promise<string[]>
  /** Native save dialog for export (Electron only); resolves with the chosen path, null when cancelled. */
  saveFile?: (options: { defaultName?: string; filters?: { name: string; extensions: string[] }[] }) => Promise<string | null>
  /** Saved REST connections; memory-only when absent (the harness). Main passes one backed by safeStorage. */
  connections?: ConnectionStore
  /** Saved object-store catalogs; memory-only when absent (the harness). Main shares the REST store's SecretStore. */
  objectStoreConnections?: ObjectStoreConnectionStore
  /** Where the Read-only switch is remembered; defaults to `recents` when it can (the settings file), else memory. */
  readOnly?: ReadOnlyStore
  /** Push an event to the renderer (job changes: `jobs/progress`). */
  emit?: <E extends EventName>(name: E, payload: Events[E]) => void
}

interface OpenConnection {
  info: ConnectionInfo
  client: NamespaceClient
}

export type Handlers = { [M in Method]: (input: Input<M>) => Promise<Output<M>> }

/**
 * The use-cases the contract exposes, written once. Main (IPC) and the harness (HTTP) are thin
 * adapters over {@link CatalogService.dispatch}: they pass the raw input, it parses and answers a Result.
 */
export class CatalogService {
  private readonly connections = new Map<string, OpenConnection>()
  private readonly inFlight = new Map<string, AbortController>()
  /** Every job of the session, of every kind (`jobs/list`, `jobs/cancel`, the `jobs/progress` event). */
  readonly jobs = new JobRegistry({ emit: (job) => this.options.emit?.('jobs/progress', job), history: { profile: PROFILE_HISTORY } })
  /** Import jobs and staged uploads (the harness calls `imports.stageUpload` for HTTP bodies). */
  readonly imports = new ImportModule({
    client: (connectionId) => this.client(connectionId),
    jobs: this.jobs,
  })
  /** Browsing and plain writes of namespaces and tables (src/core/catalog). */
  readonly catalog = new CatalogModule({ client: (id) => this.client(id), cancellable: (requestId, work) => this.cancellable(requestId, work) })
  /** Table views: counts, query plans, latest versions (src/core/query). */
  readonly queries = new QueryModule({ client: (id) => this.client(id), cancellable: (requestId, work) => this.cancellable(requestId, work) })
  /** Export jobs (files in Electron, downloads in the harness). */
  readonly exports = new ExportModule({
    client: (connectionId) => this.client(connectionId),
    jobs: this.jobs,
  })
  /** Column profiles (the Summary), kept per table version. */
  readonly profiles = new ProfileModule({
    client: (connectionId) => this.client(connectionId),
    jobs: this.jobs,
  })
  /** Saved REST connections, opening them, testing them, their capability maps. */
  readonly remote: RemoteConnectionsModule
  /** Saved object-store catalogs (s3://, gs://, az://, file://), opened as directory catalogs. */
  readonly objectStores: ObjectStoreConnectionsModule
  /** Versions, tags, indexes, stats and maintenance, schema changes. */
  readonly lifecycle = new LifecycleModule({
    client: (connectionId) => this.client(connectionId),
    cancellable: (requestId, work) => this.cancellable(requestId, work),
    jobs: this.jobs,
  })
  private initialConnection: ConnectionInfo | null = null
  /** Settles when the connection shown at start is open (or failed); app/info waits for it. */
  private initialPending: Promise<unknown> = Promise.resolve()
  private initialError: AppErrorData | undefined
  /** The catalog opened at start and its storage options (an empty start root may become a catalog with them). */
  private initialTarget: { path: string; storageOptions?: StorageOptions } | undefined
  private nextId = 1
  private readonly readOnlyStore: ReadOnlyStore

  readonly handlers: Handlers

  constructor(private readonly options: ServiceOptions) {
    this.remote = new RemoteConnectionsModule(options.connections ?? new ConnectionStore(new MemoryConnectionRecords(), new MemorySecretStore()), {
      addConnection: (kind, label, location, client, savedId) => this.addConnection(kind, label, location, client, savedId),
      client: (id) => this.client(id),
      openConnections: () => [...this.connections.values()].map((c) => c.info),
      cancellable: (requestId, work) => this.cancellable(requestId, work),
    })
    this.objectStores = new ObjectStoreConnectionsModule(
      options.objectStoreConnections ?? new ObjectStoreConnectionStore(new MemoryConnectionRecords<SavedObjectStore>(), new MemorySecretStore()),
      {
        addConnection: (kind, label, location, client, savedId) => this.addConnection(kind, label, location, client, savedId),
        openConnections: () => [...this.connections.values()].map((c) => c.info),
        readOnly: (savedId, location) => this.readOnlyBeforeOpen({ id: '', kind: 'dir', label: '', location, savedId }),
      },
    )
    this.readOnlyStore = options.readOnly ?? (isReadOnlyStore(options.recents) ? options.recents : new MemoryReadOnlyStore())
    this.handlers = this.buildHandlers()
  }

  /** Apply the remembered Read-only switch (or its default) to a newly opened connection. */
  private async withReadOnly(info: ConnectionInfo): Promise<ConnectionInfo> {
    const open = this.connections.get(info.id)
    if (!open) return info
    if (open.info.readOnly === undefined) {
      const stored = await this.readOnlyStore.readOnlyOf(readOnlyKey(open.info)).catch(() => undefined)
      open.info.readOnly = stored ?? defaultReadOnly(open.info)
    }
    return open.info
  }

  /** Refuse a write on a read-only connection before it reaches the catalog. */
  private guardWrite(method: Method, input: unknown): void {
    if (!WRITE_METHODS.has(method)) return
    const id = (input as { connectionId?: unknown }).connectionId
    const open = typeof id === 'string' ? this.connections.get(id) : undefined
    if (open?.info.readOnly) throw readOnlyError(open.info.label)
  }

  /** Parse, run, and wrap in a Result. Never throws. */
  async dispatch(method: unknown, rawInput: unknown): Promise<Result<unknown>> {
    if (!isMethod(method)) return fail({ code: 'invalid_input', message: `Unknown method ${JSON.stringify(method)}` })
    try {
      const input = parseInput(api[method].input, rawInput ?? {}, `input of ${method}`)
      this.guardWrite(method, input)
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
    this.initialTarget = { path, storageOptions }
    const opening = (async () => {
      await prepare?.()
      this.initialConnection = await this.withReadOnly(await this.openDirectory(path, { remember: false, storageOptions }))
      return this.initialConnection
    })()
    this.initialPending = opening.catch((error: unknown) => {
      this.initialError = toAppError(error).toData()
    })
    return opening
  }

  /** The Read-only switch a connection will have, known before it is opened (opening it read-only writes nothing). */
  private async readOnlyBeforeOpen(draft: ConnectionInfo): Promise<boolean> {
    return (await this.readOnlyStore.readOnlyOf(readOnlyKey(draft)).catch(() => undefined)) ?? defaultReadOnly(draft)
  }

  /** Register an already-built client (e.g. a REST connection) as a root of the tree. */
  addConnection(kind: ConnectionInfo['kind'], label: string, location: string, client: NamespaceClient, savedId?: string): ConnectionInfo {
    const info: ConnectionInfo = { id: `c${this.nextId++}`, kind, label, location, ...(savedId ? { savedId } : {}) }
    // Opened read-only over what a crashed writer left: reported until `connections/recover`.
    const pending = (client as { pendingRecovery?: string[] }).pendingRecovery
    if (pending?.length) info.pendingRecovery = pending
    this.connections.set(info.id, { info, client })
    return info
  }

  client(connectionId: string): NamespaceClient {
    const open = this.connections.get(connectionId)
    if (!open) throw new AppError('not_found', 'This connection is closed', { hint: 'Open it again from the start screen' })
    return open.client
  }

  async closeAll(): Promise<void> {
    await this.imports.close()
    await this.exports.close()
    await this.profiles.close()
    await this.lifecycle.indexJobs.close()
    for (const controller of this.inFlight.values()) controller.abort()
    await Promise.allSettled([...this.connections.values()].map((c) => c.client.close()))
    this.connections.clear()
  }

  private async openDirectory(path: string, { remember, storageOptions, create = false }: { remember: boolean; storageOptions?: StorageOptions; create?: boolean }): Promise<ConnectionInfo> {
    // An object-store URI (az://, s3://, gs://) is opened as given, with its storage options; file:// is its path.
    const scheme = objectStoreScheme(path)
    const root = scheme && scheme !== 'file' ? path.replace(/\/+$/, '') : resolve(scheme === 'file' ? fileURLToPath(path) : path)
    const existing = [...this.connections.values()].find((c) => c.info.kind === 'dir' && c.info.location === root)
    if (existing && !create) return existing.info
    // Read-only means no writes, recovery after a crash included: such a catalog is opened without it, and what a
    // crashed writer left is reported (`pendingRecovery`) until the user asks for `connections/recover`.
    const readOnly = await this.readOnlyBeforeOpen({ id: '', kind: 'dir', label: '', location: root })
    // "Create a catalog here" writes `__manifest` into an empty directory only (createCatalogHere refuses the rest).
    const client = create
      ? await createCatalogHere(root, { storageOptions })
      : await connectNamespace('dir', { root, ...storageProperties(storageOptions ?? {}), ...(readOnly ? { recover: 'false' } : {}) })
    const info = this.addConnection('dir', basename(root) || root, root, client)
    info.readOnly = readOnly
    // What opening recovered, and what the catalog cannot show (an object-store root listed without its manifest).
    const opened = client as { recovered?: string[]; notes?: string[] }
    this.imports.noteRecovery(info.id, basename(root) || root, [...(opened.recovered ?? []), ...(opened.notes ?? [])])
    if (remember) await this.options.recents.add(root)
    return info
  }

  /** Run `work` with an AbortSignal that `requests/cancel` can trigger. */
  async cancellable<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    if (requestId) this.inFlight.set(requestId, controller)
    try {
      const result = await work(controller.signal)
      if (controller.signal.aborted) throw new AppError('cancelled', 'The request was cancelled')
      return result
    } finally {
      if (requestId) this.inFlight.delete(requestId)
    }
  }

  private buildHandlers(): Handlers {
    // Which part answers what: each method has exactly one (checked at start, so no part hides another's).
    return joinHandlers(
      this.catalog.handlers,
      this.queries.handlers,
      this.lifecycle.handlers,
      this.imports.handlers,
      this.exports.handlers,
      this.profiles.handlers,
      this.jobs.handlers,
      this.openingWithReadOnly(this.remote.handlers),
      this.openingWithReadOnly(this.objectStores.handlers),
      this.ownHandlers(),
    )
  }

  /**
   * The connection methods of the host itself: the app, the list of open connections, opening a directory, the
   * Read-only switch, recovery, closing, dialogs, and cancelling a request.
   */
  private ownHandlers() {
    return {
      'app/info': async () => {
        await this.initialPending
        return {
          version: this.options.version,
          host: this.options.host,
          initialConnection: this.initialConnection,
          ...(this.initialError ? { initialError: this.initialError } : {}),
          canPickDirectory: this.options.pickDirectory !== undefined,
        }
      },
      // Like app/info, wait for the catalog opened at start: asked together at boot (the renderer does), an earlier
      // answer would leave it out of the list while app/info names it.
      'connections/list': async () => {
        await this.initialPending
        return Promise.all([...this.connections.values()].map((c) => this.withReadOnly(c.info)))
      },
      'connections/openDirectory': async ({ path }) => this.withReadOnly(await this.openDirectory(path, { remember: true })),
      'connections/createCatalog': async ({ path }) =>
        this.withReadOnly(await this.openDirectory(path, { remember: true, create: true, storageOptions: path === this.initialTarget?.path ? this.initialTarget.storageOptions : undefined })),
      'connections/setReadOnly': async ({ connectionId, readOnly }) => {
        this.client(connectionId) // a closed connection is "not found"
        const open = this.connections.get(connectionId)!
        open.info.readOnly = readOnly
        await this.readOnlyStore.setReadOnly(readOnlyKey(open.info), readOnly)
        return open.info
      },
      'connections/recover': async ({ connectionId }) => {
        this.client(connectionId) // a closed connection is "not found"
        const open = this.connections.get(connectionId)!
        const client = open.client as { recover?: () => Promise<string[]> }
        if (open.info.pendingRecovery && client.recover) {
          this.imports.noteRecovery(open.info.id, open.info.label, await client.recover())
        }
        delete open.info.pendingRecovery
        return open.info
      },
      'connections/close': async ({ connectionId }) => {
        const open = this.connections.get(connectionId)
        this.connections.delete(connectionId)
        if (this.initialConnection?.id === connectionId) this.initialConnection = null
        await open?.client.close()
        return null
      },
      'connections/recent': async () => this.options.recents.list(),
      'dialogs/pickDirectory': async () => {
        if (!this.options.pickDirectory) throw new AppError('unsupported', 'No folder dialog here; type or paste the path instead')
        return { path: await this.options.pickDirectory() }
      },
      'dialogs/pickFiles': async ({ filters }) => {
        if (!this.options.pickFiles) throw new AppError('unsupported', 'No file dialog here; drop the files on the window instead')
        return { paths: await this.options.pickFiles(filters) }
      },
      'dialogs/saveFile': async ({ defaultName, filters }) => {
        if (!this.options.saveFile) throw new AppError('unsupported', 'No save dialog here; the browser downloads the file instead')
        return { path: await this.options.saveFile({ defaultName, filters }) }
      },
      'requests/cancel': async ({ requestId }) => {
        this.inFlight.get(requestId)?.abort()
        return null
      },
    } satisfies Partial<Handlers>
  }

  /** Answers that open a connection carry its Read-only switch (remembered, or its default). */
  private openingWithReadOnly<H extends Partial<Handlers>>(handlers: H): H {
    const out: Record<string, (input: never) => Promise<unknown>> = { ...handlers }
    for (const method of OPENING) {
      const open = out[method]
      if (open) out[method] = async (input) => this.withReadOnly((await open(input)) as ConnectionInfo)
    }
    for (const method of CONNECTING) {
      const connect = out[method]
      if (!connect) continue
      out[method] = async (input) => {
        const result = (await connect(input)) as { connection: ConnectionInfo }
        return { ...result, connection: await this.withReadOnly(result.connection) }
      }
    }
    return out as H
  }
}

/** Methods that answer the connection they opened, and those that answer it inside `{ connection }`. */
const OPENING = ['connections/saved/open', 'connections/objectStore/open'] as const satisfies readonly Method[]
const CONNECTING = ['connections/saved/connect', 'connections/objectStore/connect'] as const satisfies readonly Method[]

type AllOf<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never

/**
 * The parts' handlers as one map, each method answered by exactly one part: a second answer would silently win or
 * lose by the order of the parts, so it stops the service at start. The type says every method is answered.
 */
function joinHandlers<P extends object[]>(...parts: P): AllOf<P[number]> {
  const joined: Record<string, unknown> = {}
  for (const part of parts) {
    for (const [method, handler] of Object.entries(part)) {
      if (method in joined) throw new Error(`Two parts of the service answer ${method}`)
      joined[method] = handler
    }
  }
  return joined as AllOf<P[number]>
}
