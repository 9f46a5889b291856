import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppError, objectStoreScheme, type AppErrorData, type ConnectionInfo, type Method, type RecentDirectory, type StorageOptions } from '../../contract'
import { toAppError } from '../errors'
import type { Handlers } from '../handlers'
import type { NamespaceClient } from '../namespace/client'
import { connectNamespace } from '../namespace/connect'
import { createCatalogHere } from '../namespace/dir/createCatalog'
import { storageProperties } from '../namespace/objectStore'
import { defaultReadOnly, readOnlyError, readOnlyKey, CATALOG_WRITES, type ReadOnlyStore } from './readOnly'

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

export interface OpenConnectionsDeps {
  recents: RecentsStore
  readOnly: ReadOnlyStore
  /** What opening (or recovering) a catalog did after a crash, for the jobs history. */
  noteRecovery(connectionId: string, label: string, lines: string[]): void
  /** The set of open catalogs changed (one opened or closed): the desktop host tells main, which keeps it for a restart. */
  onChange?: (open: OpenedCatalog[]) => void
}

/**
 * An open catalog as a restarted host needs it to open the same catalog again under the same id: a directory or
 * bucket by its location, a saved connection by its saved id (its secrets stay in the saved connection's store).
 */
export interface OpenedCatalog {
  id: string
  kind: ConnectionInfo['kind']
  location: string
  savedId?: string
  /** The catalog opened at start (the demo catalog in the app). */
  initial?: boolean
}

const catalogKey = (c: Pick<OpenedCatalog, 'kind' | 'location' | 'savedId'>) => `${c.kind}\n${c.location}\n${c.savedId ?? ''}`

interface OpenConnection {
  info: ConnectionInfo
  client: NamespaceClient
}

/** What the window starts on: the catalog opened at start (the demo catalog in the app), or why it did not open. */
export interface InitialCatalog {
  connection: ConnectionInfo | null
  error?: AppErrorData
}

/**
 * The catalogs open in this window — the roots of the tree — with their Read-only switch: opening a directory or
 * a bucket, the one opened at start, recovery on request, closing, and refusing writes to a read-only one.
 */
export class OpenConnections {
  private readonly open = new Map<string, OpenConnection>()
  private nextId = 1
  private initialConnection: ConnectionInfo | null = null
  /** Settles when the connection shown at start is open (or failed); app/info and connections/list wait for it. */
  private initialPending: Promise<unknown> = Promise.resolve()
  private initialError: AppErrorData | undefined
  /** The catalog opened at start and its storage options (an empty start root may become a catalog with them). */
  private initialTarget: { path: string; storageOptions?: StorageOptions } | undefined
  /** Ids the catalogs open before a host restart had (see {@link keepIds}), by {@link catalogKey}. */
  private readonly keptIds = new Map<string, string>()

  constructor(private readonly deps: OpenConnectionsDeps) {}

  /**
   * After a restart of the host, the catalogs that were open get their old ids back when they are opened again, so
   * the window's selection, open views and jobs still name them; new catalogs get ids after the highest kept one.
   */
  keepIds(catalogs: readonly OpenedCatalog[]): void {
    for (const c of catalogs) {
      this.keptIds.set(catalogKey(c), c.id)
      const n = /^c(\d+)$/.exec(c.id)?.[1]
      if (n) this.nextId = Math.max(this.nextId, Number(n) + 1)
    }
  }

  /** The open catalogs as a restarted host would open them again. */
  opened(): OpenedCatalog[] {
    return [...this.open.values()].map(({ info }) => ({
      id: info.id,
      kind: info.kind,
      location: info.location,
      ...(info.savedId ? { savedId: info.savedId } : {}),
      ...(info.id === this.initialConnection?.id ? { initial: true } : {}),
    }))
  }

  private changed(): void {
    try {
      this.deps.onChange?.(this.opened())
    } catch {
      // a listener's failure is not the catalog's
    }
  }

  /** The catalog the window starts on, once its opening has settled. */
  async initial(): Promise<InitialCatalog> {
    await this.initialPending
    return { connection: this.initialConnection, ...(this.initialError ? { error: this.initialError } : {}) }
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
      this.changed() // now marked as the catalog opened at start
      return this.initialConnection
    })()
    this.initialPending = opening.catch((error: unknown) => {
      this.initialError = toAppError(error).toData()
    })
    return opening
  }

  /** Register an already-built client (e.g. a REST connection) as a root of the tree. */
  add(kind: ConnectionInfo['kind'], label: string, location: string, client: NamespaceClient, savedId?: string): ConnectionInfo {
    const key = catalogKey({ kind, location, savedId })
    const kept = this.keptIds.get(key)
    this.keptIds.delete(key)
    const info: ConnectionInfo = { id: kept && !this.open.has(kept) ? kept : `c${this.nextId++}`, kind, label, location, ...(savedId ? { savedId } : {}) }
    // Opened read-only over what a crashed writer left: reported until `connections/recover`.
    const pending = (client as { pendingRecovery?: string[] }).pendingRecovery
    if (pending?.length) info.pendingRecovery = pending
    this.open.set(info.id, { info, client })
    this.changed()
    return info
  }

  client(connectionId: string): NamespaceClient {
    return this.get(connectionId).client
  }

  infos(): ConnectionInfo[] {
    return [...this.open.values()].map((c) => c.info)
  }

  /** Refuse a write on a read-only connection before it reaches the catalog. */
  guardWrite(method: Method, input: unknown): void {
    if (!CATALOG_WRITES.has(method)) return
    const id = (input as { connectionId?: unknown }).connectionId
    const open = typeof id === 'string' ? this.open.get(id) : undefined
    if (open?.info.readOnly) throw readOnlyError(open.info.label)
  }

  /** The Read-only switch a connection will have, known before it is opened (opening it read-only writes nothing). */
  async readOnlyBeforeOpen(draft: ConnectionInfo): Promise<boolean> {
    return (await this.deps.readOnly.readOnlyOf(readOnlyKey(draft)).catch(() => undefined)) ?? defaultReadOnly(draft)
  }

  /** Answers that open a connection carry its Read-only switch (remembered, or its default). */
  withReadOnlyAnswers<H extends Partial<Handlers>>(handlers: H): H {
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

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.open.values()].map((c) => c.client.close()))
    this.open.clear()
  }

  readonly handlers = {
    // Like app/info, wait for the catalog opened at start: asked together at boot (the renderer does), an earlier
    // answer would leave it out of the list while app/info names it.
    'connections/list': async () => {
      await this.initialPending
      return Promise.all([...this.open.values()].map((c) => this.withReadOnly(c.info)))
    },
    'connections/openDirectory': async ({ path }) => this.withReadOnly(await this.openDirectory(path, { remember: true })),
    'connections/createCatalog': async ({ path }) =>
      this.withReadOnly(await this.openDirectory(path, { remember: true, create: true, storageOptions: path === this.initialTarget?.path ? this.initialTarget.storageOptions : undefined })),
    'connections/setReadOnly': async ({ connectionId, readOnly }) => {
      const open = this.get(connectionId)
      open.info.readOnly = readOnly
      await this.deps.readOnly.setReadOnly(readOnlyKey(open.info), readOnly)
      return open.info
    },
    'connections/recover': async ({ connectionId }) => {
      const open = this.get(connectionId)
      const client = open.client as { recover?: () => Promise<string[]> }
      if (open.info.pendingRecovery && client.recover) {
        this.deps.noteRecovery(open.info.id, open.info.label, await client.recover())
      }
      delete open.info.pendingRecovery
      return open.info
    },
    'connections/close': async ({ connectionId }) => {
      const open = this.open.get(connectionId)
      this.open.delete(connectionId)
      if (this.initialConnection?.id === connectionId) this.initialConnection = null
      if (open) this.changed()
      await open?.client.close()
      return null
    },
    'connections/recent': async () => this.deps.recents.list(),
  } satisfies Partial<Handlers>

  private get(connectionId: string): OpenConnection {
    const open = this.open.get(connectionId)
    if (!open) throw new AppError('not_found', 'This connection is closed', { hint: 'Open it again from the start screen' })
    return open
  }

  /** Apply the remembered Read-only switch (or its default) to a newly opened connection. */
  private async withReadOnly(info: ConnectionInfo): Promise<ConnectionInfo> {
    const open = this.open.get(info.id)
    if (!open) return info
    if (open.info.readOnly === undefined) {
      const stored = await this.deps.readOnly.readOnlyOf(readOnlyKey(open.info)).catch(() => undefined)
      open.info.readOnly = stored ?? defaultReadOnly(open.info)
    }
    return open.info
  }

  private async openDirectory(path: string, { remember, storageOptions, create = false }: { remember: boolean; storageOptions?: StorageOptions; create?: boolean }): Promise<ConnectionInfo> {
    // An object-store URI (az://, s3://, gs://) is opened as given, with its storage options; file:// is its path.
    const scheme = objectStoreScheme(path)
    const root = scheme && scheme !== 'file' ? path.replace(/\/+$/, '') : resolve(scheme === 'file' ? fileURLToPath(path) : path)
    const existing = [...this.open.values()].find((c) => c.info.kind === 'dir' && c.info.location === root)
    if (existing && !create) return existing.info
    // Read-only means no writes, recovery after a crash included: such a catalog is opened without it, and what a
    // crashed writer left is reported (`pendingRecovery`) until the user asks for `connections/recover`.
    const readOnly = await this.readOnlyBeforeOpen({ id: '', kind: 'dir', label: '', location: root })
    // "Create a catalog here" writes `__manifest` into an empty directory only (createCatalogHere refuses the rest).
    const client = create
      ? await createCatalogHere(root, { storageOptions })
      : await connectNamespace('dir', { root, ...storageProperties(storageOptions ?? {}), ...(readOnly ? { recover: 'false' } : {}) })
    const info = this.add('dir', basename(root) || root, root, client)
    info.readOnly = readOnly
    // What opening recovered, and what the catalog cannot show (an object-store root listed without its manifest).
    const opened = client as { recovered?: string[]; notes?: string[] }
    this.deps.noteRecovery(info.id, basename(root) || root, [...(opened.recovered ?? []), ...(opened.notes ?? [])])
    if (remember) await this.deps.recents.add(root)
    return info
  }
}

/** Methods that answer the connection they opened, and those that answer it inside `{ connection }`. */
const OPENING = ['connections/saved/open'] as const satisfies readonly Method[]
const CONNECTING = ['connections/saved/connect'] as const satisfies readonly Method[]
