import type { AddressInfo } from 'node:net'
import { buildApp, type AppOptions } from './app'
import type { StorageOptions } from '../contract/objectStore'
import { Catalogs, openCatalog, type Catalog } from './catalogs'
import { sweepTempFoldersAtStart } from '../core'

export interface ServerOptions extends Omit<AppOptions, 'catalogs' | 'apiKeys'> {
  /** The default catalog (no `x-service-database` header). */
  root?: string
  /** Named catalogs, selected by the `x-service-database` header. */
  databases?: Record<string, string>
  apiKeys: readonly string[]
  /** 127.0.0.1 unless told otherwise. */
  host?: string
  /** 0 = any free port. */
  port?: number
  /** Storage options for object-store roots and databases (`s3://`, `gs://`, `az://`). */
  storageOptions?: StorageOptions
  /** Hand the storage options to clients in describe/declare (`storage_options`): they include secrets. */
  vendStorageOptions?: boolean
}

export interface RunningServer {
  /** `http://host:port` */
  url: string
  /** Stop accepting, let in-flight requests (and every write) finish, then close the catalogs. */
  close(): Promise<void>
}

/** Start our REST catalog server (tests, the CLI, the bench). */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  // The manifest links a killed server left in the temp folder (their names say whose they are).
  void sweepTempFoldersAtStart()
  const named = new Map<string, Catalog>()
  const opened: Catalog[] = []
  try {
    const store = { storageOptions: options.storageOptions, vendStorageOptions: options.vendStorageOptions }
    const fallback = options.root ? await openCatalog('', options.root, store) : undefined
    if (fallback) opened.push(fallback)
    for (const [name, dir] of Object.entries(options.databases ?? {})) {
      const catalog = await openCatalog(name, dir, store)
      opened.push(catalog)
      named.set(name, catalog)
    }
    if (opened.length === 0) throw new Error('Nothing to serve: give a root directory (--root) or a database (--database name=dir)')
    const catalogs = new Catalogs(named, fallback)
    const app = buildApp({ ...options, catalogs })
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 })
    const address = app.server.address() as AddressInfo
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    let closing: Promise<void> | undefined
    return {
      url: `http://${host}:${address.port}`,
      close: () =>
        (closing ??= (async () => {
          await app.close() // stops accepting; waits for in-flight requests
          for (const catalog of opened) await catalog.close() // waits for writes, then releases Lance handles
        })()),
    }
  } catch (error) {
    await Promise.allSettled(opened.map((c) => c.close()))
    throw error
  }
}
