import { stat, readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppError } from '../contract'
import { objectStoreScheme, type StorageOptions } from '../contract/objectStore'
import { type NamespaceClient, type TableId, connectNamespace, claimsFor, DirNamespaceClient, type NameClaims, WireCode } from '../core/namespace'
import { DescribeCache } from './describeCache'
import { DirLocator } from './dirLocator'
import { withFileLock } from './fileLock'
import type { Locator } from './locator'
import { ObjectStoreLocator } from './objectStore/locator'
import { WireError } from './wireErrors'

/** The lock file our server processes take around every write (in the catalog root; hidden). */
export const WRITE_LOCK = '.lcb-server-write.lock'

/** One served directory catalog: our `dir` client, the location helper, and a write lock. */
export class Catalog {
  private tail: Promise<unknown> = Promise.resolve()
  private writes = 0
  private drained: (() => void) | undefined
  /** Descriptions reused while a table is unchanged on disk. */
  readonly descriptions: DescribeCache

  constructor(
    readonly name: string,
    readonly root: string,
    readonly client: NamespaceClient,
    readonly locator: Locator,
    /** Storage options handed to clients in describe/declare (`storage_options`), when the operator allows it. */
    readonly vended?: StorageOptions,
    /** Claims on names by the store's own conditional writes (null where the credentials do not let us make them). */
    readonly claims: NameClaims | null = null,
  ) {
    this.descriptions = new DescribeCache(client, locator)
  }

  /** Drop what is cached about `id` (after this server changed it). */
  forget(id: TableId): void {
    this.locator.forget(id)
    this.descriptions.forget(id)
  }

  /** On object storage: no lock file can exist there, so processes rely on Lance's conditional commits alone. */
  get isObjectStore(): boolean {
    return this.client instanceof DirNamespaceClient && this.client.isObjectStore
  }

  /**
   * Writes run one at a time per catalog: the `__manifest` is one Lance table, and serializing keeps
   * declare-then-check sequences honest. Reads do not wait. Across processes a lock file does the same on a local
   * root; an object-store root has none (see docs/server.md, "Serving a catalog on object storage").
   */
  write<T>(work: () => Promise<T>): Promise<T> {
    this.writes++
    const locked = this.isObjectStore ? work : () => withFileLock(join(this.root, WRITE_LOCK), work)
    const run = this.tail.then(locked, locked)
    this.tail = run.catch(() => undefined)
    return run.finally(() => {
      this.writes--
      if (this.writes === 0) this.drained?.()
    })
  }

  /**
   * A create of the object `parts` (a namespace path, or a table's namespace plus name): the name is claimed first
   * with the store's conditional write, so of any number of creates racing through any number of server processes
   * one runs `work` at a time; `work` checks under the claim that nothing holds the name yet, so exactly one
   * succeeds and the others find the name taken (409, code 2 for a namespace, 5 for a table) — only once it can be
   * seen, as lancedb's client expects when it describes after losing a declare. The claim is released when `work`
   * ends, however it ends.
   */
  async create<T>(parts: readonly string[], subject: 'namespace' | 'table', work: () => Promise<T>): Promise<T> {
    const claim = await this.claims?.claim(parts).catch((error: unknown) => {
      // The store did not answer the claim: nothing was created, and the client may try again.
      throw new AppError('unavailable', `Cannot create ${JSON.stringify(parts.join('/'))} now: the catalog's store did not answer the name claim`, { detail: error instanceof Error ? error.message : String(error) })
    })
    // Still held after the wait: another request's create has run that long. Whether it will succeed is unknown.
    if (claim === null) throw new WireError('conflict', `Another request is still creating the ${subject} ${JSON.stringify(parts.join('/'))}; try again`, WireCode.ConcurrentModification)
    try {
      return await this.write(work)
    } finally {
      await claim?.release()
    }
  }

  /** Resolves when no write is running (graceful shutdown). */
  idle(): Promise<void> {
    if (this.writes === 0) return Promise.resolve()
    return new Promise((resolve) => (this.drained = resolve))
  }

  async close(): Promise<void> {
    await this.idle()
    await this.locator.close()
    await this.client.close()
  }
}

export interface CatalogOptions {
  /** For object-store roots (`s3://`, `gs://`, `az://`); the cloud's environment variables work too. */
  storageOptions?: StorageOptions
  /** Hand `storageOptions` to clients in describe/declare, so they can reach the data themselves. */
  vendStorageOptions?: boolean
}

/**
 * Open a catalog to serve: a local directory (or `file://` URI), where an empty or missing directory becomes a new
 * catalog and anything else must be one, or an object-store URI.
 */
export async function openCatalog(name: string, dir: string, options: CatalogOptions = {}): Promise<Catalog> {
  const scheme = objectStoreScheme(dir)
  if (scheme && scheme !== 'file') {
    const root = dir.replace(/\/+$/, '')
    const storageOptions = options.storageOptions ?? {}
    // lancedb writes `__manifest` when it is missing: a server given an object-store root makes it a catalog.
    const client = await DirNamespaceClient.open(root, { create: true, storageOptions }).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error
      throw new AppError(error.code, `Cannot open the catalog at ${root}: ${error.message}`, { hint: error.hint, detail: error.detail })
    })
    const claims = claimsFor(root, storageOptions)
    return new Catalog(name, root, client, new ObjectStoreLocator(root, client, claims), options.vendStorageOptions ? storageOptions : undefined, claims)
  }
  const root = resolve(scheme === 'file' ? fileURLToPath(dir) : dir)
  const fresh = await stat(root).then(
    async (s) => s.isDirectory() && (await readdir(root)).length === 0,
    () => true,
  )
  const client = await connectNamespace('dir', fresh ? { root, create: 'true' } : { root })
  return new Catalog(name, root, client, new DirLocator(root), undefined, claimsFor(root))
}

export const DATABASE_HEADER = 'x-service-database'

/** The catalogs a server serves: a default one (`--root`) and named ones (`--database name=dir`). */
export class Catalogs {
  constructor(
    private readonly byName: Map<string, Catalog>,
    private readonly fallback: Catalog | undefined,
  ) {}

  select(database: string | string[] | undefined): Catalog {
    const name = Array.isArray(database) ? database[0] : database
    if (name === undefined || name === '') {
      if (this.fallback) return this.fallback
      throw new AppError('invalid_input', `Name the database in the ${DATABASE_HEADER} header`)
    }
    const catalog = this.byName.get(name)
    if (!catalog) throw new AppError('not_found', `Database "${name}" not found`)
    return catalog
  }

  all(): Catalog[] {
    return [...new Set([...(this.fallback ? [this.fallback] : []), ...this.byName.values()])]
  }
}
