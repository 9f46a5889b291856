import type { AuthKind, SavedConnectionView } from '../../contract/connections'
import { isAlwaysSecretHeader } from '../redact'

/**
 * Saved REST connections. What is on disk (a {@link SavedConnection}) holds no secret: API keys, tokens and
 * secret header values live in a {@link SecretStore} (Electron `safeStorage` in the app, memory in tests),
 * under keys from {@link secretKey}. What goes to the renderer is a {@link ConnectionView}: it says *that* a
 * secret is saved, never what it is.
 */

/** Where the secrets are kept. Main implements it with safeStorage; tests with a Map. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}

export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>()
  async get(key: string) {
    return this.entries.get(key)
  }
  async set(key: string, value: string) {
    this.entries.set(key, value)
  }
  async delete(key: string) {
    this.entries.delete(key)
  }
}

export interface SavedHeader {
  name: string
  /** Present only for non-secret headers; secret values are in the SecretStore. */
  value?: string
  secret: boolean
}

export interface SavedConnection {
  id: string
  name: string
  /** `{base_url}` of the catalog server. */
  endpoint: string
  auth: AuthKind
  /** `x-service-database` (name) or `x-service-database-prefix` (prefix). */
  database?: { kind: 'name' | 'prefix'; value: string }
  headers: SavedHeader[]
  createdAt: number
  updatedAt: number
}

export type { ConnectionDraft, AuthKind } from '../../contract/connections'
export { connectionDraftSchema } from '../../contract/connections'
/** The renderer's view: secrets replaced by "saved" flags (the form shows "••••• saved"). */
export type ConnectionView = SavedConnectionView

/** Where a secret of a connection is kept in the SecretStore. */
export function secretKey(connectionId: string, what: 'auth' | { header: string }): string {
  return what === 'auth' ? `connection/${connectionId}/auth` : `connection/${connectionId}/header/${what.header.toLowerCase()}`
}

/** A header the user marked secret, or one that always is (`Authorization`, `x-api-key`, …). */
export function isSecretHeader(header: { name: string; secret: boolean }): boolean {
  return header.secret || isAlwaysSecretHeader(header.name)
}

/**
 * The `connectNamespace('rest', …)` properties of a saved connection, secrets included — for main only,
 * never for logs or the renderer. Missing secrets are left out (the server will say the key is rejected).
 */
export async function connectionProperties(connection: SavedConnection, secrets: SecretStore): Promise<Record<string, string>> {
  const authSecret = connection.auth === 'none' ? undefined : await secrets.get(secretKey(connection.id, 'auth'))
  const properties = baseProperties(connection.endpoint, connection.auth, authSecret, connection.database)
  for (const header of connection.headers) {
    const value = isSecretHeader(header) ? await secrets.get(secretKey(connection.id, { header: header.name })) : header.value
    if (value !== undefined) properties[`headers.${header.name}`] = value
  }
  return properties
}

/**
 * The properties every REST connection starts from: `uri`, the auth header (when there is a secret) and the
 * database header. Shared by saved connections and unsaved drafts, so both send the same headers.
 */
export function baseProperties(
  endpoint: string,
  auth: AuthKind,
  authSecret: string | undefined,
  database: SavedConnection['database'],
): Record<string, string> {
  const properties: Record<string, string> = { uri: endpoint }
  if (auth !== 'none' && authSecret) {
    if (auth === 'api-key') properties['headers.x-api-key'] = authSecret
    else properties['headers.Authorization'] = /^Bearer\s/i.test(authSecret) ? authSecret : `Bearer ${authSecret}`
  }
  if (database) properties[database.kind === 'name' ? 'headers.x-service-database' : 'headers.x-service-database-prefix'] = database.value
  return properties
}
