import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { AppError, type ConnectionDraft, type ConnectionInfo, type StorageOptions } from '../contract'
import { CatalogService, MemoryRecentsStore } from '../core/service'

/** Where the catalog is: a directory or object-store root, or a REST catalog server. */
export type Source = { root: string; storageOptions?: StorageOptions } | { rest: string; headers: Record<string, string> }

export interface OpenedSource {
  service: CatalogService
  connection: ConnectionInfo
}

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(resolve(__dirname, '../..'), 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}

/**
 * The core, as the harness and the server run it, with one catalog open. Without `allowWrites` the connection is
 * opened read-only — the app's own Read-only switch, so no write reaches the catalog even through a tool that would
 * try, and a catalog a crashed writer left is opened without recovering it (which would be a write).
 */
export async function openSource(source: Source, allowWrites: boolean): Promise<OpenedSource> {
  const service = new CatalogService({
    host: 'mcp',
    version: appVersion(),
    recents: new MemoryRecentsStore(),
    // The switch's store answers the server's one setting for every catalog.
    readOnly: { readOnlyOf: async () => !allowWrites, setReadOnly: async () => undefined },
  })
  try {
    const connection = 'root' in source ? await service.openInitial(source.root, undefined, source.storageOptions) : await connectRest(service, source.rest, source.headers)
    return { service, connection }
  } catch (error) {
    await service.closeAll()
    throw error
  }
}

async function connectRest(service: CatalogService, endpoint: string, headers: Record<string, string>): Promise<ConnectionInfo> {
  const result = await service.dispatch('connections/saved/connect', { kind: 'rest', draft: restDraft(endpoint, headers) })
  if (!result.ok) throw new AppError(result.error.code, result.error.message, { hint: result.error.hint, detail: result.error.detail })
  return (result.value as { connection: ConnectionInfo }).connection
}

/**
 * `--header k=v` as a connection draft: `x-api-key` and `authorization: Bearer …` are the draft's authentication,
 * `x-service-database` its database; every other header is sent as given (kept as a secret: never shown back).
 */
export function restDraft(endpoint: string, headers: Record<string, string>): ConnectionDraft {
  let auth: ConnectionDraft['auth'] = { kind: 'none' }
  let database: ConnectionDraft['database']
  const extra: { name: string; value: string; secret: boolean }[] = []
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase()
    if (lower === 'x-api-key') auth = { kind: 'api-key', secret: value }
    // `Bearer <token>`, or the token alone (as `--header-env authorization=VAR` gives it).
    else if (lower === 'authorization') auth = { kind: 'bearer', secret: value.replace(/^bearer\s+/i, '') }
    else if (lower === 'x-service-database') database = { kind: 'name', value }
    else if (lower === 'x-service-database-prefix') database = { kind: 'prefix', value }
    else extra.push({ name, value, secret: true })
  }
  let host = 'rest'
  try {
    host = new URL(endpoint).host
  } catch {
    // The draft's own check says what is wrong with the URL.
  }
  return { name: host, endpoint, auth, ...(database ? { database } : {}), headers: extra }
}
